// How repeated failed sign-ins are slowed down (server/src/dashboard/sign-in-throttle.ts), with the
// clock as an input. The numbers are the documented ones (docs/dashboard.md), written out: 5 free
// failures per email from one address (or one known browser), 50 per email from everywhere, 20 per
// address; then 1 s, doubled up to 5 minutes.
import { createSignInThrottle, EMAIL_POLICY, waitMs } from "../../server/src/dashboard/sign-in-throttle";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../support/fake-clock";

const PER_EMAIL_HERE = 5;
const PER_EMAIL_EVERYWHERE = 50;
const PER_ADDRESS = 20;

describe("waitMs", () => {
  it("lets the free failures through, then doubles the wait up to the cap", () => {
    const at = (count: number) => waitMs(EMAIL_POLICY, { count, lastAt: 0 }, 0);
    expect([0, 1, 4].map(at)).toEqual([0, 0, 0]);
    expect([5, 6, 7, 8].map(at)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(at(40)).toBe(300_000);
  });

  it("counts the wait from the last failure, and forgets a series after an hour", () => {
    expect(waitMs(EMAIL_POLICY, { count: 7, lastAt: 10_000 }, 12_500)).toBe(1_500);
    expect(waitMs(EMAIL_POLICY, { count: 7, lastAt: 10_000 }, 14_000)).toBe(0);
    expect(waitMs(EMAIL_POLICY, { count: 50, lastAt: 0 }, 3_600_000)).toBe(0);
  });
});

describe("createSignInThrottle", () => {
  it("slows one email down from one address, and one address across emails", () => {
    let now = 1_000_000;
    const throttle = createSignInThrottle(() => now);
    for (let i = 0; i < PER_EMAIL_HERE; i++)
      expect(throttle.attempt({ email: "Ada@Example.com", address: "10.0.0.1" })).toEqual({ allowed: true });
    // emails compare case-insensitively
    expect(throttle.attempt({ email: " ada@example.com", address: "10.0.0.1" })).toEqual({ allowed: false, retryAfterMs: 1_000 });
    now += 1_000;
    expect(throttle.attempt({ email: "ada@example.com", address: "10.0.0.1" })).toEqual({ allowed: true });

    for (let i = 0; i < PER_ADDRESS; i++)
      expect(throttle.attempt({ email: `user${i}@example.com`, address: "192.0.2.7" }).allowed).toBe(true);
    expect(throttle.attempt({ email: "someone-new@example.com", address: "192.0.2.7" })).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect(throttle.attempt({ email: "someone-new@example.com", address: "192.0.2.8" })).toEqual({ allowed: true });
  });

  it("does not lock the user out from another address: a guesser's failures count for the email from its own address", () => {
    let now = 2_000_000;
    const throttle = createSignInThrottle(() => now);
    for (let i = 0; i < PER_EMAIL_HERE; i++) throttle.attempt({ email: "ada@example.com", address: "203.0.113.66" });
    expect(throttle.attempt({ email: "ada@example.com", address: "203.0.113.66" }).allowed).toBe(false);
    // One try every 5 minutes from the guesser's address keeps it waiting, never the user elsewhere.
    for (let i = 0; i < 5; i++) {
      now += 300_000;
      throttle.attempt({ email: "ada@example.com", address: "203.0.113.66" });
      expect(throttle.attempt({ email: "ada@example.com", address: "198.51.100.10" })).toEqual({ allowed: true });
      throttle.succeeded({ email: "ada@example.com", address: "198.51.100.10" });
    }
  });

  it("holds the email from everywhere after many addresses' failures, except in a browser it signed in with before", () => {
    const now = 3_000_000;
    const throttle = createSignInThrottle(() => now);
    for (let i = 0; i < PER_EMAIL_EVERYWHERE; i++)
      expect(throttle.attempt({ email: "bob@example.com", address: `10.1.0.${i}` }).allowed).toBe(true);
    expect(throttle.attempt({ email: "bob@example.com", address: "10.2.0.1" })).toEqual({ allowed: false, retryAfterMs: 1_000 });
    // The user's own browser (its device cookie's id) is past the email's lock, even at a guesser's address...
    expect(throttle.attempt({ email: "bob@example.com", address: "10.1.0.1", device: "bobs-laptop" })).toEqual({ allowed: true });
    // ...within a series of its own, and the address's limit stays.
    for (let i = 1; i < PER_EMAIL_HERE; i++) throttle.attempt({ email: "bob@example.com", address: "10.3.0.1", device: "bobs-laptop" });
    expect(throttle.attempt({ email: "bob@example.com", address: "10.3.0.2", device: "bobs-laptop" }).allowed).toBe(false);
    expect(throttle.attempt({ email: "bob@example.com", address: "10.3.0.2", device: "bobs-phone" }).allowed).toBe(true);
    for (let i = 0; i < PER_ADDRESS; i++) throttle.attempt({ email: `other${i}@example.com`, address: "10.4.0.1" });
    expect(throttle.attempt({ email: "bob@example.com", address: "10.4.0.1", device: "bobs-tablet" }).allowed).toBe(false);
  });

  it("counts each attempt when it is made, before any outcome: 40 at once let the free ones through", () => {
    const throttle = createSignInThrottle(() => 5_000_000);
    const admitted = Array.from({ length: 40 }, () => throttle.attempt({ email: "eve@example.com", address: "198.51.100.1" })).filter(
      (a) => a.allowed,
    );
    expect(admitted).toHaveLength(PER_EMAIL_HERE);
  });

  it("gives a successful attempt back to the address, and forgets the email's series", () => {
    const throttle = createSignInThrottle(() => 9_000_000);
    // One email, one address: each success forgets the failures before it, however many rounds.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < PER_EMAIL_HERE - 1; i++)
        expect(throttle.attempt({ email: "ok@example.com", address: "203.0.113.9" }).allowed).toBe(true);
      expect(throttle.attempt({ email: "ok@example.com", address: "203.0.113.9" }).allowed).toBe(true);
      throttle.succeeded({ email: "ok@example.com", address: "203.0.113.9" });
    }
    // Successes give the address its attempts back: more than its free failures, all allowed.
    for (let i = 0; i < PER_ADDRESS + 3; i++) {
      expect(throttle.attempt({ email: `ok${i}@example.com`, address: "203.0.113.10" }).allowed).toBe(true);
      throttle.succeeded({ email: `ok${i}@example.com`, address: "203.0.113.10" });
    }
  });
});

