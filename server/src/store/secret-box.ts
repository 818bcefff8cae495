// Encryption of secrets at rest (write-only Source fields, secure URL tokens): AES-256-GCM with a
// random 96-bit nonce per value. The associated data binds each ciphertext to where it is stored
// (Source id and field), so a ciphertext copied to another row or field fails to open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
// Version prefix, so the format can change without guessing.
const PREFIX = "v1:";

export interface SecretBox {
  seal(plaintext: string, associatedData: string): string;
  open(sealed: string, associatedData: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("the secret key must be 32 bytes (AES-256)");
  return {
    seal(plaintext, associatedData) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(associatedData, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64");
    },
    open(sealed, associatedData) {
      if (!sealed.startsWith(PREFIX)) throw new Error("not a sealed value of a known format");
      const bytes = Buffer.from(sealed.slice(PREFIX.length), "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(associatedData, "utf8"));
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
  };
}
