// Runs report generation in the server process: at every 00:00 UTC for the day that just ended,
// and once at start for yesterday (idempotent, so a restart catches up on a missed midnight).
// Retention is applied at the same moments.
import type { AccountStore } from "../accounts/account-store";
import { addDays, endOfDay, yesterdayOf, type ReportDate } from "./periods";
import type { ReportGenerator } from "./generator";

export interface ReportSchedulerOptions {
  generator: Pick<ReportGenerator, "generate" | "purgeExpired">;
  accounts: Pick<AccountStore, "list">;
  now: () => number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

// A timer may fire a little before the wall clock reaches midnight (and with a clock that tests
// hold still, midnight never comes): never run again sooner than this.
const MIN_DELAY_MS = 1_000;

export function startReportScheduler(options: ReportSchedulerOptions): { stop(): void } {
  const { generator, accounts, now, log } = options;
  let timer: NodeJS.Timeout | undefined;

  /** Generates the day's reports for every account that existed when it ended. */
  function generateDay(date: ReportDate): void {
    const dayEnd = endOfDay(date) / 1000;
    try {
      const purged = generator.purgeExpired();
      let generated = 0;
      for (const account of accounts.list().filter((a) => a.createdAt < dayEnd)) generated += generator.generate(account, date).length;
      log.info({ date, reports: generated, purged }, "daily reports up to date");
    } catch (error) {
      log.error({ err: error, date }, "daily report generation failed; retried at the next run");
    }
  }

  /** Generates each day that ended after `last`, in order; returns the last day generated. */
  function catchUp(last: ReportDate): ReportDate {
    for (let day = addDays(last, 1); day <= yesterdayOf(now()); day = addDays(day, 1)) {
      generateDay(day);
      last = day;
    }
    return last;
  }

  // The next run is due when the day after the last one generated ends. Asking the clock for "the
  // next midnight" instead would skip a day whenever the timer fired early (the run still sees the
  // old day) or generation ran past 00:00.
  function scheduleAfter(last: ReportDate): void {
    const due = endOfDay(addDays(last, 1));
    timer = setTimeout(() => scheduleAfter(catchUp(last)), Math.max(MIN_DELAY_MS, due - now()));
    timer.unref();
  }

  const yesterday = yesterdayOf(now());
  generateDay(yesterday);
  scheduleAfter(yesterday);
  return { stop: () => clearTimeout(timer) };
}
