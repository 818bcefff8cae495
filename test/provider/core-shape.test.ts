// The provider core's entry points (core/provider.ts) take and give one shape of a Source: the
// API's names (each shell renames once at its edge), each secret where it lives in the deployment. The dynamic resource's shape (secrets apart in
// `deploymentSecrets`) exists only at the dynamic shell's edge (dynamic/shape.ts): the core refuses
// it, and nothing it returns (check's inputs, a create's or an update's state, a refresh's state
// and inputs, a Source not ready in time) has it.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { specialSecretSig, specialSigKey, unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { createSourceProvider, type SourceProvider } from "../../provider/src/core/provider";
import { SourceNotReadyError } from "../../provider/src/core/lifecycle/settle";
import { pulumiCreator } from "../../provider/src/engine/creator";
import type { SourceInputs } from "../../provider/src/core/codec";
import { sourceProvider } from "../../provider/src/dynamic/runtime";
import { configureSourceProvider } from "../support/configured-provider";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import { createClient, sourceCreateAttributesSchema } from "@asset-delivery/sdk";
import { NativeProvider } from "../../provider/src/plugin/provider";
import { exportedNames, importCircles, importsOf, sourceFiles } from "../support/module-graph";

let server: TestServer;
let core: SourceProvider;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  core = createSourceProvider({ warn: async () => undefined, env: {} });
  core.configure((name) => ({ baseUrl: server.url, apiKey: server.adminKey })[name as string]);
  await configureSourceProvider(server);
});
afterAll(async () => {
  await core?.close();
  await server?.close();
  // The runtime's core lives as long as the worker, which runs later files (isolate: false): not left pointing at a closed server.
  await sourceProvider.configure({ config: { get: () => undefined, require: () => "" } });
});

const declaration = (subdomain: string, deployment: Record<string, unknown> = {}) => ({
  name: "Photos",
  deployment: {
    type: "webproxy",
    service_subdomains: [subdomain],
    password: "origin-password",
    ...deployment,
  },
});

/** The same declaration as a program writes it: the resource's (Pulumi's) names. */
const programDeclaration = (subdomain: string) => ({
  name: "Photos",
  deployment: { type: "webproxy", serviceSubdomains: [subdomain], password: "origin-password" },
});

/** The provider's own options: one name, in no shape of the API's, kept apart from its fields (in `options`). */
const OPTIONS = new Set(["waitForDeployment", "deploymentTimeoutSeconds", "adoptSourceId", "purgeAfterUpdate"]);

/** Every key of a Source's values but those of its options (apart, in `options`), nested ones included. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === "options" ? [] : [key, ...keysOf(inner)]));
}

/**
 * Fails the test when a value has the dynamic shape anywhere, a key in the resource's names (a
 * rename inside the core), or its declared secret is not where it lives.
 */
function expectCoreShape(values: unknown, secret: string | undefined = "origin-password"): void {
  expect(JSON.stringify(values)).not.toContain("deploymentSecrets");
  // The options apart from the Source's fields, and only they there.
  expect(Object.keys(values as object).filter((key) => OPTIONS.has(key))).toEqual([]);
  expect(Object.keys((values as { options?: object }).options ?? {}).filter((key) => !OPTIONS.has(key))).toEqual([]);
  expect(keysOf(values).filter((key) => /[A-Z]/.test(key))).toEqual([]);
  expect(values).toMatchObject({ deployment: { service_subdomains: [expect.any(String)] } });
  if (secret !== undefined) expect(values).toMatchObject({ deployment: { password: secret } });
}

