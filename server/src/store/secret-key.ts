// Where the server's encryption key comes from: the environment (ASSET_DELIVERY_SECRET_KEY, 64 hex
// characters or base64 of 32 bytes), else a key file beside the database (`<db>.key`, mode 0600),
// created with a fresh random key on first start. Losing the key makes stored secrets unreadable.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { PRIVATE_FILE_MODE } from "./private-files";

export const SECRET_KEY_ENV = "ASSET_DELIVERY_SECRET_KEY";

export function parseSecretKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error(`${origin} must hold a 32-byte key: 64 hex characters or 44 base64 characters`);
  return key;
}

export function secretKeyFileFor(dbPath: string): string {
  return `${dbPath}.key`;
}

export function loadOrCreateSecretKey(dbPath: string, env: NodeJS.ProcessEnv = process.env): Buffer {
  const fromEnv = env[SECRET_KEY_ENV];
  if (fromEnv) return parseSecretKey(fromEnv, SECRET_KEY_ENV);
  if (dbPath === ":memory:") return randomBytes(32);
  const file = secretKeyFileFor(dbPath);
  try {
    // "wx": create only if absent, so two processes starting at once cannot overwrite each other's key.
    fs.writeFileSync(file, randomBytes(32).toString("hex") + "\n", { flag: "wx", mode: PRIVATE_FILE_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return parseSecretKey(fs.readFileSync(file, "utf8"), file);
}
