// `asset-delivery demo`: what the quick start needs, idempotently: an account "demo" (enterprise,
// video on) and a fresh Account Admin key, printed as JSON.
import { parseArgs } from "node:util";
import { MAX_KEYS_PER_ACCOUNT } from "@asset-delivery/sdk";
import { createKey, ensureAccount, listKeys, openMigratedDatabase, revokeKey } from "@asset-delivery/server";
import { databasePath, type Command } from "../command";

const DEMO_ACCOUNT = "demo";
const DEMO_USER = "demo";

export const demoCommand: Command = {
  summary: "Ensure the demo account and print a fresh Account Admin key as JSON",
  usage: `asset-delivery demo [--db PATH]

Creates the account "${DEMO_ACCOUNT}" (enterprise, video on) if needed and prints
{"id", "key", "account", "permissions"} of a new Account Admin key. Run it again for another key;
at the limit of ${MAX_KEYS_PER_ACCOUNT} keys, the oldest key issued by this command is revoked.`,

  async run(args) {
    const { values } = parseArgs({ args, options: { db: { type: "string" } }, strict: true });
    const db = openMigratedDatabase(databasePath(values.db));
    try {
      const created = db.transaction(() => {
        ensureAccount(db, { name: DEMO_ACCOUNT, plan: "enterprise", video: true });
        const active = listKeys(db, { account: DEMO_ACCOUNT }).filter((k) => k.revokedAt === null);
        const oldestDemoKey = active.find((k) => k.userName === DEMO_USER);
        if (active.length >= MAX_KEYS_PER_ACCOUNT && oldestDemoKey) revokeKey(db, oldestDemoKey.id);
        return createKey(db, { account: DEMO_ACCOUNT, permissions: ["Account Admin"], userName: DEMO_USER });
      })();
      process.stdout.write(
        JSON.stringify({ id: created.id, key: created.key, account: created.account, permissions: created.permissions }) + "\n",
      );
      return 0;
    } finally {
      db.close();
    }
  },
};
