// Users of the dashboard outside HTTP, for `asset-delivery users ...` and tests. Bad input fails
// with an AdminError naming the field and the rule.
import { AdminError, parsePermissions } from "../../accounts/admin";
import { createAccountStore } from "../../accounts/account-store";
import type { Database } from "../../store/database";
import { canonicalEmail, MAX_EMAIL_LENGTH } from "./email";
import { generatePassword, hashPassword, passwordProblem } from "./password";
import { createUserStore, type DashboardUser } from "./user-store";

// An address with one @, something on each side and a dot in the domain; at most 254 characters (RFC 5321).
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Checked in the form that is stored and compared: NFKC can turn one character into an `@`
// (U+FE6B, U+FF20) or into several (U+3300, 4), so the text as typed may pass where the stored one would not.
function checkEmail(email: string): string {
  const canonical = canonicalEmail(email);
  if (!EMAIL.test(canonical) || canonical.length > MAX_EMAIL_LENGTH) {
    throw new AdminError(`email: must be an address such as name@example.com, at most ${MAX_EMAIL_LENGTH} characters (got "${email}")`);
  }
  return canonical;
}

export interface CreatedUser {
  user: DashboardUser;
  account: string;
  /** The generated password when none was given: shown once, stored only as a hash. */
  generatedPassword?: string;
}

/** Creates a user of the account; without a password, one is generated and returned once. */
export async function createUser(
  db: Database,
  input: { account: string; email: string; permissions: readonly string[]; password?: string },
): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const permissions = parsePermissions(input.permissions);
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw new AdminError(`password: ${problem}`);
  }
  const password = input.password ?? generatePassword();
  const account = createAccountStore(db).findByName(input.account);
  if (!account)
    throw new AdminError(`account "${input.account}" does not exist (create it with: asset-delivery accounts create ${input.account})`);
  const users = createUserStore(db);
  if (users.findForSignIn(email))
    throw new AdminError(`a user with the email "${email}" already exists (emails are compared in one form: NFKC, lower case)`);
  const passwordHash = await hashPassword(password);
  const user = db.transaction(() => {
    // Checked again inside the write: another process may have added the email while we hashed.
    if (users.findForSignIn(email)) throw new AdminError(`a user with the email "${email}" already exists`);
    return users.create({ accountId: account.id, email, permissions, passwordHash });
  })();
  return { user, account: account.name, ...(input.password === undefined && { generatedPassword: password }) };
}

export function listUsers(db: Database, input: { account: string }): DashboardUser[] {
  const account = createAccountStore(db).findByName(input.account);
  if (!account) throw new AdminError(`account "${input.account}" does not exist`);
  return createUserStore(db).listByAccount(account.id);
}

/**
 * Sets a user's password (without one, a generated one, returned once) and signs out every session
 * of theirs, even while `serve` runs.
 */
export async function setUserPassword(db: Database, input: { email: string; password?: string }): Promise<CreatedUser> {
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw new AdminError(`password: ${problem}`);
  }
  const users = createUserStore(db);
  const found = users.findForAdmin(input.email);
  if (!found) throw new AdminError(`no user has the email "${input.email}"`);
  const password = input.password ?? generatePassword();
  if (users.setPassword(found.id, await hashPassword(password)) === undefined) {
    throw new AdminError(`no user has the email "${input.email}" (removed meanwhile)`);
  }
  const account = createAccountStore(db).findById(found.accountId);
  return { user: found, account: account?.name ?? "", ...(input.password === undefined && { generatedPassword: password }) };
}

/** Removes the user and signs out every session of theirs; their API keys stay until revoked. */
export function removeUser(db: Database, input: { email: string }): DashboardUser {
  const users = createUserStore(db);
  const found = users.findForAdmin(input.email);
  if (!found) throw new AdminError(`no user has the email "${input.email}"`);
  users.remove(found.id);
  return found;
}
