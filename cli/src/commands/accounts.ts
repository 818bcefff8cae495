// `asset-delivery accounts create|list`: the tenants of the local server.
import { parseArgs } from "node:util";
import { createAccount, listAccounts, openMigratedDatabase, PLANS } from "@asset-delivery/server";
import { databasePath, isoDate, oneOfSetting, printTable, UsageError, type Command } from "../command";

export const accountsCommand: Command = {
  summary: "Create and list accounts",
  usage: `asset-delivery accounts create NAME [--plan ${PLANS.join("|")}] [--video] [--db PATH]
asset-delivery accounts list [--json] [--db PATH]

  --plan   the account's plan (default enterprise: every report type available)
  --video  turn image-to-video generation on for the account`,

  async run(args) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      options: { plan: { type: "string" }, video: { type: "boolean" }, db: { type: "string" }, json: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
    const db = openMigratedDatabase(databasePath(values.db));
    try {
      if (action === "create") {
        if (positionals.length !== 1) throw new UsageError("accounts create takes exactly one NAME");
        const plan = oneOfSetting(values.plan, "plan", PLANS, "enterprise");
        const account = createAccount(db, { name: positionals[0]!, plan, video: values.video ?? false });
        process.stdout.write(
          `Created account ${account.name} (${account.id}), plan ${account.plan}, video ${account.videoEnabled ? "on" : "off"}\n`,
        );
        return 0;
      }
      if (action === "list") {
        const accounts = listAccounts(db);
        if (values.json) process.stdout.write(JSON.stringify(accounts, null, 2) + "\n");
        else
          printTable(
            ["NAME", "ID", "PLAN", "VIDEO", "CREATED"],
            accounts.map((a) => [a.name, a.id, a.plan, a.videoEnabled ? "on" : "off", isoDate(a.createdAt)]),
          );
        return 0;
      }
      throw new UsageError(
        action === undefined ? "accounts needs an action: create or list" : `unknown action "${action}": use create or list`,
      );
    } finally {
      db.close();
    }
  },
};
