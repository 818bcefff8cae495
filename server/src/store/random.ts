// Random identifiers and tokens: alphanumeric (base62), from the OS's CSPRNG, without modulo bias.
import { randomBytes, randomUUID } from "node:crypto";

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
 * Request ids: 32 hexadecimal characters, as the real service's are. A version-4 UUID without its
 * dashes (122 random bits): Node draws UUIDs from a batch of entropy, where randomBytes(16) asks
 * OpenSSL on every call (about 7 µs, a few percent of a GET).
 */
export function newRequestId(): string {
  return randomUUID().replaceAll("-", "");
}
