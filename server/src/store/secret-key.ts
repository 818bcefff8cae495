// Where the server's encryption key comes from: the environment (ASSET_DELIVERY_SECRET_KEY, 64 hex
// characters or base64 of 32 bytes), else a key file beside the database (`<db>.key`, mode 0600),
// created with a fresh random key on first start. Losing the key makes stored secrets unreadable:
// a database that holds some is refused without its key, never given a new one. The key file is
// read only when it is a regular file (not a symbolic link, which could point anywhere) owned by the
// user running the server; one open to others (a restored copy at 0644) is narrowed to 0600, and
// that is said (`warn`): whoever could read it meanwhile may hold the key.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { PRIVATE_FILE_MODE } from "./private-files";
import { createSecretBox } from "./secret-box";

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

/** An encrypted value the database holds and what it was sealed with (sources/source-store.ts, sealedSample). */
export interface SealedSample {
  sealed: string;
  associatedData: string;
}

/**
 * The key for the database at `dbPath`. A database that already holds encrypted values (`sample`)
 * is refused when its key file is missing (copied or restored without it: a new key would open
 * none of them, so none is written) and when the key does not open them (another database's key).
 */
export function loadOrCreateSecretKey(
  dbPath: string,
  env: NodeJS.ProcessEnv = process.env,
  sample?: SealedSample,
  warn: (message: string) => void = (message) => process.emitWarning(message),
): Buffer {
  const key = loadKey(dbPath, env, sample, warn);
  if (sample) {
    try {
      createSecretBox(key).open(sample.sealed, sample.associatedData);
    } catch {
      const origin = env[SECRET_KEY_ENV] ? SECRET_KEY_ENV : secretKeyFileFor(dbPath);
      throw new Error(
        `the key in ${origin} does not open the secrets stored in ${dbPath}: it is another database's key; use the key this database was written with (${BACKUPS})`,
      );
    }
  }
  return key;
}

const BACKUPS = "docs/emulator.md, Backups";

function loadKey(dbPath: string, env: NodeJS.ProcessEnv, sample: SealedSample | undefined, warn: (message: string) => void): Buffer {
  const fromEnv = env[SECRET_KEY_ENV];
  if (fromEnv) return parseSecretKey(fromEnv, SECRET_KEY_ENV);
  if (dbPath === ":memory:") return randomBytes(32);
  const file = secretKeyFileFor(dbPath);
  if (sample && !fs.existsSync(file)) {
    throw new Error(
      `${dbPath} holds encrypted secrets but its key file ${file} is missing: copy the key file that was beside the database (a backup takes both), or set ${SECRET_KEY_ENV}; refusing to start, and no new key is written (${BACKUPS})`,
    );
  }
  try {
    // "wx": create only if absent, so two processes starting at once cannot overwrite each other's key.
    fs.writeFileSync(file, randomBytes(32).toString("hex") + "\n", { flag: "wx", mode: PRIVATE_FILE_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return parseSecretKey(readKeyFile(file, warn), file);
}

/**
 * The key file's text, through one descriptor opened without following a link (O_NOFOLLOW) and
 * without blocking on a FIFO (O_NONBLOCK), so what is checked is what is read.
 */
function readKeyFile(file: string, warn: (message: string) => void): string {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new Error(
        `the key file ${file} is a symbolic link: refusing it; put the key file itself there, mode 0600 (${KEY_FILE_RULES})`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(`the key file ${file} is not a regular file: refusing it (${KEY_FILE_RULES})`);
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
      throw new Error(
        `the key file ${file} belongs to user ${stat.uid}, not to the user running the server (${uid}): refusing it; chown it to this user (${KEY_FILE_RULES})`,
      );
    }
    // Narrowed, never widened: 0644 and 0755 become 0600, 0400 stays.
    if ((stat.mode & 0o177) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, "0");
      try {
        fs.fchmodSync(fd, stat.mode & 0o600);
      } catch (error) {
        throw new Error(
          `the key file ${file} has mode ${mode} and cannot be narrowed to 0600 (${(error as NodeJS.ErrnoException).code}): refusing it; chmod 600 it (${KEY_FILE_RULES})`,
          { cause: error },
        );
      }
      warn(
        `the key file ${file} had mode ${mode}, open to other users: narrowed to 0600; whoever could read it meanwhile may hold the key, and with it the stored secrets: if that may be someone else, change those secrets (the Sources' write-only fields) (${KEY_FILE_RULES})`,
      );
    }
    return fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
}

const KEY_FILE_RULES = "docs/emulator.md, Secrets at rest";
