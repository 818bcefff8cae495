// Secrets never leak in plain text. After a provider run through the real Pulumi CLI (`up`, then
// `refresh`) of Sources carrying every kind of write-only value (some passed as secrets, some
// unmarked as a careless program would), a signing token the server generates, and the API key in
// stack config, none of these values appears in plain text in: any response body the server sent,
// the backend's state folder (checkpoint, backups, history), the server's database file and its
// WAL, or the server's log (every request logged).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../support/program-stack";

const STEP_TIMEOUT = 300_000;

/** A value found nowhere else, of `length` printable ASCII characters (handshakes need exactly 32). */
function marker(label: string, length = 40): string {
  return `${label}${randomBytes(32).toString("hex")}`.slice(0, length);
}

// Write-only values by Source and field (camelCase, as the program passes them).
const SECRET_VALUES = {
  s3: {
    s3SecretKey: marker("S3SECRET"),
    uploadCredentials: { type: "s3", s3AccessKey: "AKIAUPLOADEXAMPLE", s3SecretKey: marker("UPLOADSECRET") },
  },
  gcs: { gcsSecretKey: marker("GCSSECRET") },
  azure: { azureSasString: `sv=2024-01-01&sig=${marker("SASSIG")}` },
  compat: { secretKey: marker("COMPATSECRET") },
  folder: { password: marker("FOLDERPASS"), requestHandshake: marker("FOLDERHS", 32), requestSigningKey: marker("FOLDERSK", 32) },
  proxy: { password: marker("PROXYPASS"), requestHandshake: marker("PROXYHS", 32), requestSigningKey: marker("PROXYSK", 32) },
};

const SOURCES = {
  s3: {
    name: "S3",
    deployment: { type: "s3", serviceSubdomains: ["leak-s3"], s3AccessKey: "AKIAEXAMPLE", s3Bucket: "leak-bucket", secureUrlEnabled: true },
  },
  gcs: {
    name: "GCS",
    deployment: { type: "gcs", serviceSubdomains: ["leak-gcs"], gcsAccessKey: "GOOGEXAMPLE", gcsBucket: "leak-gcs-bucket" },
  },
  azure: {
    name: "Azure",
    deployment: {
      type: "azure",
      serviceSubdomains: ["leak-azure"],
      azureAccount: "leakaccount",
      azureBucket: "leak-container",
      azureServiceType: "blob",
    },
  },
  compat: {
    name: "Compatible",
    deployment: {
      type: "s3_compatible",
      serviceSubdomains: ["leak-compat"],
      accessKeyId: "DOEXAMPLE",
      bucketName: "leak-compat-bucket",
      endpointUrl: "https://nyc3.digitaloceanspaces.com",
      region: "nyc3",
      storageProvider: "DigitalOcean",
    },
  },
  folder: {
    name: "Folder",
    deployment: { type: "webfolder", serviceSubdomains: ["leak-folder"], webfolderBaseUrl: "https://origin.example.com/images/" },
  },
  proxy: { name: "Proxy", deployment: { type: "webproxy", serviceSubdomains: ["leak-proxy"] } },
};

let server: TestServer;
let program: ProgramStack;
let logFile: string;
const responseBodies: string[] = [];

/** The secret values in play: every write-only value, the API key, and the generated signing token. */
function secretValues(): Record<string, string> {
  const values: Record<string, string> = { apiKey: server.adminKey };
  for (const [source, fields] of Object.entries(SECRET_VALUES)) {
    for (const [field, value] of Object.entries(fields)) {
      if (typeof value === "string") values[`${source}.${field}`] = value;
      else values[`${source}.${field}.s3SecretKey`] = value.s3SecretKey;
    }
  }
  return values;
}

function signingToken(): string {
  const row = server.db
    .prepare("SELECT id FROM sources WHERE json_extract(deployment, '$.service_subdomains[0]') = 'leak-s3'")
    .pluck()
    .get() as string;
  const token = server.app.sourceStore.load(
    server.db.prepare("SELECT account_id FROM sources WHERE id = ?").pluck().get(row) as string,
    row,
  )!.secureUrlToken;
  expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
  return token!;
}

/** The names of the values found in `bytes`. */
function leaksIn(bytes: Buffer, values: Record<string, string>): string[] {
  return Object.entries(values)
    .filter(([, value]) => bytes.includes(Buffer.from(value, "utf8")))
    .map(([name]) => name);
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(dir, f))
    .filter((f) => fs.statSync(f).isFile());
}

