// The `asset-delivery` command line, run as a user runs it: a child process on a temporary database.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createClient } from "@asset-delivery/sdk";
import { CLI_BIN, startServeProcess } from "../support/serve-process.cjs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-cli-"));
const db = path.join(dir, "cli.db");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]) {
  return cliWith({}, ...args);
}

function cliWith(env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI_BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, ASSET_DELIVERY_DB: db, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("asset-delivery", () => {
  it("lists its commands and refuses unknown ones", () => {
    const help = cli("--help");
    expect(help.code).toBe(0);
    for (const name of ["serve", "accounts", "keys", "demo"]) expect(help.stdout).toContain(name);
    const unknown = cli("frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
  });

  it("creates and lists accounts, refusing duplicates and bad plans", () => {
    expect(cli("accounts", "create", "acme", "--plan", "paid", "--video").code).toBe(0);
    const duplicate = cli("accounts", "create", "ACME");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("already exists");
    const badPlan = cli("accounts", "create", "other", "--plan", "gold");
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toContain("plan: must be one of free, paid, enterprise");
    const list = JSON.parse(cli("accounts", "list", "--json").stdout);
    expect(list).toEqual([expect.objectContaining({ name: "acme", plan: "paid", videoEnabled: true })]);
  });

  it("creates a key shown once, lists keys without it, and revokes", () => {
    const created = cli(
      "keys",
      "create",
      "--account",
      "acme",
      "--permission",
      "Sources",
      "--permission",
      "Analytics",
      "--user",
      "ada",
      "--name",
      "ci deploys",
      "--json",
    );
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toEqual({
      id: expect.any(String),
      name: "ci deploys",
      key: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      account: "acme",
      permissions: ["Sources", "Analytics"],
    });
    const plain = cli("keys", "create", "--account", "acme", "--permission", "Purge");
    expect(plain.stdout.trim()).toMatch(/^[A-Za-z0-9]{40}$/);

    const listed = cli("keys", "list", "--account", "acme");
    expect(listed.stdout).toContain(key.id);
    expect(listed.stdout).toContain("ada");
    expect(listed.stdout).toContain("ci deploys");
    expect(listed.stdout).not.toContain(key.key);
    expect(fs.readFileSync(db).includes(Buffer.from(key.key))).toBe(false);

    expect(cli("keys", "revoke", key.id).code).toBe(0);
    const again = cli("keys", "revoke", key.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already revoked");
    const revoked = JSON.parse(cli("keys", "list", "--account", "acme", "--json").stdout);
    expect(revoked.find((k: { id: string }) => k.id === key.id).revokedAt).toEqual(expect.any(Number));
  });

  it("refuses bad key requests with the reason", () => {
    const bad = cli("keys", "create", "--account", "acme", "--permission", "Admin");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('permission "Admin": must be one of Account Admin');
    expect(cli("keys", "create", "--account", "nobody", "--permission", "Sources").stderr).toContain('account "nobody" does not exist');
    expect(cli("keys", "create", "--account", "acme").code).toBe(2);
    expect(cli("keys", "create", "--bogus").code).toBe(2);
  });

  it("demo ensures the demo account and prints a fresh Account Admin key each time", () => {
    const first = JSON.parse(cli("demo").stdout);
    const second = JSON.parse(cli("demo").stdout);
    expect(first).toMatchObject({ account: "demo", permissions: ["Account Admin"] });
    expect(second.key).not.toBe(first.key);
    const accounts = JSON.parse(cli("accounts", "list", "--json").stdout);
    expect(accounts.filter((a: { name: string }) => a.name === "demo")).toEqual([
      expect.objectContaining({ plan: "enterprise", videoEnabled: true }),
    ]);
  });

  it("serves the API on the database, and stops cleanly on SIGTERM", async () => {
    const { key } = JSON.parse(cli("demo").stdout);
    const server = await startServeProcess(db, ["--rate-limits", "off", "--deploy-delay-ms", "10"]);
    try {
      const response = await fetch(`${server.url}/api/v1/sources`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { meta: { pagination: { totalRecords: number } } }).meta.pagination.totalRecords).toBe(0);
    } finally {
      await server.stop();
    }
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(fs.statSync(`${db}.key`).mode & 0o777).toBe(0o600);
  });

  it("refuses bad serve settings from flags and the environment", () => {
    const flag = cli("serve", "--rate-limits", "sometimes");
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("rate-limits: must be one of spec, off");
    const env = spawnSync(process.execPath, [CLI_BIN, "serve", "--db", db], {
      encoding: "utf8",
      env: { ...process.env, ASSET_DELIVERY_DEPLOY_DELAY_MS: "-5" },
    });
    expect(env.status).toBe(2);
    expect(env.stderr).toContain("deploy-delay-ms: must be a whole number");
    // Any proxy would let a client choose its own address: a hop count or the proxies' addresses only.
    const anyProxy = cliWith({ ASSET_DELIVERY_TRUST_PROXY: "true" }, "serve", "--db", db);
    expect(anyProxy.code).toBe(2);
    expect(anyProxy.stderr).toContain(`trust-proxy: "true" would believe any client's X-Forwarded-For`);
    expect(anyProxy.stderr).toContain('(got "true")');
  });

  it("serve --delivery-domain: purges are accepted on its service subdomains and refused on the default's; the flag wins over the variable", async () => {
    const { key } = JSON.parse(cli("demo").stdout);
    const server = await startServeProcess(db, ["--rate-limits", "off", "--deploy-delay-ms", "0", "--delivery-domain", "img.cli.example"], {
      env: { ASSET_DELIVERY_DELIVERY_DOMAIN: "from-env.example" },
    });
    try {
      const client = createClient({ baseUrl: server.url, apiKey: key });
      await client.sources.create({ name: "Delivery domain", deployment: { type: "webproxy", service_subdomains: ["cli-domain"] } });
      await client.close();
      const purge = (url: string) => cliWith({ ASSET_DELIVERY_BASE_URL: server.url, ASSET_DELIVERY_API_KEY: key }, "purge", url);

      const accepted = purge("https://cli-domain.img.cli.example/a.jpg");
      expect(accepted.stderr).toBe("");
      expect(accepted).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/^purging https:\/\/cli-domain\.img\.cli\.example\/a\.jpg /),
      });
      for (const elsewhere of ["https://cli-domain.delivery.example/a.jpg", "https://cli-domain.from-env.example/a.jpg"]) {
        const refused = purge(elsewhere);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("must be a service subdomain on img.cli.example or a custom domain");
      }
    } finally {
      await server.stop();
    }
  });

  it("refuses a delivery domain that is not a domain name, naming the flag, from the flag and the environment", () => {
    expect(cli("serve", "--help").stdout).toMatch(/--delivery-domain DOMAIN/);
    const flag = cli("serve", "--delivery-domain", "https://img.example.com");
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("delivery-domain: must be a valid domain name such as images.example.com");
    expect(flag.stderr).toContain('(got "https://img.example.com")');
    const env = cliWith({ ASSET_DELIVERY_DELIVERY_DOMAIN: "localhost" }, "serve");
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("delivery-domain: must be a valid domain name such as images.example.com");
  });
});
