// How repeated failed sign-ins are slowed down (server/src/dashboard/sign-in-throttle.ts), with the clock as an input.
import { ADDRESS_POLICY, createSignInThrottle, EMAIL_POLICY, waitMs } from "../../server/src/dashboard/sign-in-throttle";
import { describe, expect, it } from "vitest";

describe("waitMs", () => {
  it("lets the free failures through, then doubles the wait up to the cap", () => {
    const at = (count: number) => waitMs(EMAIL_POLICY, { count, lastAt: 0 }, 0);
    expect([0, 1, 4].map(at)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8].map(at)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(at(40)).toBe(EMAIL_POLICY.maxWaitMs);
  });

  it("counts the wait from the last failure, and forgets a series after an hour", () => {
    expect(waitMs(EMAIL_POLICY, { count: 7, lastAt: 10_000 }, 12_500)).toBe(1_500);
    expect(waitMs(EMAIL_POLICY, { count: 7, lastAt: 10_000 }, 14_000)).toBe(0);
    expect(waitMs(EMAIL_POLICY, { count: 50, lastAt: 0 }, EMAIL_POLICY.forgetAfterMs)).toBe(0);
  });
});

describe("createSignInThrottle", () => {
  it("slows one email down from any address, and one address across emails", () => {
    let now = 1_000_000;
    const throttle = createSignInThrottle(() => now);
    for (let i = 0; i < EMAIL_POLICY.freeFailures; i++) {
      expect(throttle.retryAfterMs("Ada@Example.com", `10.0.0.${i}`)).toBe(0);
      throttle.failed("Ada@Example.com", `10.0.0.${i}`);
    }
    expect(throttle.retryAfterMs(" ada@example.com", "10.9.9.9")).toBe(1_000); // emails compare case-insensitively
    now += 1_000;
    expect(throttle.retryAfterMs("ada@example.com", "10.9.9.9")).toBe(0);
    throttle.succeeded("ada@example.com");
    expect(throttle.retryAfterMs("ada@example.com", "10.0.0.1")).toBe(0);

    for (let i = 0; i < ADDRESS_POLICY.freeFailures; i++) throttle.failed(`user${i}@example.com`, "192.0.2.7");
    expect(throttle.retryAfterMs("someone-new@example.com", "192.0.2.7")).toBe(1_000);
    expect(throttle.retryAfterMs("someone-new@example.com", "192.0.2.8")).toBe(0);
  });
});