beforeAll(async () => {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-secrets-log-"));
  logFile = path.join(logDir, "server.log");
  server = await startTestServer({
    deployDelayMs: 0,
    // Every request and response logged, as an operator debugging a problem would run it.
    logger: { level: "info", file: logFile },
    configure(app) {
      app.addHook("onSend", async (_request, _reply, payload) => {
        if (typeof payload === "string" || Buffer.isBuffer(payload)) responseBodies.push(payload.toString());
        return payload;
      });
    },
  });
  program = await programStack(path.join(TEST_PROGRAMS, "sources"), "secrets", { baseUrl: server.url, apiKey: server.adminKey });
  await program.set({
    sources: SOURCES,
    // The web types' values go in unmarked, as a careless program would pass them: the resource must
    // still keep them secret. The others come from secret config.
    secretFields: Object.fromEntries(
      Object.entries(SECRET_VALUES)
        .filter(([name]) => name !== "folder" && name !== "proxy")
        .map(([name, f]) => [name, Object.keys(f)]),
    ),
    plainFields: { folder: Object.keys(SECRET_VALUES.folder), proxy: Object.keys(SECRET_VALUES.proxy) },
  });
  await program.setSecret({ secretValues: SECRET_VALUES });
  const up = await program.stack.up();
  expect(up.summary.resourceChanges).toEqual({ create: Object.keys(SOURCES).length + 1 });
  await program.stack.refresh();
}, STEP_TIMEOUT);

afterAll(async () => {
  await removeStacksAndServer({ stacks: [program], server });
  if (logFile) fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
});

describe("after up and refresh of Sources with every kind of write-only value", () => {
  it("the server stored every secret (so the scans below look for values that were really sent)", () => {
    const ids = server.db.prepare("SELECT id, account_id FROM sources").all() as { id: string; account_id: string }[];
    const stored = ids.map(({ id, account_id }) => server.app.sourceStore.load(account_id, id)!.secrets);
    const all = JSON.stringify(stored);
    for (const [name, value] of Object.entries(secretValues())) if (name !== "apiKey") expect(all, name).toContain(value);
  });

  it("no response body carries a write-only value or the API key", () => {
    expect(responseBodies.length).toBeGreaterThan(Object.keys(SOURCES).length);
    const leaks = responseBodies.flatMap((body) => leaksIn(Buffer.from(body), secretValues()));
    expect(leaks).toEqual([]);
  });

  it("the backend's state folder (checkpoint, backups, history) holds none of them, nor the signing token", () => {
    const values = { ...secretValues(), signingToken: signingToken() };
    const files = filesUnder(path.join(program.workDir, ".state"));
    // The stack (named "secrets") has its checkpoint, backups and history there.
    expect(files.some((f) => f.endsWith(`${path.sep}stacks${path.sep}provider-e2e-sources${path.sep}secrets.json`))).toBe(true);
    expect(files.some((f) => f.includes(`${path.sep}history${path.sep}`))).toBe(true);
    expect(files.some((f) => f.includes(`${path.sep}backups${path.sep}`))).toBe(true);
    const leaks = files.flatMap((file) =>
      leaksIn(fs.readFileSync(file), values).map((name) => `${name} in ${path.relative(program.workDir, file)}`),
    );
    expect(leaks).toEqual([]);
  });

  it("the database file and its WAL hold none of them, nor the signing token", async () => {
    const values = { ...secretValues(), signingToken: signingToken() };
    const files = [server.dbPath, `${server.dbPath}-wal`, `${server.dbPath}-shm`].filter((f) => fs.existsSync(f));
    expect(files).toContain(`${server.dbPath}-wal`);
    const leaks = files.flatMap((file) => leaksIn(fs.readFileSync(file), values).map((name) => `${name} in ${path.basename(file)}`));
    expect(leaks).toEqual([]);
  });

  it("the server's log, with every request in it, holds none of them, nor the signing token", () => {
    const log = fs.readFileSync(logFile);
    expect(log.toString()).toMatch(/"url":"\/api\/v1\/sources/);
    expect(leaksIn(log, { ...secretValues(), signingToken: signingToken() })).toEqual([]);
  });
});
