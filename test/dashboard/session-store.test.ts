// The sessions of signed-out visitors (each sign-in form makes one) are bounded per client address:
// a flood of sign-in pages from one address replaces its own, never another visitor's form.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Session } from "fastify";
import { openMigratedDatabase } from "@asset-delivery/server";
import { afterAll, describe, expect, it } from "vitest";
import { createSessionStore } from "../../server/src/dashboard/session-store";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "session-store-"));
const db = openMigratedDatabase(path.join(dir, "asset-delivery.db"));
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let made = 0;
/** A session of a sign-in form from `address`, as @fastify/session hands it to the store. */
function formSession(address: string): Session {
  made++;
  return { address, _csrf: "secret", cookie: { originalMaxAge: 3_600_000 + made } } as unknown as Session;
}

const save = (store: ReturnType<typeof createSessionStore>, id: string, session: Session) =>
  new Promise<void>((resolve, reject) => store.set(id, session, (error) => (error ? reject(error as Error) : resolve())));
const load = (store: ReturnType<typeof createSessionStore>, id: string) =>
  new Promise<Session | null>((resolve, reject) =>
    store.get(id, (error, session) => (error ? reject(error as Error) : resolve(session ?? null))),
  );

describe("anonymous sessions", () => {
  it("keeps a visitor's sign-in form while another address floods the sign-in page", async () => {
    const store = createSessionStore(db, { perAddress: 3, total: 50 });
    await save(store, "visitor", formSession("198.51.100.1"));
    for (let i = 0; i < 40; i++) await save(store, `flood-${i}`, formSession("203.0.113.9"));
    expect(await load(store, "visitor")).not.toBeNull();
    const fromFlood = db
      .prepare("SELECT count(*) FROM dashboard_sessions WHERE user_id IS NULL AND address = ?")
      .pluck()
      .get("203.0.113.9");
    expect(fromFlood).toBe(3);
    expect(await load(store, "flood-39")).not.toBeNull(); // the newest forms of the flooding address stay
    expect(await load(store, "flood-0")).toBeNull();
  });
});
