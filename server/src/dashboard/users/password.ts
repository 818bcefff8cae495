// Dashboard passwords: stored only as a salted scrypt hash (memory-hard, tens of milliseconds per
// try, unlike the SHA-256 that suits 238-bit API keys), compared in constant time.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { randomAlphanumeric } from "../../store/random";

// OWASP's minimum for scrypt (N=2^17, r=8, p=1) costs 128 MiB and ~300 ms per sign-in on this
// machine class; 2^15 keeps 32 MiB and ~80 ms, still far beyond what a stolen database can be
// brute-forced at. Stored with each hash, so it can be raised without invalidating old ones.
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;
/** A generated password: 24 base62 characters, about 143 bits. */
const GENERATED_LENGTH = 24;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$<salt base64>$<key base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64"), key.toString("base64")].join("$");
}

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [, n, r, p, salt, key] = match;
  const expected = Buffer.from(key!, "base64");
  const actual = await derive(password, Buffer.from(salt!, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash that no password matches, to verify against when the email is unknown: the answer then
 * takes as long as for a known user, so timing does not tell which emails have an account.
 */
export const UNKNOWN_USER_HASH = `scrypt$${COST.N}$${COST.r}$${COST.p}$${Buffer.alloc(SALT_BYTES).toString("base64")}$${Buffer.alloc(KEY_BYTES).toString("base64")}`;

export function generatePassword(): string {
  return randomAlphanumeric(GENERATED_LENGTH);
}

/** Why a chosen password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}
