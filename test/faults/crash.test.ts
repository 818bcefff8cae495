// Crash safety: `asset-delivery serve` is killed with SIGKILL in the middle of a burst of creates
// and updates, then restarted on the same database. Every write the client saw acknowledged (2xx)
// must be there with the acknowledged content; a write in flight at the kill is either wholly there
// or wholly absent; the database is intact (integrity check, hostname index, decryptable secrets).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listDocumentSchema, singleDocumentSchema, sourceSchema, type Source } from "@asset-delivery/sdk";
import { buildApp, loadOrCreateSecretKey, openDatabase } from "@asset-delivery/server";
import { apiRequest } from "../support/server";
import { createServeData, startServeProcess, type ServeData } from "../support/serve-process.cjs";

const WORKERS = 8;
const PATCHES_PER_SOURCE = 3;
/** Acknowledged writes before the kill: enough that the burst is in full swing. */
const KILL_AFTER_ACKS = 150;

/** What a Source should hold after a write: the fields the burst changes. */
interface Content {
  name: string;
  cacheTtlError: number;
  customDomains: string[];
  secretKey: string;
}

interface Tracked {
  subdomain: string;
  id?: string;
  /** The content of the last acknowledged write; undefined while the create is unacknowledged. */
  acked?: Content;
  /** A write sent but not answered when the server died: it may or may not have committed. */
  inFlight?: Content;
}

function deployment(subdomain: string, content: Content) {
  return {
    type: "s3",
    service_subdomains: [subdomain],
    custom_domains: content.customDomains,
    cache_ttl_error: content.cacheTtlError,
    s3_access_key: "AKIACRASHTEST",
    s3_bucket: "crash-bucket",
    s3_secret_key: content.secretKey,
  };
}

function contentOf(subdomain: string, step: number): Content {
  return {
    name: `${subdomain} v${step}`,
    cacheTtlError: 300 + step,
    customDomains: [`${subdomain}-v${step}.crash.example.com`],
    secretKey: `secret-${subdomain}-v${step}`,
  };
}

function publicContentOf(source: Source): Omit<Content, "secretKey"> {
  const d = source.attributes.deployment as { cache_ttl_error: number; custom_domains: string[] };
  return { name: source.attributes.name, cacheTtlError: d.cache_ttl_error, customDomains: d.custom_domains };
}

function withoutSecret({ secretKey: _, ...rest }: Content): Omit<Content, "secretKey"> {
  return rest;
}

/** The contents a Source may hold after the crash: the acknowledged one, or the one in flight. */
function allowed(tracked: Tracked): Content[] {
  return [tracked.acked, tracked.inFlight].filter((c): c is Content => c !== undefined);
}

let data: ServeData;
const tracked: Tracked[] = [];
let acks = 0;

/** One client: creates a Source, updates it a few times, and so on until the server is gone. */
async function worker(url: string, key: string, index: number): Promise<void> {
  for (let n = 0; ; n++) {
    const entry: Tracked = { subdomain: `crash-${index}-${n}` };
    tracked.push(entry);
    try {
      entry.inFlight = contentOf(entry.subdomain, 0);
      const created = await apiRequest(`${url}/api/v1/sources`, {
        method: "POST",
        key,
        body: {
          data: { type: "sources", attributes: { name: entry.inFlight.name, deployment: deployment(entry.subdomain, entry.inFlight) } },
        },
      });
      expect(created.status, created.text).toBe(201);
      entry.id = created.body.data.id;
      [entry.acked, entry.inFlight] = [entry.inFlight, undefined];
      acks++;
      for (let step = 1; step <= PATCHES_PER_SOURCE; step++) {
        entry.inFlight = contentOf(entry.subdomain, step);
        const patched = await apiRequest(`${url}/api/v1/sources/${entry.id}`, {
          method: "PATCH",
          key,
          body: {
            data: {
              type: "sources",
              id: entry.id,
              attributes: { name: entry.inFlight.name, deployment: deployment(entry.subdomain, entry.inFlight) },
            },
          },
        });
        expect(patched.status, patched.text).toBe(200);
        [entry.acked, entry.inFlight] = [entry.inFlight, undefined];
        acks++;
      }
    } catch (error) {
      // The server was killed: this request got no answer. Anything else is a real failure.
      if ((error as Error).message !== "fetch failed") throw error;
      return;
    }
  }
}

