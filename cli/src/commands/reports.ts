// `asset-delivery reports generate|types`: backfill an account's daily reports from the usage
// ledger, and switch enterprise report types on or off per account.
import * as path from "node:path";
import { parseArgs } from "node:util";
import { REPORT_FILE_SIZE_LIMIT } from "@asset-delivery/sdk";
import { generateReports, OPTIONAL_REPORT_TYPES, openMigratedDatabase, setReportTypes } from "@asset-delivery/server";
import { databasePath, integerSetting, printTable, UsageError, type Command } from "../command";

export const reportsCommand: Command = {
  summary: "Generate reports for a day (backfill) and choose an account's report types",
  usage: `asset-delivery reports generate --date YYYY-MM-DD [--account NAME] [--file-size-limit BYTES] [--db PATH]
asset-delivery reports types --account NAME [--enable TYPE ...] [--disable TYPE ...] [--db PATH]

  generate  creates the reports of a UTC day that is over (idempotent: completed reports are kept),
            for every account or only --account, from the usage ledger; files go next to the database
  --file-size-limit  split report files above this many gzipped bytes (default ${REPORT_FILE_SIZE_LIMIT}, the spec's 64 MB)
  types     prints the report types the account receives; --enable/--disable switch enterprise types:
            ${OPTIONAL_REPORT_TYPES.join(", ")}
            (image_analytics comes with every paid plan; credit analytics need source_analytics)`,

  async run(args) {
    const [action, ...rest] = args;
    const { values } = parseArgs({
      args: rest,
      options: {
        date: { type: "string" },
        account: { type: "string" },
        "file-size-limit": { type: "string" },
        enable: { type: "string", multiple: true },
        disable: { type: "string", multiple: true },
        db: { type: "string" },
      },
      strict: true,
    });
    const dbPath = databasePath(values.db);
    const db = openMigratedDatabase(dbPath);
    try {
      if (action === "generate") {
        if (!values.date) throw new UsageError("reports generate needs --date YYYY-MM-DD");
        const fileSizeLimit = integerSetting(values["file-size-limit"], "file-size-limit", REPORT_FILE_SIZE_LIMIT, {
          min: 1024,
          max: REPORT_FILE_SIZE_LIMIT,
        });
        // The server keeps report files beside its database: the same place.
        const generated = generateReports(db, { date: values.date, account: values.account, dataDir: path.dirname(dbPath), fileSizeLimit });
        printTable(
          ["ACCOUNT", "REPORT", "ID", "FILES"],
          generated.flatMap(({ account, reports }) => reports.map((r) => [account, r.reportKey, r.id, String(r.fileCount)])),
        );
        return 0;
      }
      if (action === "types") {
        if (!values.account) throw new UsageError("reports types needs --account NAME");
        const types = setReportTypes(db, { account: values.account, enable: values.enable, disable: values.disable });
        process.stdout.write(`${values.account} receives: ${types.length ? types.join(", ") : "no reports (free plan)"}\n`);
        return 0;
      }
      throw new UsageError(
        action === undefined ? "reports needs an action: generate or types" : `unknown action "${action}": use generate or types`,
      );
    } finally {
      db.close();
    }
  },
};
