// `asset-delivery usage import|seed`: feed the usage ledger that reports are computed from.
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { importUsage, openMigratedDatabase, RENDER_CLASSES, seedUsage } from "@asset-delivery/server";
import { databasePath, integerSetting, UsageError, type Command } from "../command";

export const usageCommand: Command = {
  summary: "Import request usage (JSON lines) or seed a realistic sample, for the reports",
  usage: `asset-delivery usage import FILE [--db PATH]
asset-delivery usage seed --days N [--account NAME] [--requests-per-day N] [--db PATH]

  import  reads one JSON object per line (FILE "-" reads standard input), all or nothing:
            {"timestamp": "2024-11-18T13:45:12Z" or Unix seconds, "source_id": "<24-character id>",
             "path": "/products/shoe.jpg?w=400", "status": 200, "bytes": 48213, "cache_hit": true,
             "response_ms": 38, "referer": "", "user_agent": "", "render_class": "standard",
             "origin_bytes": 1048576, "video_seconds": 0}
          referer, user_agent (blank: none sent), render_class (${RENDER_CLASSES.join(", ")}; default standard),
          origin_bytes and video_seconds (default 0) may be omitted
  seed    replaces the seeded sample usage of the last N days (ending yesterday, UTC) of every
          Source of the account (or of every account): deterministic, with a daily traffic curve,
          a few hot images and some 4xx; imported usage is kept
  --requests-per-day  average requests per Source and day (default 400)`,

  async run(args) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        days: { type: "string" },
        account: { type: "string" },
        "requests-per-day": { type: "string" },
        db: { type: "string" },
      },
      allowPositionals: true,
      strict: true,
    });
    if (action !== "import" && action !== "seed") {
      throw new UsageError(
        action === undefined ? "usage needs an action: import or seed" : `unknown action "${action}": use import or seed`,
      );
    }
    if (action === "import" && positionals.length !== 1) throw new UsageError("usage import takes exactly one FILE (- for standard input)");
    if (action === "seed" && !values.days) throw new UsageError("usage seed needs --days N");
    const db = openMigratedDatabase(databasePath(values.db));
    try {
      if (action === "import") {
        const file = positionals[0]!;
        const count = importUsage(db, fs.readFileSync(file === "-" ? 0 : file, "utf8"));
        process.stdout.write(`Imported ${count} usage events\n`);
        return 0;
      }
      const seeded = seedUsage(db, {
        days: integerSetting(values.days, "days", 1, { min: 1, max: 366 }),
        account: values.account,
        requestsPerDay: integerSetting(values["requests-per-day"], "requests-per-day", 400, { min: 1, max: 1_000_000 }),
      });
      process.stdout.write(
        `Seeded ${seeded.events} usage events for ${seeded.sources} Sources, ${seeded.days[0]} to ${seeded.days[seeded.days.length - 1]}\n`,
      );
      return 0;
    } finally {
      db.close();
    }
  },
};