async function allSources(url: string, key: string): Promise<Source[]> {
  const sources: Source[] = [];
  for (let page = 0; ; page++) {
    const response = await apiRequest(`${url}/api/v1/sources?page[size]=100&page[number]=${page}`, { key });
    expect(response.status).toBe(200);
    const document = listDocumentSchema(sourceSchema).parse(response.body);
    sources.push(...document.data);
    if (!document.meta.pagination.hasNextPage) return sources;
  }
}

beforeAll(async () => {
  data = createServeData("asset-delivery-crash-");
  const server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
  const workers = Array.from({ length: WORKERS }, (_, i) => worker(server.url, data.adminKey, i));
  const deadline = Date.now() + 20_000;
  while (acks < KILL_AFTER_ACKS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const exit = await server.stop("SIGKILL");
  expect(exit.signal).toBe("SIGKILL");
  await Promise.all(workers);
});
afterAll(() => data?.remove());

describe("after kill -9 in the middle of a burst of writes", () => {
  it("the burst was in full swing when the server died", () => {
    expect(acks).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(tracked.filter((t) => t.inFlight !== undefined).length).toBeGreaterThan(0);
  });

  it("the restarted server has every acknowledged write with its content; in-flight writes are whole or absent", async () => {
    const server = await startServeProcess(data.dbPath, ["--rate-limits", "off"]);
    try {
      const all = await allSources(server.url, data.adminKey);
      const bySubdomain = new Map(all.map((s) => [s.attributes.deployment.service_subdomains[0]!, s]));
      const ackedCreates = tracked.filter((t) => t.id !== undefined);
      expect(all.length).toBeGreaterThanOrEqual(ackedCreates.length);
      expect(all.length).toBeLessThanOrEqual(tracked.length);

      for (const entry of tracked) {
        const found = bySubdomain.get(entry.subdomain);
        if (entry.id === undefined) {
          // A create in flight: absent, or present with exactly what was sent.
          if (found) expect(publicContentOf(found)).toEqual(withoutSecret(entry.inFlight!));
          continue;
        }
        const response = await apiRequest(`${server.url}/api/v1/sources/${entry.id}`, { key: data.adminKey });
        expect(response.status).toBe(200);
        const source = singleDocumentSchema(sourceSchema).parse(response.body).data;
        expect(allowed(entry).map(withoutSecret)).toContainEqual(publicContentOf(source));
        expect(source.attributes.deployment).not.toHaveProperty("s3_secret_key");
      }
    } finally {
      await server.stop();
    }
  });

  it("the database is intact: integrity check ok, hostname index matches the Sources, every secret decrypts", async () => {
    const db = openDatabase(data.dbPath);
    const app = await buildApp({
      db,
      dataDir: data.dir,
      deployDelayMs: 0,
      rateLimits: "off",
      secretKey: loadOrCreateSecretKey(data.dbPath),
    });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(db.pragma("foreign_key_check")).toEqual([]);

      const rows = db.prepare("SELECT id, account_id, deployment FROM sources").all() as {
        id: string;
        account_id: string;
        deployment: string;
      }[];
      const derived = rows
        .flatMap((row) => {
          const d = JSON.parse(row.deployment) as { service_subdomains: string[]; custom_domains: string[] };
          return [
            ...d.service_subdomains.map((name) => `service_subdomains ${name.toLowerCase()} ${row.id}`),
            ...d.custom_domains.map((name) => `custom_domains ${name.toLowerCase()} ${row.id}`),
          ];
        })
        .sort();
      const indexed = (
        db.prepare("SELECT kind, name, source_id FROM source_hostnames").all() as { kind: string; name: string; source_id: string }[]
      )
        .map((r) => `${r.kind} ${r.name} ${r.source_id}`)
        .sort();
      expect(indexed).toEqual(derived);

      const bySubdomain = new Map(tracked.map((t) => [t.subdomain, t]));
      for (const row of rows) {
        const record = app.sourceStore.load(row.account_id, row.id)!;
        const entry = bySubdomain.get((record.deployment.service_subdomains as string[])[0]!)!;
        expect(allowed(entry).map((c) => c.secretKey)).toContain(record.secrets.s3_secret_key);
        expect(allowed(entry).map((c) => c.name)).toContain(record.name);
      }
    } finally {
      await app.close();
      db.close();
    }
  });
});
