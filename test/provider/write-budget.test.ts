// The run's write budget (provider/src/core/write-budget.ts): what a preview warns of, what a
// waiting write says, how a write refused under maxWait is explained.
import { describe, expect, it } from "vitest";
import { limitsWithHour, RATE_LIMITS, RateBudgetError } from "@asset-delivery/sdk";
import { leastTimeMs, WriteBudget } from "../../provider/src/core/write-budget";
import { PULUMI_INSTRUCTIONS } from "../../provider/src/pulumi-names/instructions";

const NINE_AM = Date.UTC(2026, 0, 1, 9, 0);

function budget(limits: ReturnType<typeof limitsWithHour> | false = RATE_LIMITS, now = () => NINE_AM) {
  const warnings: string[] = [];
  const infos: string[] = [];
  const writes = new WriteBudget({
    warn: async (message) => void warnings.push(message),
    info: async (message) => void infos.push(message),
    limits: () => limits,
    instructions: PULUMI_INSTRUCTIONS, // the shells'
    now,
  });
  return { writes, warnings, infos };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("WriteBudget", () => {
  it("computes the least time from a full budget: the burst at once, then one per token", () => {
    expect(leastTimeMs(200, RATE_LIMITS, "updateSource")).toBe(141 * 60_000);
    expect(leastTimeMs(59, RATE_LIMITS, "updateSource")).toBe(0);
  });

  it("warns once, as the engine ends the provider, when the updates exceed what the limits allow at once", async () => {
    const { writes, warnings } = budget();
    for (let i = 0; i < 200; i++) writes.diffed(true, false);
    for (let i = 0; i < 5; i++) writes.diffed(false, false);
    await settle(1_000); // nothing is timed: a pause of the engine between two diffs says nothing
    expect(warnings).toEqual([]);
    await writes.finalEstimate();
    expect(warnings).toEqual(["200 updates: at 60 per hour this update takes at least 2 h 21 min (59 at once, then one every 1 min)"]);
    await writes.finalEstimate();
    expect(warnings).toHaveLength(1);
  });

  it("says nothing as the engine ends the provider once writes were sent (an update, not a preview)", async () => {
    const { writes, warnings } = budget();
    for (let i = 0; i < 100; i++) writes.diffed(true, false);
    writes.onResponse({ method: "PATCH", path: "/p", endpointClass: "updateSource", attempt: 0, status: 200, durationMs: 1 });
    await writes.finalEstimate();
    expect(warnings).toEqual([]);
  });

  it("names creates and updates when both exceed the budget, and nothing within it", async () => {
    const within = budget();
    for (let i = 0; i < 59; i++) within.writes.diffed(true, false);
    await within.writes.finalEstimate();
    expect(within.warnings).toEqual([]);
    const both = budget();
    for (let i = 0; i < 70; i++) both.writes.checked(true);
    for (let i = 0; i < 100; i++) both.writes.diffed(true, false);
    await both.writes.finalEstimate();
    expect(both.warnings).toEqual([
      "70 creates and 100 updates: at 60 creates per hour and 60 updates per hour this update takes at least 41 min",
    ]);
  });

  it("counts the release-only PATCHes of the run's hand-overs (one per cycle) with the diffs' updates", async () => {
    const { writes, warnings } = budget();
    for (let i = 0; i < 59; i++) writes.diffed(true, false);
    writes.releasesFirst(1);
    await writes.finalEstimate();
    expect(warnings).toEqual(["60 updates: at 60 per hour this update takes at least 1 min (59 at once, then one every 1 min)"]);
  });

  it("says nothing without pacing", async () => {
    const { writes, warnings } = budget(false);
    for (let i = 0; i < 100; i++) writes.diffed(true, false);
    await writes.finalEstimate();
    expect(warnings).toEqual([]);
  });

  it("explains a write refused under maxWait: how many remain and when to run again", () => {
    const { writes } = budget();
    for (let i = 0; i < 100; i++) writes.diffed(true, false);
    for (let i = 0; i < 70; i++)
      writes.onResponse({
        method: "PATCH",
        path: "/api/v1/sources/x",
        endpointClass: "updateSource",
        attempt: 0,
        status: 200,
        durationMs: 1,
      });
    const refused = new RateBudgetError({
      endpointClass: "updateSource",
      method: "PATCH",
      path: "/api/v1/sources/x",
      sendableAt: Date.UTC(2026, 0, 1, 9, 30),
      deadline: Date.UTC(2026, 0, 1, 9, 10),
      readyAt: (count) => Date.UTC(2026, 0, 1, 9, 0) + count * 60_000 + 1,
    });
    const error = writes.explain(refused) as Error;
    expect(error.message).toBe(
      "the hourly update budget is spent; at least 30 writes remain; run `pulumi up` again after 09:31 UTC (assetdelivery:maxWait ran out at 09:10:00 UTC; what was written is in the state)",
    );
    const other = new Error("boom");
    expect(writes.explain(other)).toBe(other);
  });

  it("says what waits, until when, how many were sent and how many wait, at most once each 10 s", () => {
    let clock = NINE_AM;
    const { writes, infos } = budget(limitsWithHour(24_000), () => clock);
    for (let i = 0; i < 150; i++) writes.diffed(true, false);
    const sent = (count: number) => {
      for (let i = 0; i < count; i++)
        writes.onResponse({ method: "PATCH", path: "/p", endpointClass: "updateSource", attempt: 0, status: 200, durationMs: 1 });
    };
    const wait = (waiting: number) =>
      writes.onPacingWait({ endpointClass: "updateSource", method: "PATCH", path: "/p", until: clock + 1_000, waiting });
    sent(59);
    wait(8); // the first wait always says so
    wait(8);
    clock += 9_999;
    sent(1);
    wait(7); // 10 s after the last message, less 1 ms: nothing
    clock += 1;
    wait(6); // 10 s after it: the second message
    clock += 5_000;
    wait(5);
    expect(infos).toEqual([
      "waiting for the hourly update budget (60 per 24 seconds): 59 updates sent, 8 waiting; the next at 09:00:01 UTC",
      "waiting for the hourly update budget (60 per 24 seconds): 60 updates sent, 6 waiting; the next at 09:00:11 UTC",
    ]);
  });
});
