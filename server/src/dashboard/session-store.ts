// Where @fastify/session keeps sessions: the server's SQLite database, so a session survives a
// restart, `users remove` (another process) signs the user out at once, and nothing grows without
// bound. Sessions are looked up by the SHA-256 of their id. Sessions nobody has signed in with
// (each sign-in form makes one for its CSRF secret) are bounded per client address, so a flood of
// sign-in pages from one address replaces only its own, never other visitors' forms, and in all.
import { hash } from "node:crypto";
import type { Session } from "fastify";
import type { SessionStore } from "@fastify/session";
import type { Database } from "../store/database";

declare module "fastify" {
  interface Session {
    /** The signed-in user; absent before sign-in. */
    userId?: string;
    /** The client address of a session nobody has signed in with yet: its sign-in form's. */
    address?: string;
  }
}

/** Most sessions kept that nobody has signed in with, from one address and in all. */
export const MAX_ANONYMOUS_SESSIONS_PER_ADDRESS = 20;
export const MAX_ANONYMOUS_SESSIONS = 10_000;

export function idHash(sessionId: string): string {
  return hash("sha256", sessionId, "hex");
}

/** Milliseconds when the session's cookie expires. */
function expiryOf(session: Session): number {
  const expires = session.cookie.expires;
  return expires ? new Date(expires).getTime() : Date.now() + session.cookie.originalMaxAge!;
}

// @fastify/session's callback API; every statement is synchronous, so each callback is called at once.
export function createSessionStore(
  db: Database,
  limits: { perAddress: number; total: number } = { perAddress: MAX_ANONYMOUS_SESSIONS_PER_ADDRESS, total: MAX_ANONYMOUS_SESSIONS },
): SessionStore {
  // A session whose user was removed meanwhile (by another process) is not written back: it ends.
  const upsert = db.prepare(`INSERT INTO dashboard_sessions (id_hash, user_id, address, data, expires_at)
    SELECT @id_hash, @user_id, @address, @data, @expires_at WHERE @user_id IS NULL OR EXISTS (SELECT 1 FROM dashboard_users WHERE id = @user_id)
    ON CONFLICT (id_hash) DO UPDATE SET user_id = excluded.user_id, address = excluded.address, data = excluded.data, expires_at = excluded.expires_at`);
  // @fastify/session compares expiry with Date.now() itself: the store does the same.
  const read = db.prepare<[string, number], string>("SELECT data FROM dashboard_sessions WHERE id_hash = ? AND expires_at > ?").pluck();
  const remove = db.prepare("DELETE FROM dashboard_sessions WHERE id_hash = ?");
  const removeExpired = db.prepare("DELETE FROM dashboard_sessions WHERE expires_at <= ?");
  const anonymousCount = db.prepare<[], number>("SELECT count(*) FROM dashboard_sessions WHERE user_id IS NULL").pluck();
  const anonymousCountFrom = db
    .prepare<[string], number>("SELECT count(*) FROM dashboard_sessions WHERE user_id IS NULL AND address = ?")
    .pluck();
  const removeOldestAnonymous = db.prepare(
    "DELETE FROM dashboard_sessions WHERE id_hash IN (SELECT id_hash FROM dashboard_sessions WHERE user_id IS NULL ORDER BY expires_at LIMIT ?)",
  );
  const removeOldestAnonymousFrom = db.prepare(
    "DELETE FROM dashboard_sessions WHERE id_hash IN (SELECT id_hash FROM dashboard_sessions WHERE user_id IS NULL AND address = ? ORDER BY expires_at LIMIT ?)",
  );
  const save = db.transaction((sessionId: string, session: Session) => {
    removeExpired.run(Date.now());
    const anonymous = session.userId === undefined;
    const address = anonymous ? (session.address ?? null) : null;
    upsert.run({
      id_hash: idHash(sessionId),
      user_id: session.userId ?? null,
      address,
      data: JSON.stringify(session),
      expires_at: expiryOf(session),
    });
    if (!anonymous) return;
    if (address !== null) {
      const excess = anonymousCountFrom.get(address)! - limits.perAddress;
      if (excess > 0) removeOldestAnonymousFrom.run(address, excess);
    }
    const excess = anonymousCount.get()! - limits.total;
    if (excess > 0) removeOldestAnonymous.run(excess);
  });

  return {
    set(sessionId, session, callback) {
      try {
        save(sessionId, session);
        callback();
      } catch (error) {
        callback(error);
      }
    },
    get(sessionId, callback) {
      try {
        const data = read.get(idHash(sessionId), Date.now());
        callback(null, data === undefined ? null : (JSON.parse(data) as Session));
      } catch (error) {
        callback(error);
      }
    },
    destroy(sessionId, callback) {
      try {
        remove.run(idHash(sessionId));
        callback();
      } catch (error) {
        callback(error);
      }
    },
  };
}
