// Random identifiers and tokens: alphanumeric (base62), from the OS's CSPRNG, without modulo bias.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
// Bytes at or above the largest multiple of 62 that fits in a byte are dropped, so every letter is equally likely.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

/** `length` random base62 characters: log2(62) ≈ 5.95 bits each. */
export function randomAlphanumeric(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Ids of accounts and keys. */
export function newId(): string {
  return randomAlphanumeric(24);
}

/** `bytes` random bytes as lowercase hexadecimal (twice as many characters). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/** Ids of Sources: 24 characters (spec 2.2), hexadecimal as the real service's are. */
export function newSourceId(): string {
  return randomHex(12);
}

/**
 * Request ids: 32 hexadecimal characters (128 random bits), as the real service's are. Drawn from
 * a pool of random bytes refilled 4 KiB at a time: asking OpenSSL for 16 bytes on every request
 * costs about 7 µs, a few percent of a GET. Request ids are not secrets.
 */
const REQUEST_ID_BYTES = 16;
const POOL_BYTES = 256 * REQUEST_ID_BYTES;
let pool = Buffer.alloc(0);
let poolOffset = 0;

export function newRequestId(): string {
  if (poolOffset === pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const id = pool.toString("hex", poolOffset, poolOffset + REQUEST_ID_BYTES);
  poolOffset += REQUEST_ID_BYTES;
  return id;
}
