// Where @fastify/session keeps sessions: the server's SQLite database, so a session survives a
// restart, `users remove` (another process) signs the user out at once, and nothing grows without
// bound. Sessions are looked up by the SHA-256 of their id. Only signed-in sessions are kept: the
// sign-in form holds its CSRF token in a cookie (sign-in-form.ts), so nothing a visitor who has not
// signed in sends is written (the table's `address` column, which bounded such sessions per client
// address before, is no longer written).
import { hash } from "node:crypto";
import type { Session } from "fastify";
import type { SessionStore } from "@fastify/session";
import type { Database } from "../store/database";

declare module "fastify" {
  interface Session {
    /** The signed-in user; absent before sign-in. */
    userId?: string;
  }
}

export function idHash(sessionId: string): string {
  return hash("sha256", sessionId, "hex");
}

/** Milliseconds when the session's cookie expires. */
function expiryOf(session: Session): number {
  const expires = session.cookie.expires;
  return expires ? new Date(expires).getTime() : Date.now() + session.cookie.originalMaxAge!;
}

// @fastify/session's callback API; every statement is synchronous, so each callback is called at once.
export function createSessionStore(db: Database): SessionStore {
  // A session whose user was removed meanwhile (by another process) is not written back: it ends.
  const upsert = db.prepare(`INSERT INTO dashboard_sessions (id_hash, user_id, data, expires_at)
    SELECT @id_hash, @user_id, @data, @expires_at WHERE EXISTS (SELECT 1 FROM dashboard_users WHERE id = @user_id)
    ON CONFLICT (id_hash) DO UPDATE SET user_id = excluded.user_id, data = excluded.data, expires_at = excluded.expires_at`);
  // @fastify/session compares expiry with Date.now() itself: the store does the same.
  const read = db.prepare<[string, number], string>("SELECT data FROM dashboard_sessions WHERE id_hash = ? AND expires_at > ?").pluck();
  const remove = db.prepare("DELETE FROM dashboard_sessions WHERE id_hash = ?");
  const removeExpired = db.prepare("DELETE FROM dashboard_sessions WHERE expires_at <= ?");
  const save = db.transaction((sessionId: string, session: Session, userId: string) => {
    removeExpired.run(Date.now());
    upsert.run({ id_hash: idHash(sessionId), user_id: userId, data: JSON.stringify(session), expires_at: expiryOf(session) });
  });

  return {
    set(sessionId, session, callback) {
      try {
        // Nobody signed in: nothing to keep (and nothing an anonymous client sends is written).
        if (session.userId !== undefined) save(sessionId, session, session.userId);
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
