// What a limiter keeps of a client's input: never the input itself (an email of any length, a
// cookie as sent), only a fixed-size key, 16 bytes of an HMAC under a random key made per process,
// so every entry of every limiter costs the same few bytes however long what was sent, and nobody
// outside the process can aim two inputs at one key.
import { createHmac, createSecretKey, randomBytes } from "node:crypto";

export type LimiterKeys = (...parts: string[]) => string;

/** A keyed hash of the parts (each kept apart from the next, so ["a\nb"] and ["a", "b"] differ): 22 base64url characters. */
export function createLimiterKeys(): LimiterKeys {
  const secret = createSecretKey(randomBytes(32));
  return (...parts) => createHmac("sha256", secret).update(JSON.stringify(parts)).digest().subarray(0, 16).toString("base64url");
}
