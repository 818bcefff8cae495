// Guesses sent together against a real server: each sign-in attempt is counted before its password
// is checked, so 40 wrong passwords for one email sent together from one address get at most the
// documented 5 checks (401) and 429 for the rest; a guesser does not lock the user out from another
// address, nor from a browser the user signed in with before; and the password-hashing slots are
// shared between addresses, so a flood from many addresses leaves a quiet address's sign-in its
// turn. Clients come from addresses the test chooses, through a trusted proxy (X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addUser, PASSWORD } from "../support/dashboard";
import { openPage, postForm, type HttpSession } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

/** docs/dashboard.md: "After 5 failures for an email from one address ...". */
const DOCUMENTED_FAILURES_PER_EMAIL_HERE = 5;

let server: TestServer;

beforeAll(async () => {
  // The app's clock held still: a wait (1 s after 5 failures) does not run out while the test goes on.
  server = await startTestServer({ trustProxy: "127.0.0.1", now: () => Date.UTC(2026, 0, 1) });
  await addUser(server.db, "target@example.com", ["Sources"]);
  await addUser(server.db, "locked@example.com", ["Sources"]);
  await addUser(server.db, "quiet@example.com", ["Sources"]);
});
afterAll(() => server?.close());

const from = (address: string) => ({ "x-forwarded-for": address });

function deviceCookieOf(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((line) => line.startsWith("asset_delivery_device="))
    ?.split(";")[0];
}

/** A sign-in through a fresh form from `address`, with the browser's device cookie if it has one: the answer. */
async function signInFrom(address: string, email: string, password: string, deviceCookie?: string): Promise<Response> {
  const form = await openPage(server.url, undefined, "/dashboard/login", from(address));
  const session: HttpSession = { ...form.session, cookie: [form.session.cookie, deviceCookie].filter(Boolean).join("; ") };
  return postForm(server.url, session, "/dashboard/login", { email, password }, from(address));
}

describe("parallel sign-in guesses", () => {
  it("checks at most the documented 5 of 40 wrong passwords for one email sent together, 2 at a time (one form, its cookie and token reused)", async () => {
    // 2 in flight, as many as there are hashing slots: no guess is turned away by the slots, so each
    // reaches the throttle, which counts it before its password is checked.
    const form = await openPage(server.url, undefined, "/dashboard/login");
    const answers: Response[] = [];
    let next = 0;
    const sender = async () => {
      for (let i = next++; i < 40; i = next++) {
        answers.push(
          await postForm(server.url, form.session, "/dashboard/login", { email: "target@example.com", password: `wrong guess ${i}` }),
        );
      }
    };
    await Promise.all([sender(), sender()]);
    const statuses = answers.map((answer) => answer.status);
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(DOCUMENTED_FAILURES_PER_EMAIL_HERE);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 429))
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("answers 429 (checking many sign-ins at once) to an address that already has a sign-in waiting for a hashing slot", async () => {
    // Other emails, so the per-email rule is not what refuses them.
    const form = await openPage(server.url, undefined, "/dashboard/login");
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        postForm(server.url, form.session, "/dashboard/login", { email: `someone${i}@example.com`, password: "a wrong password" }),
      ),
    );
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    const busy = bodies.filter((body, i) => answers[i]!.status === 429 && /checking many sign-ins at once/.test(body));
    expect(busy.length).toBeGreaterThan(0);
  });
});

describe("a guesser cannot lock the user out", () => {
  it("by failing from its own address: the right password signs in from another, and at the guesser's address in a browser used before", async () => {
    const before = await signInFrom("198.51.100.20", "locked@example.com", PASSWORD);
    expect(before.status).toBe(303);
    const device = deviceCookieOf(before);
    expect(device).toMatch(/^asset_delivery_device=[\w-]+\.[\w-]+$/);

    const guesses = [];
    for (let i = 0; i <= DOCUMENTED_FAILURES_PER_EMAIL_HERE; i++)
      guesses.push((await signInFrom("203.0.113.20", "locked@example.com", `wrong guess ${i}`)).status);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);

    // The user, elsewhere, with no cookie of ours: signed in.
    expect((await signInFrom("198.51.100.21", "locked@example.com", PASSWORD)).status).toBe(303);
    // At the guesser's address (one office behind one address): a new browser waits, the user's own does not.
    expect((await signInFrom("203.0.113.20", "locked@example.com", PASSWORD)).status).toBe(429);
    expect((await signInFrom("203.0.113.20", "locked@example.com", PASSWORD, device)).status).toBe(303);
    // A cookie proves the email it was given for, no other.
    const othersDevice = deviceCookieOf(await signInFrom("198.51.100.22", "target@example.com", PASSWORD));
    expect(othersDevice).toBeDefined();
    expect((await signInFrom("203.0.113.20", "locked@example.com", PASSWORD, othersDevice)).status).toBe(429);
  });
});

describe("the hashing slots under a flood from many addresses", () => {
  it("let a sign-in from a quiet address through while the flood keeps them busy", async () => {
    let flooding = true;
    const answered: number[] = [];
    // When each flood request was sent and answered, and whether it was turned away because its
    // address already had a sign-in waiting for a slot: one waits only while every slot is busy.
    const turnedAway: { sentAt: number; answeredAt: number }[] = [];
    const floodFrom = async (address: string) => {
      const form = await openPage(server.url, undefined, "/dashboard/login", from(address));
      const tab = async (tabIndex: number) => {
        for (let i = 0; flooding; i++) {
          const sentAt = performance.now();
          const answer = await postForm(
            server.url,
            form.session,
            "/dashboard/login",
            { email: `flood${tabIndex}-${i}@example.com`, password: "a wrong password" },
            from(address),
          );
          const body = await answer.text();
          answered.push(answer.status);
          if (answer.status === 429 && body.includes("checking many sign-ins at once"))
            turnedAway.push({ sentAt, answeredAt: performance.now() });
          // Turned away (its address already waits, or has used its free tries): try again soon.
          if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await Promise.all([0, 1, 2].map(tab));
    };
    const flood = Promise.all(Array.from({ length: 10 }, (_, i) => floodFrom(`203.0.113.${100 + i}`)));
    try {
      // Under way: both slots have been busy and handed on.
      while (answered.filter((status) => status === 401).length < 4) await new Promise((resolve) => setTimeout(resolve, 20));
      const quiet = [];
      const saturated = [];
      for (let i = 0; i < 3; i++) {
        const startedAt = performance.now();
        quiet.push((await signInFrom(`192.0.2.${50 + i}`, "quiet@example.com", PASSWORD)).status);
        const endedAt = performance.now();
        // Sent and answered within this sign-in: the slots were all busy, with a line, while it ran.
        saturated.push(turnedAway.some(({ sentAt, answeredAt }) => sentAt >= startedAt && answeredAt <= endedAt));
      }
      expect(quiet).toEqual([303, 303, 303]);
      expect(saturated, "a flood request turned away for want of a slot during each quiet sign-in").toEqual([true, true, true]);
      expect(answered.filter((status) => status === 429).length).toBeGreaterThan(0); // the flood was turned away meanwhile
    } finally {
      flooding = false;
      await flood;
    }
  }, 60_000); // 3 sign-ins behind the hashes under way: seconds, more on a loaded machine
});