describe("the core's entry points", () => {
  it("refuse the dynamic shape, naming its property", () => {
    const { name, deployment } = declaration("shape-refused");
    const { password, ...open } = deployment;
    const { failures } = core.check({ name, deployment: open, deploymentSecrets: { password } });
    expect(failures).toEqual([{ path: ["deploymentSecrets"], rule: "not a property of a Source" }]);
  });

  it("give the core's shape from check, create, update and read", async () => {
    const checked = core.check(declaration("shape-core"));
    expect(checked.failures).toEqual([]);
    const inputs = (checked as { inputs: SourceInputs }).inputs;
    expectCoreShape(inputs);
    expect(inputs.options).toEqual({ waitForDeployment: true, deploymentTimeoutSeconds: 300 });

    const { id, outs } = await core.create(inputs);
    expectCoreShape(outs);
    expect(outs).toMatchObject({ deployment_status: "deployed", deployment: { password_set: true } });

    const renamed = { ...inputs, name: "Renamed" };
    expect(core.diff(id, outs, renamed).changed).toEqual(["name"]);
    const { outs: updated } = await core.update(id, outs, renamed);
    expectCoreShape(updated);

    // Changed behind the stack's back: the refresh returns inputs too.
    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
    await client.sources.update(id, { name: "Edited elsewhere" });
    await client.close();
    const read = await core.read(id, updated);
    expectCoreShape(read.props);
    expect("inputs" in read && read.inputs).toBeTruthy();
    if ("inputs" in read) expectCoreShape(read.inputs);
  });

  it("hand back a Source not ready in time in the core's shape", async () => {
    const slow = await startTestServer({ deployDelayMs: 60_000, deployLagMs: 0 });
    const provider = createSourceProvider({ warn: async () => undefined, env: {} });
    provider.configure((name) => ({ baseUrl: slow.url, apiKey: slow.adminKey })[name as string]);
    try {
      const checked = (provider.check(declaration("shape-slow")) as { inputs: SourceInputs }).inputs;
      const inputs = { ...checked, options: { ...checked.options, deploymentTimeoutSeconds: 1 } };
      const error: unknown = await provider.create(inputs).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SourceNotReadyError);
      expectCoreShape((error as SourceNotReadyError).properties);
    } finally {
      await provider.close();
      await slow.close();
    }
  });
});

