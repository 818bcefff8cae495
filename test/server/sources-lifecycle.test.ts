// deployment_status (spec 3.1): deploying on create and on each deployment change or re-enable,
// deployed once the deploy delay has passed (with date_deployed), disabled at once when disabled.
// A change's deployment starts after a lag, during which reads still show the one before it.
// The secure URL token exists only while secure URLs are on. Run on an injected clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { minimalDeployment, sourceClient, uniqueLabel, type SourceClient } from "./fixtures";

const DELAY_MS = 1500;
const LAG_MS = 300;
const START_MS = 1_800_000_000_000;
let clock = START_MS;
let server: TestServer;
let sources: SourceClient;
beforeAll(async () => {
  server = await startTestServer({ now: () => clock, deployDelayMs: DELAY_MS, deployLagMs: LAG_MS });
  sources = sourceClient(server, server.adminKey);
});
afterAll(() => server.close());

async function state(id: string) {
  const { deployment_status, date_deployed, enabled } = (await sources.get(id)).body.data.attributes;
  return { deployment_status, date_deployed, enabled };
}

describe("deployment lifecycle", () => {
  it("deploys on create, disables at once, redeploys on re-enable and on deployment changes only", async () => {
    const deployment = minimalDeployment("webproxy");
    const id = await sources.createOk({ name: "life", deployment });
    expect(await state(id)).toEqual({ deployment_status: "deploying", date_deployed: null, enabled: true });

    clock += LAG_MS + DELAY_MS - 1;
    expect((await state(id)).deployment_status).toBe("deploying");
    clock += 1;
    const firstDeployed = Math.floor(clock / 1000);
    expect(await state(id)).toEqual({ deployment_status: "deployed", date_deployed: firstDeployed, enabled: true });

    // A rename does not touch the deployment.
    clock += 10_000;
    await sources.patch(id, { name: "renamed" });
    expect(await state(id)).toEqual({ deployment_status: "deployed", date_deployed: firstDeployed, enabled: true });

    // The same deployment sent again is no new deployment.
    const same = (await sources.get(id)).body.data.attributes.deployment;
    await sources.patch(id, { deployment: same });
    expect((await state(id)).deployment_status).toBe("deployed");

    // A deployment change redeploys after the lag: until then reads still say deployed, with the
    // date of the deployment before; date_deployed stays the last completed one until it finishes.
    const patched = await sources.patch(id, { deployment: { ...deployment, cache_ttl_error: 42 } });
    expect(patched.body.data.attributes).toMatchObject({ deployment_status: "deployed", date_deployed: firstDeployed });
    clock += LAG_MS - 1;
    expect(await state(id)).toEqual({ deployment_status: "deployed", date_deployed: firstDeployed, enabled: true });
    clock += 1;
    expect(await state(id)).toEqual({ deployment_status: "deploying", date_deployed: firstDeployed, enabled: true });
    clock += DELAY_MS;
    const secondDeployed = Math.floor(clock / 1000);
    expect(await state(id)).toEqual({ deployment_status: "deployed", date_deployed: secondDeployed, enabled: true });

    await sources.patch(id, { enabled: false });
    expect(await state(id)).toEqual({ deployment_status: "disabled", date_deployed: secondDeployed, enabled: false });
    clock += 60_000;
    expect((await state(id)).deployment_status).toBe("disabled");

    await sources.patch(id, { enabled: true });
    expect(await state(id)).toEqual({ deployment_status: "deployed", date_deployed: secondDeployed, enabled: true });
    clock += LAG_MS;
    expect(await state(id)).toEqual({ deployment_status: "deploying", date_deployed: secondDeployed, enabled: true });
    clock += DELAY_MS;
    expect(await state(id)).toEqual({ deployment_status: "deployed", date_deployed: Math.floor(clock / 1000), enabled: true });
  });

  it("a change while a deployment is in progress restarts it and keeps the last completed date", async () => {
    const deployment = minimalDeployment("webproxy");
    const id = await sources.createOk({ name: "busy", deployment });
    clock += LAG_MS + DELAY_MS / 2;
    await sources.patch(id, { deployment: { ...deployment, cache_ttl_error: 7 } });
    // Never deployed before: nothing older to show during the lag.
    expect(await state(id)).toEqual({ deployment_status: "deploying", date_deployed: null, enabled: true });
    clock += LAG_MS + DELAY_MS / 2;
    expect(await state(id)).toEqual({ deployment_status: "deploying", date_deployed: null, enabled: true });
    clock += DELAY_MS / 2;
    expect((await state(id)).deployment_status).toBe("deployed");
  });
});

