// Only signed-in sessions are kept (server/src/dashboard/session-store.ts): a session nobody signed
// in with is never written, so visitors who have not signed in leave nothing in the database.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Session } from "fastify";
import { createUser, ensureAccount, openMigratedDatabase } from "@asset-delivery/server";
import { afterAll, describe, expect, it } from "vitest";
import { createSessionStore } from "../../server/src/dashboard/session-store";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "session-store-"));
const db = openMigratedDatabase(path.join(dir, "asset-delivery.db"));
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A session as @fastify/session hands it to the store. */
const sessionOf = (fields: Record<string, unknown>) => ({ ...fields, cookie: { originalMaxAge: 3_600_000 } }) as unknown as Session;

const store = createSessionStore(db);
const save = (id: string, session: Session) =>
  new Promise<void>((resolve, reject) => store.set(id, session, (error) => (error ? reject(error as Error) : resolve())));
const load = (id: string) =>
  new Promise<Session | null>((resolve, reject) =>
    store.get(id, (error, session) => (error ? reject(error as Error) : resolve(session ?? null))),
  );
const rows = () => db.prepare<[], number>("SELECT count(*) FROM dashboard_sessions").pluck().get();

describe("the session store", () => {
  it("writes nothing for a session nobody signed in with", async () => {
    for (let i = 0; i < 50; i++) await save(`visitor-${i}`, sessionOf({ _csrf: "secret" }));
    expect(rows()).toBe(0);
    expect(await load("visitor-0")).toBeNull();
  });

  it("keeps a signed-in session, and none of a user removed meanwhile", async () => {
    ensureAccount(db, { name: "store", plan: "enterprise", video: false });
    const { user } = await createUser(db, {
      account: "store",
      email: "kept@example.com",
      permissions: ["Sources"],
      password: "a long enough password",
    });
    await save("signed-in", sessionOf({ userId: user.id }));
    expect(await load("signed-in")).toMatchObject({ userId: user.id });
    await save("gone", sessionOf({ userId: "no-such-user" }));
    expect(await load("gone")).toBeNull();
    expect(rows()).toBe(1);
  });
});
