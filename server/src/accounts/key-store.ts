// API keys: created with a set of permissions for one user of an account, looked up by the hash
// of the presented key on every request, revoked but never deleted (revocation is kept for audit).
import type { Permission } from "@asset-delivery/sdk";
import type { Database } from "../store/database";
import { newId } from "../store/random";
import { generateApiKey, hashApiKey } from "./api-key";

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** What the key is for, as its creator named it; "" when unnamed. */
  name: string;
  userName: string;
  /** The dashboard user who made the key; null when made otherwise (the CLI). */
  createdByUserId: string | null;
  permissions: Permission[];
  /** Unix seconds. */
  createdAt: number;
  revokedAt: number | null;
}

/** Who is calling: what the auth hook puts on `request.auth`. */
export interface AuthContext {
  accountId: string;
  keyId: string;
  userName: string;
  permissions: Permission[];
}

interface KeyRow {
  id: string;
  account_id: string;
  name: string;
  user_name: string;
  created_by_user_id: string | null;
  permissions: string;
  created_at: number;
  revoked_at: number | null;
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    userName: row.user_name,
    createdByUserId: row.created_by_user_id,
    permissions: JSON.parse(row.permissions) as Permission[],
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export type KeyStore = ReturnType<typeof createKeyStore>;

export function createKeyStore(db: Database, now: () => number = Date.now) {
  const insert = db.prepare(
    "INSERT INTO api_keys (id, account_id, name, user_name, created_by_user_id, permissions, key_hash, created_at) VALUES (@id, @account_id, @name, @user_name, @created_by_user_id, @permissions, @key_hash, @created_at)",
  );
  const activeCount = db.prepare<[string], number>("SELECT count(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL").pluck();
  const byAccount = db.prepare<[string], KeyRow>("SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, rowid");
  const byId = db.prepare<[string], KeyRow>("SELECT * FROM api_keys WHERE id = ?");
  const revoke = db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
  const activeByHash = db.prepare<[string], Pick<KeyRow, "id" | "account_id" | "user_name" | "permissions">>(
    "SELECT id, account_id, user_name, permissions FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL",
  );
  return {
    /** Creates a key and returns its plaintext: the only time it exists outside the caller's hands. */
    create(input: { accountId: string; name?: string; userName: string; createdByUserId?: string; permissions: Permission[] }): {
      record: ApiKeyRecord;
      key: string;
    } {
      const key = generateApiKey();
      const row: KeyRow = {
        id: newId(),
        account_id: input.accountId,
        name: input.name ?? "",
        user_name: input.userName,
        created_by_user_id: input.createdByUserId ?? null,
        permissions: JSON.stringify(input.permissions),
        created_at: Math.floor(now() / 1000),
        revoked_at: null,
      };
      insert.run({ ...row, key_hash: hashApiKey(key) });
      return { record: toRecord(row), key };
    },
    countActive(accountId: string): number {
      return activeCount.get(accountId) ?? 0;
    },
    listByAccount(accountId: string): ApiKeyRecord[] {
      return byAccount.all(accountId).map(toRecord);
    },
    findById(id: string): ApiKeyRecord | undefined {
      const row = byId.get(id);
      return row && toRecord(row);
    },
    /** Revokes an active key; false if it does not exist or was already revoked. */
    revoke(id: string): boolean {
      return revoke.run(Math.floor(now() / 1000), id).changes === 1;
    },
    /**
     * The caller of a presented key, or undefined if the key is unknown or revoked. Asked of the
     * database on every request, never remembered: a key revoked by any process (the CLI while the
     * server runs) is refused on the very next request.
     */
    authenticate(key: string): AuthContext | undefined {
      const row = activeByHash.get(hashApiKey(key));
      return (
        row && {
          accountId: row.account_id,
          keyId: row.id,
          userName: row.user_name,
          permissions: JSON.parse(row.permissions) as Permission[],
        }
      );
    },
  };
}