describe("counts an attacker cannot evict", () => {
  it("keeps the email's count from everywhere through 60,000 junk emails from as many addresses", () => {
    const now = 7_000_000;
    const throttle = createSignInThrottle(() => now);
    for (let i = 0; i < PER_EMAIL_EVERYWHERE; i++) throttle.attempt({ email: "victim@example.com", address: `10.9.${i}.1` });
    expect(throttle.attempt({ email: "victim@example.com", address: "10.8.0.1" }).allowed).toBe(false);
    for (let i = 0; i < 60_000; i++) {
      throttle.attempt({ email: `junk${i}@example.com`, address: `100.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
    }
    // Refused still: junk that shares the victim's cells can only add to its count.
    expect(throttle.attempt({ email: "victim@example.com", address: "10.8.0.2" })).toMatchObject({ allowed: false });
  });

  it("counts an IPv6 client by its /56 and its /48 as well as its /64", () => {
    const now = 8_000_000;
    const throttle = createSignInThrottle(() => now);
    // Each /64 of one /56 tries once: 40 free tries for the /56 (docs/dashboard.md), then a wait.
    const inSlash56 = (i: number) => `2001:db8:5:${(0x100 + i).toString(16)}::1`;
    for (let i = 0; i < 40; i++) expect(throttle.attempt({ email: `a${i}@example.com`, address: inSlash56(i) }).allowed, `${i}`).toBe(true);
    expect(throttle.attempt({ email: "a40@example.com", address: inSlash56(40) }).allowed).toBe(false);
    // Other /56s of the same /48: 80 free tries for the /48 in all.
    const inSlash48 = (i: number) => `2001:db8:5:${(0x1000 + i * 0x100).toString(16)}::1`;
    for (let i = 0; i < 40; i++) expect(throttle.attempt({ email: `b${i}@example.com`, address: inSlash48(i) }).allowed, `${i}`).toBe(true);
    expect(throttle.attempt({ email: "b40@example.com", address: inSlash48(40) }).allowed).toBe(false);
    expect(throttle.attempt({ email: "c@example.com", address: "2001:db8:6::1" }).allowed).toBe(true); // another /48
  });
});

describe("a day-long flood on a simulated clock", () => {
  it("locks nobody out: a fresh user's first try from a fresh address is allowed after 24 hours of junk touching every cell", async () => {
    const clock = new FakeClock();
    // Tables of 64 cells a row, flooded at 5 failures a cell an hour: every cell touched far more
    // often than hourly, 2.5 times the rate the hashing slots let through on the real tables (2^16
    // cells, some 40 checks a second).
    const cellsPerRow = 64;
    const throttle = createSignInThrottle(() => clock.now(), { cellsPerRow });
    const floodEveryMs = 3_600_000 / (5 * cellsPerRow);
    let junk = 0;
    const junkAttempt = () => {
      junk++;
      return { email: `junk${junk}@example.com`, address: `100.${(junk >> 16) & 255}.${(junk >> 8) & 255}.${junk & 255}` };
    };
    while (clock.elapsed() < 24 * 3_600_000) {
      throttle.attempt(junkAttempt());
      await clock.sleep(floodEveryMs);
    }
    // Then, for an hour, a fresh user a minute tries once from a fresh address, between the junk.
    const refused = [];
    for (let user = 0; user < 60; user++) {
      for (let i = 0; i < 60_000 / floodEveryMs; i++) {
        throttle.attempt(junkAttempt());
        await clock.sleep(floodEveryMs);
      }
      const attempt = { email: `fresh${user}@example.com`, address: `198.18.${user}.1` };
      const admission = throttle.attempt(attempt);
      if (admission.allowed) throttle.succeeded(attempt);
      else refused.push({ user, ...admission });
    }
    expect(refused).toEqual([]);
  });
});
