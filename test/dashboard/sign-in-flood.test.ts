// Guesses sent together against a real server: each sign-in attempt is counted before its password
// is checked, so 40 wrong passwords for one email sent at once get at most the documented 5 checks
// (401) and 429 for the rest; and a flood across emails never has more than
// MAX_CONCURRENT_PASSWORD_HASHES hashes running (the others are answered 429 at once).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_POLICY } from "../../server/src/dashboard/sign-in-throttle";
import { addUser } from "../support/dashboard";
import { openPage, postForm } from "../support/dashboard-http";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await addUser(server.db, "target@example.com", ["Sources"]);
});
afterAll(() => server?.close());

describe("parallel sign-in guesses", () => {
  it("checks at most the documented 5 of 40 wrong passwords for one email sent at once (one form, its cookie and token reused)", async () => {
    const form = await openPage(server.url, undefined, "/dashboard/login");
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postForm(server.url, form.session, "/dashboard/login", { email: "target@example.com", password: `wrong guess ${i}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    const checked = statuses.filter((status) => status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(EMAIL_POLICY.freeFailures);
    expect(statuses.filter((status) => status !== 401).every((status) => status === 429)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 429))
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("answers 429 at once when every password-hashing slot is busy", async () => {
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
