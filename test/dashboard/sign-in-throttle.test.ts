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
    for (let i = 0; i < EMAIL_POLICY.freeFailures; i++)
      expect(throttle.attempt("Ada@Example.com", `10.0.0.${i}`)).toEqual({ allowed: true });
    // emails compare case-insensitively
    expect(throttle.attempt(" ada@example.com", "10.9.9.9")).toEqual({ allowed: false, retryAfterMs: 1_000 });
    now += 1_000;
    expect(throttle.attempt("ada@example.com", "10.9.9.9")).toEqual({ allowed: true });
    throttle.succeeded("ada@example.com", "10.9.9.9");
    expect(throttle.attempt("ada@example.com", "10.0.0.1")).toEqual({ allowed: true });

    for (let i = 0; i < ADDRESS_POLICY.freeFailures; i++) expect(throttle.attempt(`user${i}@example.com`, "192.0.2.7").allowed).toBe(true);
    expect(throttle.attempt("someone-new@example.com", "192.0.2.7")).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect(throttle.attempt("someone-new@example.com", "192.0.2.8")).toEqual({ allowed: true });
  });

  it("counts each attempt when it is made, before any outcome: 40 at once let the free ones through", () => {
    const throttle = createSignInThrottle(() => 5_000_000);
    const admitted = Array.from({ length: 40 }, () => throttle.attempt("eve@example.com", "198.51.100.1")).filter((a) => a.allowed);
    expect(admitted).toHaveLength(EMAIL_POLICY.freeFailures);
  });

  it("gives a successful attempt back to the address, and forgets the email's series", () => {
    const throttle = createSignInThrottle(() => 9_000_000);
    for (let i = 0; i < ADDRESS_POLICY.freeFailures + 3; i++) {
      expect(throttle.attempt(`ok${i}@example.com`, "203.0.113.9").allowed).toBe(true);
      throttle.succeeded(`ok${i}@example.com`, "203.0.113.9");
    }
  });
});
