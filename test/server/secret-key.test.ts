// The key file beside the database (server/src/store/secret-key.ts) is read only when it is a
// regular file of the user running the server: a symbolic link, a folder or another user's file is
// refused, naming the file and the rule; one open to others (a restored copy at 0644) is narrowed
// to 0600 before it is used, and that is said (the key may have been read).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { loadOrCreateSecretKey, secretKeyFileFor } from "../../server/src/store/secret-key";
import { startTestServer } from "../support/server";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "secret-key-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const KEY = "ab".repeat(32);
let made = 0;
/** A database path in a folder of its own, with its key file written `mode`. */
function databaseWithKey(mode: number): { dbPath: string; keyFile: string } {
  const dir = path.join(tmp, `db-${made++}`);
  fs.mkdirSync(dir);
  const dbPath = path.join(dir, "asset-delivery.db");
  const keyFile = secretKeyFileFor(dbPath);
  fs.writeFileSync(keyFile, `${KEY}\n`);
  fs.chmodSync(keyFile, mode);
  return { dbPath, keyFile };
}
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe("the key file", () => {
  it("is narrowed to 0600 when others may read it, then used", () => {
    const { dbPath, keyFile } = databaseWithKey(0o644);
    expect(loadOrCreateSecretKey(dbPath, {}).toString("hex")).toBe(KEY);
    expect(modeOf(keyFile)).toBe(0o600);
  });

  it("is narrowed to 0600 from an executable mode too (0755: a key file is never run)", () => {
    const { dbPath, keyFile } = databaseWithKey(0o755);
    expect(loadOrCreateSecretKey(dbPath, {}).toString("hex")).toBe(KEY);
    expect(modeOf(keyFile)).toBe(0o600);
  });

  it("says that it narrowed a key file open to others, whose key may have been read; says nothing of a private one", () => {
    const { dbPath, keyFile } = databaseWithKey(0o644);
    const warnings: string[] = [];
    loadOrCreateSecretKey(dbPath, {}, undefined, (message) => warnings.push(message));
    expect(warnings).toEqual([
      `the key file ${keyFile} had mode 0644, open to other users: narrowed to 0600; whoever could read it meanwhile may hold the key, and with it the stored secrets: if that may be someone else, change those secrets (the Sources' write-only fields) (docs/emulator.md, Secrets at rest)`,
    ]);
    loadOrCreateSecretKey(dbPath, {}, undefined, (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
  });

  it("is said in the server's log when the server narrows it at start", async () => {
    const { dbPath, keyFile } = databaseWithKey(0o644);
    const log: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString());
        done();
      },
    });
    const server = await startTestServer({ dbPath, logger: { level: "warn", stream } });
    await server.close();
    const warnings = log.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(warnings).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringContaining(`the key file ${keyFile} had mode 0644`) }),
    );
  });

  it("keeps a stricter mode as it is", () => {
    const { dbPath, keyFile } = databaseWithKey(0o400);
    expect(loadOrCreateSecretKey(dbPath, {}).toString("hex")).toBe(KEY);
    expect(modeOf(keyFile)).toBe(0o400);
  });

  it("is created 0600 on first start", () => {
    const dbPath = path.join(tmp, "fresh.db");
    expect(loadOrCreateSecretKey(dbPath, {})).toHaveLength(32);
    expect(modeOf(secretKeyFileFor(dbPath))).toBe(0o600);
  });

  it("is refused when it is a symbolic link, even to a good key file", () => {
    const { keyFile: target } = databaseWithKey(0o600);
    const dbPath = path.join(tmp, "linked.db");
    fs.symlinkSync(target, secretKeyFileFor(dbPath));
    expect(() => loadOrCreateSecretKey(dbPath, {})).toThrow(
      `the key file ${secretKeyFileFor(dbPath)} is a symbolic link: refusing it; put the key file itself there, mode 0600`,
    );
  });

  it("is refused when it is not a regular file", () => {
    const dbPath = path.join(tmp, "folder.db");
    fs.mkdirSync(secretKeyFileFor(dbPath));
    expect(() => loadOrCreateSecretKey(dbPath, {})).toThrow(`the key file ${secretKeyFileFor(dbPath)} is not a regular file: refusing it`);
  });

  it.runIf(process.getuid?.() === 0)("is refused when another user owns it", () => {
    const { dbPath, keyFile } = databaseWithKey(0o600);
    fs.chownSync(keyFile, 65534, 65534);
    expect(() => loadOrCreateSecretKey(dbPath, {})).toThrow(
      `the key file ${keyFile} belongs to user 65534, not to the user running the server (0): refusing it; chown it to this user`,
    );
  });

  // An immutable file (chattr +i, root on ext4 and the like) stands for any file whose mode cannot be
  // changed: a read-only mount, another system's ACLs. Where the kernel refuses chattr (no
  // CAP_LINUX_IMMUTABLE), the file stays changeable and the same rule narrows it instead.
  it.runIf(process.getuid?.() === 0)("open to others: narrowed to 0600, or refused naming the file and the rule when it cannot be", () => {
    const { dbPath, keyFile } = databaseWithKey(0o644);
    if (spawnSync("chattr", ["+i", keyFile]).status !== 0) {
      loadOrCreateSecretKey(dbPath, {});
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      return;
    }
    try {
      expect(() => loadOrCreateSecretKey(dbPath, {})).toThrow(
        `the key file ${keyFile} has mode 0644 and cannot be narrowed to 0600 (EPERM): refusing it; chmod 600 it`,
      );
    } finally {
      spawnSync("chattr", ["-i", keyFile]);
    }
  });
});
