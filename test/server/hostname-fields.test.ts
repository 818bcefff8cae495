// The hostname index's kinds are the sdk's HOSTNAME_FIELDS: the table's CHECK was written by an
// applied migration (which cannot change), so this test holds the two together.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTNAME_FIELDS } from "@asset-delivery/sdk";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient } from "./fixtures";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0 });
});
afterAll(() => server.close());

describe("hostname index", () => {
  it("takes every hostname field of the sdk, and nothing else", async () => {
    const id = await sourceClient(server, server.adminKey).createOk({ name: "hosts", deployment: minimalDeployment("webproxy") });
    const insert = server.db.prepare("INSERT INTO source_hostnames (kind, name, source_id) VALUES (?, ?, ?)");
    for (const field of HOSTNAME_FIELDS) expect(() => insert.run(field, `${field.replace(/_/g, "-")}.example.com`, id)).not.toThrow();
    expect(() => insert.run("other_names", "other.example.com", id)).toThrow(/CHECK constraint failed/);
  });
});
