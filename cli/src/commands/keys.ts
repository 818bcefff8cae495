// `asset-delivery keys create|list|revoke`: API keys, shown in plain text once, at creation.
import { parseArgs } from "node:util";
import { PERMISSIONS } from "@asset-delivery/sdk";
import { createKey, listKeys, openMigratedDatabase, revokeKey } from "@asset-delivery/server";
import { databasePath, isoDate, printTable, UsageError, type Command } from "../command";

export const keysCommand: Command = {
  summary: "Create, list and revoke API keys",
  usage: `asset-delivery keys create --account NAME --permission P [--permission P ...] [--name TEXT] [--user NAME] [--json] [--db PATH]
asset-delivery keys list --account NAME [--json] [--db PATH]
asset-delivery keys revoke ID [--db PATH]

  --permission  one of: ${PERMISSIONS.map((p) => `"${p}"`).join(", ")}
  --name        what the key is for, shown in lists and the dashboard (at most 100 characters)
  --user        the user the key acts for, named in default deployment annotations (default: the account name)
  --json        create: print {"id", "key", "account", "permissions"}; list: print the keys as JSON
The plaintext key is printed once; the server keeps only its SHA-256 hash.`,

  async run(args) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        account: { type: "string" },
        permission: { type: "string", multiple: true },
        user: { type: "string" },
        name: { type: "string" },
        json: { type: "boolean" },
        db: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    });
    const db = openMigratedDatabase(databasePath(values.db));
    try {
      if (action === "create") {
        if (!values.account) throw new UsageError("keys create needs --account NAME");
        if (!values.permission?.length) throw new UsageError("keys create needs at least one --permission");
        const created = createKey(db, {
          account: values.account,
          permissions: values.permission,
          userName: values.user,
          name: values.name,
        });
        if (values.json) {
          process.stdout.write(
            JSON.stringify({
              id: created.id,
              name: created.name,
              key: created.key,
              account: created.account,
              permissions: created.permissions,
            }) + "\n",
          );
        } else {
          process.stderr.write(
            `Created key ${created.id} for ${created.account} (${created.permissions.join(", ")}). It is shown only now:\n`,
          );
          process.stdout.write(`${created.key}\n`);
        }
        return 0;
      }
      if (action === "list") {
        if (!values.account) throw new UsageError("keys list needs --account NAME");
        const keys = listKeys(db, { account: values.account });
        if (values.json) process.stdout.write(JSON.stringify(keys, null, 2) + "\n");
        else
          printTable(
            ["ID", "NAME", "USER", "PERMISSIONS", "CREATED", "REVOKED"],
            keys.map((k) => [k.id, k.name || "-", k.userName, k.permissions.join(", "), isoDate(k.createdAt), isoDate(k.revokedAt)]),
          );
        return 0;
      }
      if (action === "revoke") {
        if (positionals.length !== 1) throw new UsageError("keys revoke takes exactly one key ID");
        revokeKey(db, positionals[0]!);
        process.stdout.write(`Revoked key ${positionals[0]}\n`);
        return 0;
      }
      throw new UsageError(
        action === undefined ? "keys needs an action: create, list or revoke" : `unknown action "${action}": use create, list or revoke`,
      );
    } finally {
      db.close();
    }
  },
};