describe("the dynamic shell", () => {
  it("hands the host a Source not ready in time in the dynamic shape, in an error of its own (not the core's)", async () => {
    const slow = await startTestServer({ deployDelayMs: 60_000, deployLagMs: 0 });
    await configureSourceProvider(slow);
    try {
      const { name, deployment } = programDeclaration("shape-dynamic-slow");
      const { password, ...open } = deployment;
      const checked = await sourceProvider.check({}, { name, deployment: open, deploymentSecrets: { password } });
      const inputs = { ...checked.inputs, deploymentTimeoutSeconds: 1, __provider: "serialized" };
      const error: unknown = await sourceProvider.create(inputs).catch((caught: unknown) => caught);
      expect(error).not.toBeInstanceOf(SourceNotReadyError);
      // What @pulumi/pulumi's dynamic-provider host reads: id, properties, reasons.
      expect(error).toMatchObject({
        id: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
        properties: { deploymentSecrets: { password }, deploymentStatus: "deploying", __provider: "serialized" },
        reasons: [expect.stringContaining("deploymentTimeoutSeconds")],
      });
      expect((error as { properties: object }).properties).not.toHaveProperty("deployment_status");
    } finally {
      await configureSourceProvider(server);
      await slow.close();
    }
  });

  it("puts the secrets apart once on the way back, and takes either shape from the host", async () => {
    const { name, deployment } = programDeclaration("shape-dynamic");
    const { password, ...open } = deployment;
    const checked = await sourceProvider.check({}, { name, deployment: open, deploymentSecrets: { password } });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ deploymentSecrets: { password }, deployment: { type: "webproxy" } });
    expect(checked.inputs!.deployment).not.toHaveProperty("password");
    const { outs } = await sourceProvider.create(checked.inputs);
    expect(outs).toMatchObject({ deploymentSecrets: { password }, passwordSet: true });
    expect(outs.deployment).not.toHaveProperty("password");
  });

  it("keeps the resource's URN (the Source class's input) at its edge: the create mark, the state and a refresh carry it, no diff sees it", async () => {
    const urn = "urn:pulumi:prod::site::pulumi-nodejs:dynamic/assetdelivery:Source::shape-urn";
    const { name, deployment } = programDeclaration("shape-urn");
    const { password, ...open } = deployment;
    // The core refuses any property a Source lacks: this check passing shows the URN never reached it.
    const checked = await sourceProvider.check({}, { name, deployment: open, deploymentSecrets: { password }, resourceUrn: urn });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ resourceUrn: urn });
    const { id, outs } = await sourceProvider.create(checked.inputs);
    expect(outs).toMatchObject({ resourceUrn: urn });
    // The mark as docs/interrupted-runs.md gives it, worked out here: the first 32 hex digits of the URN's SHA-256.
    const mark = `[pulumi-create:${createHash("sha256").update(urn).digest("hex").slice(0, 32)}]`;
    expect((outs.deployment as { annotation: string }).annotation).toBe(`Created by Pulumi for ${urn} ${mark}`);
    // A refresh of an unchanged Source: the state as it was, URN included, and no new inputs.
    const read = await sourceProvider.read(id, outs);
    expect(read).toEqual({ id, props: outs });
    // An alias or a new parent changes the URN, and nothing on the server.
    const moved = { ...checked.inputs, resourceUrn: `${urn}-moved` };
    await expect(sourceProvider.diff(id, outs, moved)).resolves.toMatchObject({ changes: false });
    const refused = await sourceProvider.check({}, { name, deployment: open, deploymentSecrets: { password }, resourceUrn: 42 });
    expect(refused.failures).toEqual([{ property: "resourceUrn", reason: "resourceUrn: must be a Pulumi URN" }]);
    // An output's name among the arguments is refused by that name, as the native plugin refuses it.
    const output = await sourceProvider.check({}, { name, deployment: open, deploymentSecrets: { password }, passwordSet: true });
    expect(output.failures).toEqual([{ property: "passwordSet", reason: "passwordSet: not a property of a Source" }]);
  });

  it("carries the resource options the host does not pass (the Source class's input) back in check's inputs, in no output, never to the core", async () => {
    const urn = "urn:pulumi:prod::site::pulumi-nodejs:dynamic/assetdelivery:Source::shape-options";
    const { name, deployment } = programDeclaration("shape-options");
    const { password, ...open } = deployment;
    const resourceOptions = { replaceOnChanges: ["name"], customTimeouts: { create: "5m" } };
    // The core refuses any property a Source lacks: this check passing shows the options never reached it.
    const checked = await sourceProvider.check(
      {},
      { name, deployment: open, deploymentSecrets: { password }, resourceUrn: urn, resourceOptions },
    );
    expect(checked).toMatchObject({ failures: [], inputs: { resourceOptions, resourceUrn: urn } });
    const { outs } = await sourceProvider.create(checked.inputs);
    expect(outs).not.toHaveProperty("resourceOptions");
    expect(outs).toMatchObject({ resourceUrn: urn });
    const refused = await sourceProvider.check({}, { name, deployment: open, resourceOptions: { replaceOnChanges: ["name["] } });
    expect(refused.failures).toEqual([
      { property: "resourceOptions", reason: 'replaceOnChanges[0]: "name[": missing closing bracket in array index' },
    ]);
  });
});

