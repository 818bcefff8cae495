// Tables of the dashboard: the users who sign in, and their sessions.
import type { Migration } from "../store/database";

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
    // Sessions nobody signed in with are bounded per client address (session-store.ts).
    id: "dashboard-004-anonymous-session-addresses",
    up(db) {
      db.exec(`
        ALTER TABLE dashboard_sessions ADD COLUMN address TEXT;
        CREATE INDEX dashboard_sessions_anonymous_by_address ON dashboard_sessions (address, expires_at) WHERE user_id IS NULL;
      `);
    },
  },
];
