// Runs report generation in the server process: at every 00:00 UTC for the day that just ended,
// and once at start for yesterday (idempotent, so a restart catches up on a missed midnight).
// Retention is applied at the same moments.
import type { AccountStore } from "../accounts/account-store";
import { msUntilNextMidnight, startOfDay, yesterdayOf } from "./periods";
import type { ReportGenerator } from "./generator";

export interface ReportSchedulerOptions {
  generator: ReportGenerator;
  accounts: AccountStore;
  now: () => number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

// With a clock that tests hold still, the next midnight stays near: never spin faster than this.
const MIN_DELAY_MS = 1_000;

export function startReportScheduler(options: ReportSchedulerOptions): { stop(): void; runOnce(): void } {
  const { generator, accounts, now, log } = options;
  let timer: NodeJS.Timeout | undefined;

  function runOnce(): void {
    const date = yesterdayOf(now());
    const dayEnd = startOfDay(date) / 1000 + 86_400;
    try {
      const purged = generator.purgeExpired();
      let generated = 0;
      // Only accounts that existed when the day ended have reports for it.
      for (const account of accounts.list().filter((a) => a.createdAt < dayEnd)) generated += generator.generate(account, date).length;
      log.info({ date, reports: generated, purged }, "daily reports up to date");
    } catch (error) {
      log.error({ err: error, date }, "daily report generation failed; retried at the next run");
    }
  }

  function schedule(): void {
    timer = setTimeout(() => {
      runOnce();
      schedule();
    }, Math.max(MIN_DELAY_MS, msUntilNextMidnight(now())));
    timer.unref();
  }

  runOnce();
  schedule();
  return {
    stop: () => clearTimeout(timer),
    runOnce,
  };
}
