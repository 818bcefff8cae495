// Users of the dashboard: people of an account who sign in with an email and a password and hold
// permissions (the spec's, section 5), up to which they may create API keys.
import type { Permission } from "@asset-delivery/sdk";
import type { Database } from "../../store/database";
import { newId } from "../../store/random";
import { canonicalEmail } from "./email";

export interface DashboardUser {
  id: string;
  accountId: string;
  email: string;
  permissions: Permission[];
  /** Unix seconds. */
  createdAt: number;
  /** Moved on by each password change: sessions signed in under another epoch have ended. */
  sessionEpoch: number;
}

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  permissions: string;
  password_hash: string;
  created_at: number;
  session_epoch: number;
}

function toUser(row: UserRow): DashboardUser {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    permissions: JSON.parse(row.permissions) as Permission[],
    createdAt: row.created_at,
    sessionEpoch: row.session_epoch,
  };
}

export type UserStore = ReturnType<typeof createUserStore>;

export function createUserStore(db: Database, now: () => number = Date.now) {
  const insert = db.prepare(
    "INSERT INTO dashboard_users (id, account_id, email, permissions, password_hash, created_at) VALUES (@id, @account_id, @email, @permissions, @password_hash, @created_at)",
  );
  const byId = db.prepare<[string], UserRow>("SELECT * FROM dashboard_users WHERE id = ?");
  const byEmail = db.prepare<[string], UserRow>("SELECT * FROM dashboard_users WHERE email = ?");
  const byAccount = db.prepare<[string], UserRow>("SELECT * FROM dashboard_users WHERE account_id = ? ORDER BY email");
  const remove = db.prepare("DELETE FROM dashboard_users WHERE id = ?");
  const setPassword = db
    .prepare<[string, string], number>(
      "UPDATE dashboard_users SET password_hash = ?, session_epoch = session_epoch + 1 WHERE id = ? RETURNING session_epoch",
    )
    .pluck();
  const removeOtherSessions = db.prepare("DELETE FROM dashboard_sessions WHERE user_id = ? AND id_hash IS NOT ?");
  const removeDevices = db.prepare("DELETE FROM dashboard_devices WHERE user_id = ?");
  const changePassword = db.transaction((id: string, passwordHash: string, keepSession: string | null) => {
    const epoch = setPassword.get(passwordHash, id);
    if (epoch === undefined) return undefined;
    removeOtherSessions.run(id, keepSession);
    removeDevices.run(id);
    return epoch;
  });

  return {
    create(input: { accountId: string; email: string; permissions: Permission[]; passwordHash: string }): DashboardUser {
      const row: UserRow = {
        id: newId(),
        account_id: input.accountId,
        email: canonicalEmail(input.email),
        permissions: JSON.stringify(input.permissions),
        password_hash: input.passwordHash,
        created_at: Math.floor(now() / 1000),
        session_epoch: 0,
      };
      insert.run(row);
      return toUser(row);
    },
    findById(id: string): DashboardUser | undefined {
      const row = byId.get(id);
      return row && toUser(row);
    },
    /** The stored hash of this user's password (the password page's check: by id, since two users' emails may share a canonical form, migrations.ts). */
    passwordHashOf(id: string): string | undefined {
      return byId.get(id)?.password_hash;
    },
    /** The user and the stored hash to check a password against; emails compare in their canonical form (email.ts). */
    findForSignIn(email: string): { user: DashboardUser; passwordHash: string } | undefined {
      const row = byEmail.get(canonicalEmail(email));
      return row && { user: toUser(row), passwordHash: row.password_hash };
    },
    /**
     * For the admin commands: the user with exactly this email text, else the one with its canonical
     * form; so a user whose email could not take the canonical form (migrations.ts) can still be named.
     */
    findForAdmin(email: string): DashboardUser | undefined {
      const row = byEmail.get(email.trim()) ?? byEmail.get(canonicalEmail(email));
      return row && toUser(row);
    },
    listByAccount(accountId: string): DashboardUser[] {
      return byAccount.all(accountId).map(toUser);
    },
    /**
     * Sets the user's password hash, ends every session of theirs but `keepSession` (the hash of the
     * session id that changed it, if any) and forgets their devices (device-cookie.ts); the user's
     * new session epoch, or undefined when no such user.
     */
    setPassword(id: string, passwordHash: string, options: { keepSession?: string } = {}): number | undefined {
      return changePassword(id, passwordHash, options.keepSession ?? null);
    },
    /** Removes the user and, by the foreign key's cascade, every session of theirs. */
    remove(id: string): boolean {
      return remove.run(id).changes === 1;
    },
  };
}
