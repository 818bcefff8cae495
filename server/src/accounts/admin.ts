// Administration of accounts and API keys, outside HTTP: what the dashboard does in the real
// service (spec 5.2), here for the CLI and tests. Each input is checked with a clear message.
import { MAX_KEYS_PER_ACCOUNT, permissionSchema, type Permission } from "@asset-delivery/sdk";
import { createAccountStore, PLANS, type Account, type Plan } from "./account-store";
import { createKeyStore, type ApiKeyRecord } from "./key-store";
import type { Database } from "../store/database";

export class AdminError extends Error {
  override name = "AdminError";
}

/** Runs `action`, turning the RangeError or TypeError of a parser into an AdminError (the reports and usage operations). */
export function asAdminError<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw new AdminError(error.message);
    throw error;
  }
}

/** The account of that name, or every account when no name is given. */
export function accountsNamed(db: Database, name: string | undefined): Account[] {
  const accounts = createAccountStore(db);
  if (name === undefined) return accounts.list();
  const account = accounts.findByName(name);
  if (!account) throw new AdminError(`account "${name}" does not exist`);
  return [account];
}

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function checkPlan(plan: string): Plan {
  if (!(PLANS as readonly string[]).includes(plan)) throw new AdminError(`plan: must be one of ${PLANS.join(", ")} (got "${plan}")`);
  return plan as Plan;
}

function requireAccount(db: Database, name: string): Account {
  const account = createAccountStore(db).findByName(name);
  if (!account) throw new AdminError(`account "${name}" does not exist (create it with: asset-delivery accounts create ${name})`);
  return account;
}

export function createAccount(db: Database, input: { name: string; plan?: string; video?: boolean }): Account {
  if (!ACCOUNT_NAME.test(input.name)) {
    throw new AdminError(
      `account name: must be 1 to 64 letters, digits, dots, underscores or hyphens, starting with a letter or digit (got "${input.name}")`,
    );
  }
  const accounts = createAccountStore(db);
  if (accounts.findByName(input.name))
    throw new AdminError(`account "${input.name}" already exists (names are compared case-insensitively)`);
  return accounts.create({ name: input.name, plan: checkPlan(input.plan ?? "enterprise"), videoEnabled: input.video ?? false });
}

/** Creates the account if absent, else brings its plan and video access to the given values. */
export function ensureAccount(db: Database, input: { name: string; plan: Plan; video: boolean }): Account {
  const accounts = createAccountStore(db);
  const existing = accounts.findByName(input.name);
  if (!existing) return createAccount(db, input);
  const updated = { ...existing, plan: checkPlan(input.plan), videoEnabled: input.video };
  accounts.update(updated);
  return updated;
}

export function listAccounts(db: Database): Account[] {
  return createAccountStore(db).list();
}

export interface CreatedKey {
  id: string;
  name: string;
  /** The plaintext key: shown once, stored only as a hash. */
  key: string;
  account: string;
  userName: string;
  permissions: Permission[];
}

/** Permission names as given on a command line: at least one, each one of the spec's, without repeats. */
export function parsePermissions(names: readonly string[]): Permission[] {
  if (names.length === 0) throw new AdminError(`permissions: give at least one of ${permissionSchema.options.join(", ")}`);
  const permissions = names.map((permission) => {
    const parsed = permissionSchema.safeParse(permission);
    if (!parsed.success) throw new AdminError(`permission "${permission}": ${parsed.error.issues[0]?.message ?? "is not a permission"}`);
    return parsed.data;
  });
  return [...new Set(permissions)];
}

const MAX_KEY_NAME_LENGTH = 100;

/**
 * Creates an API key. `userName` is the acting user named in default deployment annotations;
 * it defaults to the account name. `name` says what the key is for (default none);
 * `createdByUserId` the dashboard user making it (none from the CLI).
 */
export function createKey(
  db: Database,
  input: { account: string; permissions: readonly string[]; userName?: string; name?: string; createdByUserId?: string },
): CreatedKey {
  const permissions = parsePermissions(input.permissions);
  const name = (input.name ?? "").trim();
  if (name.length > MAX_KEY_NAME_LENGTH) throw new AdminError(`name: must be at most ${MAX_KEY_NAME_LENGTH} characters`);
  const userName = input.userName ?? input.account;
  if (userName.trim() === "" || userName.length > 255) throw new AdminError("user name: must be 1 to 255 characters and not blank");

  return db
    .transaction(() => {
      const account = requireAccount(db, input.account);
      const keys = createKeyStore(db);
      if (keys.countActive(account.id) >= MAX_KEYS_PER_ACCOUNT) {
        throw new AdminError(
          `account "${account.name}" already has ${MAX_KEYS_PER_ACCOUNT} active API keys, the limit per account: revoke one first`,
        );
      }
      const { record, key } = keys.create({ accountId: account.id, name, userName, createdByUserId: input.createdByUserId, permissions });
      return { id: record.id, name: record.name, key, account: account.name, userName: record.userName, permissions: record.permissions };
    })
    .immediate();
}

export function listKeys(db: Database, input: { account: string }): ApiKeyRecord[] {
  return createKeyStore(db).listByAccount(requireAccount(db, input.account).id);
}

export function revokeKey(db: Database, id: string): void {
  const keys = createKeyStore(db);
  const record = keys.findById(id);
  if (!record) throw new AdminError(`API key "${id}" does not exist`);
  if (!keys.revoke(id)) throw new AdminError(`API key "${id}" was already revoked`);
}
