// Pulumi's passphrase secrets provider, as it encrypts a config value: AES-256-GCM under a key
// derived from the passphrase and the stack file's `encryptionsalt` (PBKDF2-SHA256, 1,000,000
// rounds), written `v1:<nonce>:<ciphertext and tag>` in base64 (pulumi/pulumi
// sdk/go/common/resource/config/crypt.go, NewSymmetricCrypterFromPassphrase).
//
// Why here and not `pulumi config set --secret`: that command takes one value from standard input,
// and pays the key derivation (about 1 s on a loaded machine) each time: 100 Sources' secrets were
// 100 commands. The commands that set many values at once (`config set-all`, the Automation API's
// setAllConfig, `--json`) take the values on the command line, which every local user can read. One
// derivation here, then one write of the file, keeps each secret where `pulumi config set --secret
// --path` puts it (rotating one later touches no other). The key is checked against the salt's
// own ciphertext first; any other secrets provider (the service, a cloud KMS) has none here, and
// the caller falls back to Pulumi's commands.
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export interface ConfigCrypter {
  /** The value as Pulumi writes it under `secure:`. */
  encrypt(value: string): string;
}

const ROUNDS = 1_000_000;
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** What the salt's own ciphertext holds: Pulumi checks a passphrase with it. */
const SALT_CHECK = "pulumi";

/**
 * The crypter of a stack whose file (`Pulumi.<stack>.yaml`, parsed) says it uses the passphrase
 * provider, with the passphrase from the environment as Pulumi reads it; undefined when the stack
 * has another provider, no salt yet, no passphrase here, or the passphrase does not open the salt.
 */
export function passphraseCrypter(stackFile: Record<string, unknown>, env: NodeJS.ProcessEnv, workDir: string): ConfigCrypter | undefined {
  const provider = stackFile.secretsprovider;
  if ((provider !== undefined && provider !== "passphrase") || stackFile.encryptedkey !== undefined) return undefined;
  const salt = typeof stackFile.encryptionsalt === "string" ? /^v1:([^:]+):(v1:[^:]+:[^:]+)$/.exec(stackFile.encryptionsalt) : null;
  const passphrase = passphraseOf(env, workDir);
  if (!salt || passphrase === undefined) return undefined;
  const key = pbkdf2Sync(passphrase, Buffer.from(salt[1]!, "base64"), ROUNDS, KEY_BYTES, "sha256");
  if (decrypt(salt[2]!, key) !== SALT_CHECK) return undefined;
  return {
    encrypt(value) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `v1:${nonce.toString("base64")}:${sealed.toString("base64")}`;
    },
  };
}

/** As Pulumi reads it (secrets/passphrase/manager.go): the variable, even empty, else the file's text trimmed. */
function passphraseOf(env: NodeJS.ProcessEnv, workDir: string): string | undefined {
  if (env.PULUMI_CONFIG_PASSPHRASE !== undefined) return env.PULUMI_CONFIG_PASSPHRASE;
  if (!env.PULUMI_CONFIG_PASSPHRASE_FILE) return undefined;
  try {
    return fs.readFileSync(path.resolve(workDir, env.PULUMI_CONFIG_PASSPHRASE_FILE), "utf8").trim();
  } catch {
    return undefined;
  }
}

function decrypt(text: string, key: Buffer): string | undefined {
  const [version, nonce, sealed] = text.split(":");
  if (version !== "v1" || !nonce || !sealed) return undefined;
  const bytes = Buffer.from(sealed, "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64"));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
