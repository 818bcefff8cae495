// API key material. A key is 40 random base62 characters (about 238 bits), shown once at creation.
// Only its SHA-256 is stored: a fast hash is enough for a token with that much entropy (no
// dictionary or brute force can reach it, unlike a password), and it costs about a microsecond per
// request, where a password hash (scrypt, bcrypt) would cost milliseconds.
import { hash } from "node:crypto";
import { randomAlphanumeric } from "../store/random";

export const API_KEY_LENGTH = 40;

export function generateApiKey(): string {
  return randomAlphanumeric(API_KEY_LENGTH);
}

export function hashApiKey(key: string): string {
  // One-shot crypto.hash: a third of createHash().update().digest()'s time, on every request.
  return hash("sha256", key, "hex");
}
