// The server's data is private to the user running it, whatever the umask: folders it creates are
// 0700 and files 0600 (the database and its WAL, report files, fetched images, videos), as the
// key file already is. Modes given at creation are only narrowed by the umask, never widened.
import * as fs from "node:fs";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder (and missing parents) 0700; an existing folder is the operator's and keeps its mode. */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

export function writePrivateFile(file: string, bytes: Uint8Array): void {
  fs.writeFileSync(file, bytes, { mode: PRIVATE_FILE_MODE });
}

/**
 * Before SQLite opens `file`: the database created empty 0600, or an existing one (and its WAL and
 * shared-memory files) narrowed to 0600. SQLite creates the WAL and shm files with the database's mode.
 */
export function preparePrivateDatabase(file: string): void {
  fs.closeSync(fs.openSync(file, "a", PRIVATE_FILE_MODE));
  for (const companion of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.chmodSync(companion, PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}
