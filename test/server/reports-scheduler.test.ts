// When the daily report run happens (server/src/reports/scheduler.ts), with the clock and the
// timers under the test's control: a timer that fires a little before midnight, and a generation
// that runs past it, must not skip the day that ends at that midnight.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Account } from "../../server/src/accounts/account-store";
import { startReportScheduler } from "../../server/src/reports/scheduler";

const account: Account = { id: "a1", name: "acme", plan: "enterprise", videoEnabled: false, disabledReports: [], createdAt: 0 };

describe("the report scheduler", () => {
  let clock: number;
  let generated: string[];
  /** Wall-clock time each generation takes (the clock moves while it works). */
  let generationMs: number;
  /** Dates whose next generation throws (once each). */
  let failing: Set<string>;
  let scheduler: { stop(): Promise<void> } | undefined;

  beforeEach(() => {
    vi.useFakeTimers();
    generated = [];
    generationMs = 0;
    failing = new Set();
  });
  afterEach(async () => {
    await scheduler?.stop();
    vi.useRealTimers();
  });

  /** Starts the scheduler and lets its first run (asynchronous, like a worker thread's) finish. */
  async function start(at: string): Promise<void> {
    clock = Date.parse(at);
    scheduler = startReportScheduler({
      generator: {
        purgeExpired: () => 0,
        generate: (_account, date) => {
          if (failing.delete(date)) throw new Error("disk full");
          generated.push(date);
          clock += generationMs;
          return 0;
        },
      },
      accounts: { list: () => [account] },
      now: () => clock,
      log: { info: () => {}, error: () => {} },
    });
    await vi.advanceTimersByTimeAsync(0);
  }

  /** Lets `ms` pass on the timers while the wall clock reads `wallClock` when they fire. */
  async function fireAfter(ms: number, wallClock: string): Promise<void> {
    clock = Date.parse(wallClock);
    await vi.advanceTimersByTimeAsync(ms);
  }

  it("generates yesterday at start, then each day at the midnight that ends it", async () => {
    await start("2030-01-01T22:00:00Z");
    expect(generated).toEqual(["2029-12-31"]);
    await fireAfter(2 * 3_600_000, "2030-01-02T00:00:00Z");
    expect(generated).toEqual(["2029-12-31", "2030-01-01"]);
    await fireAfter(24 * 3_600_000, "2030-01-03T00:00:00Z");
    expect(generated).toEqual(["2029-12-31", "2030-01-01", "2030-01-02"]);
  });

  it("runs again just after midnight when the timer fired a little before it", async () => {
    await start("2030-01-01T23:59:58Z");
    // Any generation takes 40 ms: a scheduler that regenerated the old day on the early firing would
    // end past 00:00 and, asking the clock for the next midnight, wait a whole day (the CI failure).
    generationMs = 40;
    // The 2 s timer fires 30 ms before the wall clock's midnight.
    await fireAfter(2_000, "2030-01-01T23:59:59.970Z");
    expect(generated).toEqual(["2029-12-31"]); // the day is not over yet: nothing to do
    await fireAfter(1_000, "2030-01-02T00:00:00.970Z");
    expect(generated).toEqual(["2029-12-31", "2030-01-01"]);
  });

  it("catches up on every day that ended while the process was stalled, in order", async () => {
    generationMs = 26 * 3_600_000; // a run that took more than a day: 2030-01-01 ends meanwhile
    await start("2030-01-01T23:00:00Z");
    expect(generated).toEqual(["2029-12-31"]);
    generationMs = 0;
    await fireAfter(1_000, "2030-01-03T01:00:01Z"); // due already: the shortest delay
    expect(generated).toEqual(["2029-12-31", "2030-01-01", "2030-01-02"]);
  });

  it("tries a day whose generation failed again a minute later, before the days after it", async () => {
    failing.add("2030-01-01");
    await start("2030-01-01T23:00:00Z");
    await fireAfter(3_600_000, "2030-01-02T00:00:00Z");
    expect(generated).toEqual(["2029-12-31"]); // 2030-01-01 failed
    await fireAfter(59_000, "2030-01-02T00:00:59Z");
    expect(generated).toEqual(["2029-12-31"]);
    await fireAfter(1_000, "2030-01-02T00:01:00Z");
    expect(generated).toEqual(["2029-12-31", "2030-01-01"]);
    await fireAfter(86_340_000, "2030-01-03T00:00:00Z");
    expect(generated).toEqual(["2029-12-31", "2030-01-01", "2030-01-02"]);
  });

  it("tries yesterday again a minute later when generation at start failed", async () => {
    failing.add("2029-12-31");
    await start("2030-01-01T08:00:00Z");
    expect(generated).toEqual([]);
    await fireAfter(60_000, "2030-01-01T08:01:00Z");
    expect(generated).toEqual(["2029-12-31"]);
  });
});