describe("date_deployed", () => {
  it("strictly increases per Source: a deployment that completes in the second of the one before it is dated the next", async () => {
    let instantClock = START_MS + 100;
    const instant = await startTestServer({ now: () => instantClock, deployDelayMs: 0, deployLagMs: 0 });
    try {
      const client = sourceClient(instant, instant.adminKey);
      const second = Math.floor(instantClock / 1000);
      const subdomain = uniqueLabel("instant");
      const deployment = minimalDeployment("webproxy", subdomain);
      const id = await client.createOk({ name: "instant", deployment });
      const dated = async () => (await client.get(id)).body.data.attributes.date_deployed as number;
      expect(await dated()).toBe(second);
      // Two more deployments within the same second: the real service's take seconds, so each of its dates is new.
      instantClock += 100;
      const patched = await client.patch(id, { deployment: { ...deployment, cache_ttl_error: 1 } });
      expect(patched.body.data.attributes).toMatchObject({ deployment_status: "deployed", date_deployed: second + 1 });
      instantClock += 100;
      await client.patch(id, { deployment: { ...deployment, cache_ttl_error: 2 } });
      expect(await dated()).toBe(second + 2);
      // The list says the same (its SQL applies the same rule).
      const listed = (await client.list(`filter[deployment.service_subdomains]=${subdomain}`)).body.data;
      expect(listed.map((s: { attributes: { date_deployed: number } }) => s.attributes.date_deployed)).toEqual([second + 2]);
      // A deployment in a later second than the one before it keeps its own second.
      instantClock += 5_000;
      await client.patch(id, { deployment: { ...deployment, cache_ttl_error: 3 } });
      expect(await dated()).toBe(Math.floor(instantClock / 1000));
    } finally {
      await instant.close();
    }
  });
});

describe("secure_url_token", () => {
  it("exists only while secure URLs are on: stable while on, removed when off, new when on again", async () => {
    const deployment = minimalDeployment("webproxy");
    const id = await sources.createOk({ name: "secure", deployment });
    expect((await sources.get(id)).body.data.attributes).not.toHaveProperty("secure_url_token");

    const on = await sources.patch(id, { deployment: { ...deployment, secure_url_enabled: true } });
    const token = on.body.data.attributes.secure_url_token as string;
    expect(token).toMatch(/^[A-Za-z0-9]{16,}$/);
    const stillOn = await sources.patch(id, {
      deployment: { ...deployment, secure_url_enabled: true, cache_ttl_error: 99 },
      name: "secure 2",
    });
    expect(stillOn.body.data.attributes.secure_url_token).toBe(token);
    expect((await sources.list("filter[name]=secure 2")).body.data[0].attributes.secure_url_token).toBe(token);

    const off = await sources.patch(id, { deployment: { ...deployment, secure_url_enabled: false } });
    expect(off.body.data.attributes).not.toHaveProperty("secure_url_token");
    const again = await sources.patch(id, { deployment: { ...deployment, secure_url_enabled: true } });
    expect(again.body.data.attributes.secure_url_token).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(again.body.data.attributes.secure_url_token).not.toBe(token);
  });

  it("is generated at creation when secure URLs start on, unique per Source", async () => {
    const a = await sources.create({ name: "a", deployment: { ...minimalDeployment("webproxy"), secure_url_enabled: true } });
    const b = await sources.create({ name: "b", deployment: { ...minimalDeployment("webproxy"), secure_url_enabled: true } });
    expect(a.body.data.attributes.secure_url_token).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(a.body.data.attributes.secure_url_token).not.toBe(b.body.data.attributes.secure_url_token);
  });
});

describe("reads follow every write", () => {
  it("a change made with SQL on the server's database shows in the next GET and list", async () => {
    const id = await sources.createOk({ name: "before", deployment: minimalDeployment("webproxy") });
    expect((await sources.get(id)).body.data.attributes.name).toBe("before");
    expect((await sources.list("filter[name]=before")).body.data).toHaveLength(1);
    server.db.prepare("UPDATE sources SET name = 'after' WHERE id = ?").run(id);
    expect((await sources.get(id)).body.data.attributes.name).toBe("after");
    expect((await sources.list("filter[name]=after")).body.data[0].attributes.name).toBe("after");
    server.db.prepare("DELETE FROM source_hostnames WHERE source_id = ?").run(id);
    server.db.prepare("DELETE FROM sources WHERE id = ?").run(id);
    expect((await sources.get(id)).status).toBe(404);
  });
});

describe("lists follow the clock", () => {
  it("a list page shows statuses, dates and date order as of each request", async () => {
    const client = sourceClient(server, server.accountKey(["Sources"], "clocked"));
    const first = await client.createOk({ name: "first", deployment: minimalDeployment("webproxy") });
    clock += LAG_MS + DELAY_MS / 2;
    const second = await client.createOk({ name: "second", deployment: minimalDeployment("webproxy") });
    const page = async () =>
      (await client.list("sort=-date_deployed,name")).body.data.map((s: { id: string; attributes: { deployment_status: string } }) => [
        s.id,
        s.attributes.deployment_status,
      ]);
    expect(await page()).toEqual([
      [first, "deploying"],
      [second, "deploying"],
    ]);
    expect(await page()).toEqual([
      [first, "deploying"],
      [second, "deploying"],
    ]);
    clock += DELAY_MS / 2;
    expect(await page()).toEqual([
      [first, "deployed"],
      [second, "deploying"],
    ]);
    clock += DELAY_MS / 2 + LAG_MS;
    // Both deployed; the later one first.
    expect(await page()).toEqual([
      [second, "deployed"],
      [first, "deployed"],
    ]);
  });
});