describe("one parse of the create schema per created Source", () => {
  const SERVER_SOURCE = path.resolve(__dirname, "../../server/src") + path.sep;

  /**
   * How often `run` has the sdk's create schema parse a document, the provider's parses apart from
   * the test server's (it runs in this process and parses each create request's document, which
   * holds the schema). Counted where zod runs the schema (`_zod.run`), which each of its entries
   * goes through (the methods `parse`, `safeParse`, `decode` and their async forms, the functions
   * `z.parse`, `z.safeParse`, ...), as does a schema that holds this one as a member.
   */
  async function createSchemaParses(run: () => Promise<unknown>): Promise<{ provider: number; server: number }> {
    const internals = sourceCreateAttributesSchema._zod;
    const own = Object.getOwnPropertyDescriptor(internals, "run")!;
    const original = internals.run.bind(internals);
    const callers: string[] = [];
    internals.run = (...args: Parameters<typeof original>) => {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = Infinity;
      callers.push(new Error().stack ?? "");
      Error.stackTraceLimit = limit;
      return original(...args);
    };
    try {
      await run();
    } finally {
      Object.defineProperty(internals, "run", own);
    }
    const server = callers.filter((stack) => stack.includes(SERVER_SOURCE)).length;
    return { provider: callers.length - server, server };
  }

  it("in the dynamic shell: check's, and none in the create the engine hands its inputs to", async () => {
    const { name, deployment } = programDeclaration("parse-dynamic");
    const { password, ...open } = deployment;
    const parses = await createSchemaParses(async () => {
      const checked = await sourceProvider.check({}, { name, deployment: open, deploymentSecrets: { password } });
      expect(checked.failures).toEqual([]);
      await sourceProvider.create(checked.inputs);
    });
    // The server's parse of the one create request's document: the count sees a parse inside another schema.
    expect(parses).toEqual({ provider: 1, server: 1 });
  });

  it("in the native plugin: check's, and none in the create the engine hands its inputs to", async () => {
    const provider = new NativeProvider({});
    await provider.configure({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
    try {
      const parses = await createSchemaParses(async () => {
        const checked = provider.check("assetdelivery:index:Source", { values: programDeclaration("parse-native"), secrets: [] });
        expect(checked.failures).toEqual([]);
        await provider.create(checked.inputs, {
          preview: false,
          timeoutSeconds: 0,
          urn: "urn:pulumi:prod::site::assetdelivery:index:Source::parse",
        });
      });
      expect(parses).toEqual({ provider: 1, server: 1 });
    } finally {
      await provider.close();
    }
  });
});

describe("the core's own files", () => {
  const coreDir = path.resolve(__dirname, "../../provider/src/core");
  const files = fs
    .readdirSync(coreDir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => ({ file, lines: fs.readFileSync(path.join(coreDir, file), "utf8").split("\n") }));
  /** The lines of the core's files (comments left out) that match. */
  const matching = (pattern: RegExp) =>
    files.flatMap(({ file, lines }) =>
      lines.filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line) && pattern.test(line)).map((line) => `${file}: ${line.trim()}`),
    );

  it("rename nothing: the shells do, at their edges (pulumi-names/)", () => {
    // The names themselves, not their calls: an import under another name (`camelCase as toCamel`) names them too.
    expect(matching(/\b(camelCase|camelSegments|toPulumiNames|toApiNames|renameDeployment)\b/)).toEqual([]);
  });

  it("import no shell and hold none of their tokens or options", () => {
    // Any line: prettier wraps a long import, its `} from "../plugin/..."` on a line of its own.
    expect(matching(/\bfrom "(\.\.\/)+(dynamic|plugin|pulumi-names|engine|tokens)\b/)).toEqual([]);
    // The package's namespace (its tokens, a stack's config keys `assetdelivery:apiKey`) is the shells' (pulumi-names/config-keys.ts).
    expect(matching(/assetdelivery:|resourceUrn|resourceOptions|deploymentSecrets|urnInRequests/)).toEqual([]);
  });

  it("speak no Pulumi: no `pulumi`, no URN, none of its protocol's values, no PropertyDiff kind (a comment may name a shell)", () => {
    const protocolValues = [unknownValue, specialSigKey, specialSecretSig];
    expect(protocolValues.every((value) => /^[0-9a-f-]{32,36}$/.test(value))).toBe(true);
    expect(
      matching(
        new RegExp(["pulumi", "\\burns?\\b", "customTimeouts", "replaceOnChanges", "PropertyDiff", ...protocolValues].join("|"), "i"),
      ),
    ).toEqual([]);
    // Pulumi's operations in a message's words ("a refresh shows", "this update takes"): its Instructions say them (core/instructions.ts).
    expect(matching(/["'`][^"'`]*\b(refresh|this update|the update will)\b/i)).toEqual([]);
    // PropertyDiff's kinds as a type or as the engine's enum.
    expect(matching(/"add"\s*\|\s*"delete"|Kind\.(ADD|DELETE|UPDATE)\b/)).toEqual([]);
  });

  it("find who holds a host name one way: in the account's listing (hand-over/holders.ts), never by a lookup per name", () => {
    expect(matching(/\.(findByHostname|findBySubdomain)\(/)).toEqual([]);
  });

  it("take the engine's values as the core's types in one place, beside the shells' codec (pulumi-names/source.ts)", () => {
    const root = path.resolve(__dirname, "../..");
    const casts = ["provider/src", "cli/src", "policy/src"].flatMap((part) =>
      fs
        .readdirSync(path.join(root, part), { recursive: true, encoding: "utf8" })
        .filter((file) => file.endsWith(".ts") && !path.join(part, file).endsWith(path.join("pulumi-names", "source.ts")))
        .filter((file) => !path.join(part, file).includes(`${path.sep}core${path.sep}`))
        .flatMap((file) =>
          fs
            .readFileSync(path.join(root, part, file), "utf8")
            .split("\n")
            .filter((line) => /\bas (SourceInputs|SourceState|UncheckedInputs)\b/.test(line))
            .map((line) => `${part}/${file}: ${line.trim()}`),
        ),
    );
    expect(casts).toEqual([]);
  });
});

describe("a run's state ends with the run: the runtime's one core per worker, configured again by each file", () => {
  it("a second file's configure starts a new run: the account is listed again, not answered from the first file's copy", async () => {
    const urn = "urn:pulumi:dev::files::pulumi-nodejs:dynamic/assetdelivery:Source::";
    const { name, deployment } = programDeclaration("file-run");
    const { password, ...open } = deployment;
    const declared = (subdomain: string) => ({
      name,
      deployment: { ...open, serviceSubdomains: [subdomain] },
      deploymentSecrets: { password },
      resourceUrn: `${urn}${subdomain}`,
    });
    // The first file: a check lists the account once for its run (the hand-overs' listing, the read coalescer's pages).
    await configureSourceProvider(server);
    const first = await sourceProvider.check({}, declared("file-one"));
    await sourceProvider.create(first.inputs);
    server.resetRequestCount();
    await sourceProvider.check({}, declared("file-one-b"));
    expect(server.requestCount("GET", /^\/api\/v1\/sources$/)).toBe(0); // the run's listing, made by its first check
    // The second file, in the same worker: its own configure.
    await configureSourceProvider(server);
    server.resetRequestCount();
    await sourceProvider.check({}, declared("file-two"));
    expect(server.requestCount("GET", /^\/api\/v1\/sources$/)).toBe(1);
  });
});

describe("a replacement through the core, against the server: the Source serves throughout", () => {
  const creator = (resource: string) => pulumiCreator(`urn:pulumi:dev::replace::assetdelivery:index:Source::${resource}`);
  /** A new run of `core` (as the engine's next command starts one): configured. */
  const newRun = () => core.configure((name) => ({ baseUrl: server.url, apiKey: server.adminKey })[name as string]);
  const inputsOf = (declared: Record<string, unknown>) => (core.check(declared, true) as { inputs: SourceInputs }).inputs;
  const enabledOnServer = async (id: string) => {
    const client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
    try {
      return (await client.sources.get(id)).attributes.enabled;
    } finally {
      await client.close();
    }
  };

  it("replaceOnChanges (a diff, then a check as new) and --replace (a check as new only), each with the delete after or before the create", async () => {
    for (const [path, deleteFirst] of [
      ["replaceOnChanges", false],
      ["--replace", false],
      ["--replace", true],
      ["replaceOnChanges", true],
    ] as const) {
      const resource = creator(`${path === "--replace" ? "forced" : "declared"}-${deleteFirst ? "first" : "last"}`);
      newRun();
      const subdomain = `r${Math.random().toString(36).slice(2, 10)}`;
      const created = inputsOf(declaration(subdomain));
      expect(await core.checkHandOvers(created, undefined, resource)).toEqual([]);
      const first = await core.create(created, { creator: resource });
      const id = first.id;
      // A deployment updated since its create keeps the create mark, by which a forced replacement finds its Source.
      const inputs = inputsOf(declaration(subdomain, { service_subdomains: [subdomain, `${subdomain}b`] }));
      const { outs } = await core.update(id, first.outs, inputs);

      newRun();
      const news = path === "replaceOnChanges" ? inputsOf({ ...declaration(subdomain), name: "Photos renamed" }) : inputs;
      if (path === "replaceOnChanges") {
        expect(await core.checkHandOvers(news, { deployment: inputs.deployment }, resource)).toEqual([]);
        core.diff(id, outs, news, resource);
      }
      expect(await core.checkHandOvers(news, undefined, resource)).toEqual([]); // the replacement's own Source: no refusal
      const { result, requests } = await countedSourceRequests(server, async () => {
        if (deleteFirst) await core.delete(id);
        expect(await enabledOnServer(id)).toBe(true);
        const created = await core.create(news, { creator: resource });
        if (!deleteFirst) await core.delete(id);
        return created;
      });
      expect(result.id, `${path}, delete ${deleteFirst ? "first" : "last"}`).toBe(id);
      expect(result.outs).toMatchObject({ enabled: true, name: news.name });
      expect(await enabledOnServer(id)).toBe(true);
      // No POST (the API would refuse it: the names are held), the take-over's one PATCH (the declared
      // secret, which the server never shows, and the new name); no retire.
      expect(requests, `${path}, delete ${deleteFirst ? "first" : "last"}`).toEqual({ GET: expect.any(Number), PATCH: 1 });
    }
  });

  it("a replacement keeping none of the old names: a new Source, and the old one retired", async () => {
    const resource = creator("moved");
    newRun();
    const inputs = inputsOf(declaration(`m${Math.random().toString(36).slice(2, 10)}`));
    const { id, outs } = await core.create(inputs, { creator: resource });
    newRun();
    const moved = inputsOf(declaration(`m${Math.random().toString(36).slice(2, 10)}`));
    core.diff(id, outs, moved, resource);
    expect(await core.checkHandOvers(moved, undefined, resource)).toEqual([]);
    const created = await core.create(moved, { creator: resource });
    await core.delete(id);
    expect(created.id).not.toBe(id);
    expect(await enabledOnServer(id)).toBe(false);
    expect(await enabledOnServer(created.id)).toBe(true);
  });
  it("a run interrupted between a replacement's take-over and the old resource's delete: the next run's delete of the leftover keeps the Source; a destroy retires it", async () => {
    const resource = creator("interrupted");
    newRun();
    const subdomain = `i${Math.random().toString(36).slice(2, 10)}`;
    const created = inputsOf(declaration(subdomain));
    const { id, outs } = await core.create(created, { creator: resource });

    newRun(); // replaceOnChanges: [name], killed after the create
    const renamed = inputsOf({ ...declaration(subdomain), name: "Photos renamed" });
    core.diff(id, outs, renamed, resource);
    expect(await core.checkHandOvers(renamed, undefined, resource)).toEqual([]);
    const replacement = await core.create(renamed, { creator: resource });
    expect(replacement.id).toBe(id);

    // The next up: the engine diffs the program's resource (the replacement, holding the Source),
    // then deletes the old resource left pending delete, with the same URN and id.
    newRun();
    core.diff(id, replacement.outs, renamed, resource);
    const { requests } = await countedSourceRequests(server, () => core.delete(id, resource));
    expect(requests).toEqual({});
    expect(await enabledOnServer(id)).toBe(true);

    // A destroy diffs nothing: its deletes retire the Source (the leftover's, then the resource's).
    newRun();
    await core.delete(id, resource);
    expect(await enabledOnServer(id)).toBe(false);
  });
});

describe("the core's surface: its index (provider/src/core/index.ts, `@asset-delivery/provider/core`)", () => {
  const root = path.resolve(__dirname, "../..");
  const coreDir = path.join(root, "provider/src/core");
  const index = path.join(coreDir, "index");
  const inCore = (file: string) => file.startsWith(coreDir + path.sep);
  /** The imports of the core by the shells, the CLI and the policy pack: what reaches into the core from outside it. */
  const fromOutside = ["provider/src", "cli/src", "policy/src"]
    .flatMap((part) => sourceFiles(path.join(root, part)))
    .filter((file) => !inCore(file))
    .flatMap(importsOf)
    .filter(({ target }) => target === "@asset-delivery/provider/core" || target === coreDir || inCore(target));

  it("is the one way in: the shells and the CLI import no module of the core but its index", () => {
    const inner = fromOutside.filter(({ target }) => target !== index && target !== "@asset-delivery/provider/core");
    expect(inner.map(({ file, specifier }) => `${path.relative(root, file)}: ${specifier}`)).toEqual([]);
  });

  it("exports exactly what they use: no export that nothing outside the core imports (tests may import inner modules)", () => {
    const used = new Set(fromOutside.flatMap(({ names }) => names));
    expect(exportedNames(`${index}.ts`).filter((name) => !used.has(name))).toEqual([]);
  });

  it("has no import circle among its modules", () => {
    expect(importCircles(coreDir, sourceFiles(coreDir))).toEqual([]);
  });
});
