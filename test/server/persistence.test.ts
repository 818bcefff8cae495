// The database: a restart on the same file keeps every Source, key and deployment state; no secret
// and no API key is ever in it in plain text; the encryption key file is private.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiRequest, startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, secretMarker, sourceClient } from "./fixtures";

const opened: TestServer[] = [];
afterAll(async () => {
  for (const server of opened) await server.close().catch(() => undefined);
});

/** The database file and its WAL and shared-memory files, as bytes. */
function databaseBytes(dbPath: string): Buffer {
  return Buffer.concat([dbPath, `${dbPath}-wal`, `${dbPath}-shm`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)));
}

// The servers' clock, moved by the tests: a deployment completes when the clock says so, not after a wait.
let clock = Date.UTC(2026, 0, 1, 12);
const now = () => clock;

describe("persistence", () => {
  it("keeps Sources, keys and the deployment state across a restart, and stores no secret or key in clear", async () => {
    const first = await startTestServer({ deployDelayMs: 100, deployLagMs: 0, now });
    opened.push(first);
    const sources = sourceClient(first, first.adminKey);
    const secrets = {
      password: secretMarker("password"),
      request_handshake: secretMarker("hs").padEnd(32, "x").slice(0, 32),
      request_signing_key: secretMarker("sk").padEnd(32, "y").slice(0, 32),
    };
    const s3Secret = secretMarker("s3");
    const uploadSecret = secretMarker("upload");
    const webId = await sources.createOk({
      name: "web",
      deployment: { ...minimalDeployment("webfolder"), username: "origin-user", ...secrets, secure_url_enabled: true },
    });
    const s3Id = await sources.createOk({
      name: "s3",
      deployment: {
        ...minimalDeployment("s3"),
        s3_secret_key: s3Secret,
        upload_credentials: { type: "s3", s3_access_key: "AKIAUP", s3_secret_key: uploadSecret },
      },
    });
    const deployingId = await sources.createOk({ name: "slow", deployment: minimalDeployment("webproxy") });
    clock += 100; // every deployment completes
    expect((await sources.get(deployingId)).body.data.attributes.deployment_status).toBe("deployed");
    const before = await sources.list();
    const token = (await sources.get(webId)).body.data.attributes.secure_url_token as string;
    expect(token).toBeTruthy();

    // Every kind of secret we hold must be absent from the file's bytes.
    const bytes = databaseBytes(first.dbPath);
    for (const secret of [...Object.values(secrets), s3Secret, uploadSecret, token, first.adminKey]) {
      expect(bytes.includes(Buffer.from(secret)), `plaintext found in the database: ${secret.slice(0, 10)}...`).toBe(false);
    }
    expect(bytes.includes(Buffer.from("origin-user"))).toBe(true); // the scan does see plain fields

    const keyFile = `${first.dbPath}.key`;
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);

    await first.close({ keepData: true });
    const second = await startTestServer({ dbPath: first.dbPath, deployDelayMs: 100, deployLagMs: 0, now });
    opened.push(second);
    try {
      // The first server's key still works: keys are persisted.
      const after = await apiRequest(`${second.url}/api/v1/sources`, { key: first.adminKey });
      expect(after.status).toBe(200);
      expect(after.body.data).toEqual(before.body.data);
      const again = sourceClient(second, first.adminKey);
      expect((await again.get(webId)).body.data.attributes.secure_url_token).toBe(token);
      // Secrets decrypt after the restart: a same-type PATCH keeps them.
      const subdomains = (await again.get(s3Id)).body.data.attributes.deployment.service_subdomains;
      const kept = await again.patch(s3Id, {
        deployment: { ...minimalDeployment("s3"), s3_secret_key: undefined, service_subdomains: subdomains, cache_ttl_error: 5 },
      });
      expect(kept.status).toBe(200);
      expect(kept.body.data.attributes.deployment).toMatchObject({ allows_upload: true, cache_ttl_error: 5 });
      const cleared = await again.patch(s3Id, {
        deployment: { ...minimalDeployment("s3"), s3_secret_key: undefined, service_subdomains: subdomains, upload_credentials: null },
      });
      expect(cleared.body.data.attributes.deployment.allows_upload).toBe(false);
      expect((await again.get(deployingId)).body.data.attributes.deployment_status).toBe("deployed");
    } finally {
      await second.close();
      fs.rmSync(path.dirname(first.dbPath), { recursive: true, force: true });
    }
  });

  it("a deployment in progress at shutdown completes after the restart", async () => {
    const first = await startTestServer({ deployDelayMs: 300, deployLagMs: 0, now });
    opened.push(first);
    const id = await sourceClient(first, first.adminKey).createOk({ name: "in flight", deployment: minimalDeployment("webproxy") });
    await first.close({ keepData: true });
    clock += 200; // down for a while, the deployment not done
    const second = await startTestServer({ dbPath: first.dbPath, deployDelayMs: 300, deployLagMs: 0, now });
    opened.push(second);
    try {
      const client = sourceClient(second, first.adminKey);
      expect((await client.get(id)).body.data.attributes.deployment_status).toBe("deploying");
      clock += 99;
      expect((await client.get(id)).body.data.attributes.deployment_status).toBe("deploying");
      clock += 1; // the instant it was due
      expect((await client.get(id)).body.data.attributes).toMatchObject({
        deployment_status: "deployed",
        date_deployed: expect.any(Number),
      });
    } finally {
      await second.close();
      fs.rmSync(path.dirname(first.dbPath), { recursive: true, force: true });
    }
  });

  it("refuses a database that holds secrets without its key file, naming the file, and writes no new key", async () => {
    const first = await startTestServer({ now });
    opened.push(first);
    const sources = sourceClient(first, first.adminKey);
    const id = await sources.createOk({ name: "secret", deployment: { ...minimalDeployment("webfolder"), secure_url_enabled: true } });
    await first.close({ keepData: true });
    const keyFile = `${first.dbPath}.key`;
    const key = fs.readFileSync(keyFile);
    try {
      fs.rmSync(keyFile); // a backup of the database alone, restored
      await expect(startTestServer({ dbPath: first.dbPath, now })).rejects.toThrow(
        `${first.dbPath} holds encrypted secrets but its key file ${keyFile} is missing: copy the key file that was beside the database`,
      );
      expect(fs.existsSync(keyFile)).toBe(false);

      fs.writeFileSync(keyFile, "11".repeat(32) + "\n", { mode: 0o600 }); // another database's key
      await expect(startTestServer({ dbPath: first.dbPath, now })).rejects.toThrow(
        `the key in ${keyFile} does not open the secrets stored in ${first.dbPath}: it is another database's key`,
      );

      fs.writeFileSync(keyFile, key); // put back: the database answers as before
      const again = await startTestServer({ dbPath: first.dbPath, now });
      opened.push(again);
      expect((await sourceClient(again, first.adminKey).get(id)).body.data.attributes.secure_url_token).toMatch(/^\S+$/);
      await again.close({ keepData: true });
    } finally {
      fs.rmSync(path.dirname(first.dbPath), { recursive: true, force: true });
    }
  });
});
