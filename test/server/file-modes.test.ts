// The server's data is private to its user with the usual umask 022: folders it creates 0700,
// the database, its WAL and shared memory, the key file and report files 0600.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateReports, importUsage } from "@asset-delivery/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer } from "../support/server";
import { minimalDeployment } from "./fixtures";

const mode = (file: string) => fs.statSync(file).mode & 0o777;
let previousUmask: number;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "file-modes-"));

beforeAll(() => {
  previousUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(previousUmask);
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("file modes", () => {
  it("creates the data folder 0700 and every file 0600, report files included", async () => {
    const dataDir = path.join(tmp, "fresh", "data");
    const dbPath = path.join(dataDir, "asset-delivery.db");
    const clock = Date.parse("2024-03-03T12:00:00Z");
    const server = await startTestServer({ dbPath, now: () => clock });
    try {
      const created = await apiRequest(`${server.url}/api/v1/sources`, {
        method: "POST",
        key: server.adminKey,
        body: { data: { type: "sources", attributes: { name: "private", deployment: minimalDeployment("webproxy") } } },
      });
      expect(created.status).toBe(201);
      importUsage(
        server.db,
        JSON.stringify({
          timestamp: "2024-03-02T10:00:00Z",
          source_id: created.body.data.id,
          path: "/a.jpg",
          status: 200,
          bytes: 1,
          cache_hit: false,
          response_ms: 1,
        }),
      );
      generateReports(server.db, { date: "2024-03-02", dataDir, now: () => clock });

      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.dirname(dataDir))).toBe(0o700); // a missing parent is created too
      for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, `${dbPath}.key`]) expect(mode(file), file).toBe(0o600);
      const reportsDir = path.join(dataDir, "reports");
      expect(mode(reportsDir)).toBe(0o700);
      const reportFiles = fs.readdirSync(reportsDir, { recursive: true, withFileTypes: true });
      expect(reportFiles.filter((entry) => entry.isFile()).length).toBeGreaterThan(0);
      for (const entry of reportFiles) {
        const file = path.join(entry.parentPath, entry.name);
        expect(mode(file), file).toBe(entry.isFile() ? 0o600 : 0o700);
      }
    } finally {
      await server.close({ keepData: true });
    }
  });

  it("narrows an existing database and its WAL to 0600 when it opens them", async () => {
    const dbPath = path.join(tmp, "fresh", "data", "asset-delivery.db");
    for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) if (fs.existsSync(file)) fs.chmodSync(file, 0o644);
    const server = await startTestServer({ dbPath });
    try {
      for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) expect(mode(file), file).toBe(0o600);
    } finally {
      await server.close({ keepData: true });
    }
  });
});
