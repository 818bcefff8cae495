// Tables of the dashboard: the users who sign in, their sessions and their known browsers.
import type { Database, Migration } from "../store/database";
import { canonicalEmail } from "./users/email";

export const dashboardMigrations: Migration[] = [
  {
    id: "dashboard-001-users-and-sessions",
    up(db) {
      db.exec(`
        CREATE TABLE dashboard_users (
          id            TEXT PRIMARY KEY,
          account_id    TEXT NOT NULL REFERENCES accounts (id),
          -- Sign-in is by email alone, so an email names one user across all accounts.
          email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
          permissions   TEXT NOT NULL CHECK (json_type(permissions) = 'array'),
          -- scrypt$N$r$p$salt$key (server/src/dashboard/users/password.ts); never the password.
          password_hash TEXT NOT NULL,
          created_at    INTEGER NOT NULL
        );
        CREATE INDEX dashboard_users_by_account ON dashboard_users (account_id);

        CREATE TABLE dashboard_sessions (
          -- SHA-256 of the session id: a copy of the database holds no cookie that signs anyone in.
          id_hash    TEXT PRIMARY KEY,
          -- NULL before sign-in (the sign-in form's CSRF secret lives in the session too).
          user_id    TEXT REFERENCES dashboard_users (id) ON DELETE CASCADE,
          data       TEXT NOT NULL CHECK (json_type(data) = 'object'),
          -- Milliseconds.
          expires_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX dashboard_sessions_by_expiry ON dashboard_sessions (expires_at);
      `);
    },
  },
  {
    // A password change moves the user's epoch on, which ends every session signed in before it
    // (server/src/dashboard/session-rules.ts), even one whose request was under way.
    id: "dashboard-002-session-epochs",
    up(db) {
      db.exec("ALTER TABLE dashboard_users ADD COLUMN session_epoch INTEGER NOT NULL DEFAULT 0");
    },
  },
  {
    // Which dashboard user made a key (NULL: the CLI, or before this column): the right to revoke
    // it goes by this id and the user's permissions, never by the email text in user_name.
    id: "dashboard-003-key-creators",
    up(db) {
      db.exec("ALTER TABLE api_keys ADD COLUMN created_by_user_id TEXT");
    },
  },
  {
    // Bounded the sessions nobody signed in with per client address; no longer written since the
    // sign-in form keeps its token in a cookie (sign-in-form.ts) and only signed-in sessions are stored.
    id: "dashboard-004-anonymous-session-addresses",
    up(db) {
      db.exec(`
        ALTER TABLE dashboard_sessions ADD COLUMN address TEXT;
        CREATE INDEX dashboard_sessions_anonymous_by_address ON dashboard_sessions (address, expires_at) WHERE user_id IS NULL;
      `);
    },
  },
  {
    // Emails in one canonical form (users/email.ts), for uniqueness, sign-in and the throttle.
    id: "dashboard-005-canonical-emails",
    up: canonicaliseEmails,
  },
  {
    // The browsers each user signed in with (device-cookie.ts): the newest few per user, by the
    // SHA-256 of their ids; gone with the user.
    id: "dashboard-006-devices",
    up(db) {
      db.exec(`
        CREATE TABLE dashboard_devices (
          user_id     TEXT NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
          device_hash TEXT NOT NULL,
          -- Milliseconds.
          created_at  INTEGER NOT NULL,
          PRIMARY KEY (user_id, device_hash)
        );
      `);
    },
  },
];

/**
 * Brings every user's email to its canonical form. Two users whose emails are one address in that
 * form (`\u212Aate@x` and `kate@x`, which NOCASE told apart) cannot both keep it: the one a sign-in
 * with the canonical text reached before (its email equal to it but for ASCII case, NOCASE's rule)
 * keeps it, else the oldest. The others keep their rows, keys and email text as they were, unchanged, so nothing is
 * lost, but a sign-in no longer reaches them (it looks up the canonical form): `asset-delivery users
 * list` shows them, and `users remove --email` with their exact text removes them.
 */
function canonicaliseEmails(db: Database): void {
  const rows = db.prepare<[], { id: string; email: string }>("SELECT id, email FROM dashboard_users ORDER BY created_at, id").all();
  const byCanonical = new Map<string, { id: string; email: string }[]>();
  for (const row of rows) {
    const canonical = canonicalEmail(row.email);
    byCanonical.set(canonical, [...(byCanonical.get(canonical) ?? []), row]);
  }
  const setEmail = db.prepare("UPDATE dashboard_users SET email = ? WHERE id = ?");
  for (const [canonical, users] of byCanonical) {
    // At most one row equals the canonical form under NOCASE (ASCII case folding): the column's UNIQUE.
    const keeper = users.find((user) => user.email.replace(/[A-Z]/g, (c) => c.toLowerCase()) === canonical) ?? users[0]!;
    if (keeper.email !== canonical) setEmail.run(canonical, keeper.id);
  }
}
