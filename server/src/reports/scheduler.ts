// When reports are generated: at every 00:00 UTC for the day that just ended, and once at start
// for yesterday (idempotent, so a restart catches up on a missed midnight). Retention is applied at
// the same moments. The generation itself may be asynchronous (a worker process): runs never overlap.
import type { Account, AccountStore } from "../accounts/account-store";
import { addDays, endOfDay, yesterdayOf, type UtcDay } from "../usage/days";
import type { ReportGenerator } from "./generator";

export interface ReportSchedulerOptions {
  generator: {
    /** Generates the account's missing reports of the day (resolves with how many). */
    generate(account: Account, date: UtcDay): Promise<number> | number;
    purgeExpired: ReportGenerator["purgeExpired"];
  };
  accounts: Pick<AccountStore, "list">;
  now: () => number;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

// A timer may fire a little before the wall clock reaches midnight (and with a clock that tests
// hold still, midnight never comes): never run again sooner than this.
const MIN_DELAY_MS = 1_000;
// A day whose generation failed (a full disk, a locked database) is tried again this much later.
const RETRY_DELAY_MS = 60_000;

export interface ReportScheduler {
  /** Resolves when the run in progress (if any) has ended; no run starts after it. */
  stop(): Promise<void>;
}

export function startReportScheduler(options: ReportSchedulerOptions): ReportScheduler {
  const { generator, accounts, now, log } = options;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  /** Generates the day's reports for every account that existed when it ended; false if that failed. */
  async function generateDay(date: UtcDay): Promise<boolean> {
    const dayEnd = endOfDay(date) / 1000;
    try {
      const purged = generator.purgeExpired();
      let generated = 0;
      for (const account of accounts.list().filter((a) => a.createdAt < dayEnd)) {
        if (stopped) return false;
        generated += await generator.generate(account, date);
      }
      log.info({ date, reports: generated, purged }, "daily reports up to date");
      return true;
    } catch (error) {
      if (stopped) return false; // the server is closing: the day is done at the next start
      log.error({ err: error, date, retryInMs: RETRY_DELAY_MS }, "daily report generation failed; the day is tried again");
      return false;
    }
  }

  /**
   * Generates each day that had ended after `last` when the run began, in order, up to the first
   * that fails. (A day that ends meanwhile is due at once, so the next run takes it.)
   */
  async function catchUp(last: UtcDay): Promise<{ last: UtcDay; failed: boolean }> {
    const yesterday = yesterdayOf(now());
    for (let day = addDays(last, 1); day <= yesterday; day = addDays(day, 1)) {
      if (!(await generateDay(day))) return { last, failed: true };
      last = day;
    }
    return { last, failed: false };
  }

  // The next run is due when the day after the last one generated ends. Asking the clock for "the
  // next midnight" instead would skip a day whenever the timer fired early (the run still sees the
  // old day) or generation ran past 00:00.
  function scheduleAfter({ last, failed }: { last: UtcDay; failed: boolean }): void {
    if (stopped) return;
    const delay = failed ? RETRY_DELAY_MS : Math.max(MIN_DELAY_MS, endOfDay(addDays(last, 1)) - now());
    timer = setTimeout(() => run(last), delay);
    timer.unref();
  }

  function run(last: UtcDay): void {
    running = catchUp(last).then(scheduleAfter);
  }

  // At start, yesterday (the day before it counts as done: older days are backfilled by command).
  run(addDays(yesterdayOf(now()), -1));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
