// `asset-delivery drift` on stacks of native Sources (`assetdelivery:index:Source`) in each language
// the plugin serves, end to end: a stack applied by the real Pulumi CLI against a real server,
// changes made behind its back (a nested field, a list entry, a Source retired, a write-only secret
// cleared, and a Source made by hand beside them), then the command run as CI runs it. The fields
// it names are held to those `pulumi refresh --preview-only` would change; the report's keep path
// (a refresh, then the declaration Pulumi's import code generation printed, put in the program)
// gives a preview without changes and without a write. One suite; each language is an adapter that
// writes the same declarations as its program (drift-native-*.test.ts).
import { execFile } from "node:child_process";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { countedSourceRequests, startTestServer, type TestServer } from "../support/server";
import type { YamlStack } from "../plugin/yaml-stack";

const STEP_TIMEOUT = 300_000;
const BIN = path.resolve(__dirname, "..", "..", "cli", "bin", "asset-delivery.js");
const STACK = "e2e";
const NATIVE = "assetdelivery:index:Source";

/** A Source as the test programs declare it: camelCase arguments, and deployment fields read from secret config (field → config key). */
export interface Declaration {
  args: { name: string; deployment: Record<string, unknown> };
  secrets?: Record<string, string>;
}

/** How one language's program declares the Sources. */
export interface LanguageProgram {
  /** The project's runtime, as Pulumi.yaml names it. */
  runtime: string;
  /** Whether the program passes a plain field (`s3AccessKey`) as a secret, which Pulumi YAML's type checker refuses. */
  passesSecrets: boolean;
  /** A fresh stack of the language's project, with the API's address and key in its config. */
  createStack(name: string, credentials: { baseUrl: string; apiKey: string }): Promise<YamlStack>;
  /** Writes the program declaring `sources`; with `replaced`, the Source of that name is declared by `code` instead. */
  write(stack: YamlStack, sources: Record<string, Declaration>, replaced?: { name: string; code: string }): void;
  /** Sources of another shape the program declares beside (a dynamic one, for a mixed stack). */
  others?: number;
}

// Values that must never appear in any output.
const SECRETS = {
  originPassword: "drift-native-origin-password",
  s3SecretKey: "drift-native-s3-secret-key",
  s3AccessKey: "AKIADRIFTNATIVESECRET",
};

function declarations(prefix: string, passesSecrets: boolean): Record<string, Declaration> {
  return {
    docs: { args: { name: "Docs", deployment: { type: "webproxy", serviceSubdomains: [`${prefix}-docs`], defaultParams: { w: "400" } } } },
    assets: {
      args: {
        name: "Assets",
        deployment: {
          type: "s3",
          serviceSubdomains: [`${prefix}-assets`],
          s3Bucket: `${prefix}-assets`,
          customDomains: [`${prefix}.assets.example.com`],
          ...(passesSecrets ? {} : { s3AccessKey: "AKIAPLAINACCESSKEY" }),
        },
      },
      secrets: { s3SecretKey: "s3SecretKey", ...(passesSecrets ? { s3AccessKey: "s3AccessKey" } : {}) },
    },
    photos: {
      args: {
        name: "Photos",
        deployment: { type: "webfolder", serviceSubdomains: [`${prefix}-photos`], webfolderBaseUrl: "https://origin.example.com/" },
      },
      secrets: { password: "originPassword" },
    },
    legacy: { args: { name: "Legacy", deployment: { type: "webproxy", serviceSubdomains: [`${prefix}-legacy`] } } },
  };
}

interface DriftJson {
  sourceCount: number;
  drifted: {
    name: string;
    urn: string;
    shape: string;
    status: string;
    fields: { field: string }[];
    wayOut: { declaration?: { language: string; code: string } };
  }[];
  unmanaged: { id: string }[];
}

export function nativeDriftSuite(program: LanguageProgram): void {
  const prefix = `drift-${program.runtime}`;
  const declared = declarations(prefix, program.passesSecrets);
  const sourceCount = Object.keys(declared).length + (program.others ?? 0);
  let server: TestServer;
  let client: AssetDeliveryClient;
  let stack: YamlStack;
  let ids: Record<string, string>;

  /** Runs the installed bin as CI would, in the project's folder, with the stack's Pulumi environment. */
  function drift(args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { ASSET_DELIVERY_BASE_URL: _url, ASSET_DELIVERY_API_KEY: _key, ...inherited } = process.env;
    return new Promise((resolve) => {
      // Asynchronous on purpose: the server answers from this process.
      execFile(
        process.execPath,
        [BIN, "drift", "--stack", STACK, ...args],
        { env: { ...inherited, ...stack.env }, cwd: stack.workDir },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
      );
    });
  }

  function expectNoSecret(text: string): void {
    for (const secret of [...Object.values(SECRETS), server.adminKey]) expect(text).not.toContain(secret);
  }

  beforeAll(async () => {
    server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
    client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
    stack = await program.createStack(prefix, { baseUrl: server.url, apiKey: server.adminKey });
    for (const [key, value] of Object.entries(SECRETS)) await stack.ok(["config", "set", "--secret", key, value]);
    program.write(stack, declared);
    await stack.ok(["up", "--yes"]);
    const state = JSON.parse(await stack.exportState()) as { deployment: { resources: { type: string; urn: string; id: string }[] } };
    ids = Object.fromEntries(state.deployment.resources.filter((r) => r.type === NATIVE).map((r) => [r.urn.split("::").pop()!, r.id]));
  }, STEP_TIMEOUT);

  afterAll(async () => {
    await stack?.remove();
    await client?.close();
    await server?.close();
  }, STEP_TIMEOUT);

  describe(`asset-delivery drift on a ${program.runtime} stack of native Sources`, () => {
    it(
      "reports no drift on a clean stack (every Source read, whatever its shape), exit 0",
      async () => {
        const run = await drift();
        expect(run.stderr).toBe("");
        expect(run.stdout).toBe(`No drift: all ${sourceCount} Sources of stack \`${STACK}\` match the server.\n`);
        expect(run.code).toBe(0);
      },
      STEP_TIMEOUT,
    );

    it(
      "names the fields pulumi refresh --preview-only would change, exit 2, the hand-made Source unmanaged, no secret in any format",
      async () => {
        const edit = async (id: string, changes: Record<string, unknown>) => {
          const live = await client.sources.get(id);
          await client.sources.update(id, { deployment: { ...live.attributes.deployment, ...changes } });
        };
        await edit(ids.docs!, { default_params: { w: "800" } }); // a nested field
        await edit(ids.assets!, { custom_domains: [`${prefix}.assets.example.com`, `${prefix}.cdn.example.com`] }); // a list entry
        await edit(ids.photos!, { password: null }); // a write-only secret cleared
        await client.sources.update(ids.legacy!, { enabled: false }); // retired
        const handMade = await client.sources.create({
          name: "Hand made",
          deployment: { type: "webproxy", service_subdomains: [`${prefix}-hand-made`] },
        });
        const stateBefore = await stack.exportState();

        const { result: json, requests } = await countedSourceRequests(server, () => drift(["--format", "json"]));
        expect(json.stderr).toBe("");
        expect(json.code).toBe(2);
        expect(requests.PATCH ?? 0, "the review writes nothing").toBe(0);
        expect(requests.POST ?? 0, "the review writes nothing").toBe(0);
        const report = JSON.parse(json.stdout) as DriftJson;
        expect(report.sourceCount).toBe(sourceCount);
        expect(report.drifted.map(({ name, shape, status }) => [name, shape, status])).toEqual([
          ["assets", "native", "changed"],
          ["docs", "native", "changed"],
          ["legacy", "native", "retired"],
          ["photos", "native", "changed"],
        ]);
        expect(report.unmanaged.map((source) => source.id)).toEqual([handMade.id]);
        const named = Object.fromEntries(report.drifted.map(({ name, fields }) => [name, fields.map((field) => field.field)]));
        expect(named).toEqual({
          assets: ["deployment.customDomains"],
          docs: ["deployment.defaultParams.w"],
          legacy: ["enabled"],
          photos: ["deployment.password"],
        });
        // The same fields as a refresh would change; it names a list's entries, drift the list (the API replaces it whole).
        expect(await refreshedFields(stack)).toEqual(named);

        const markdown = await drift();
        expect(markdown.code).toBe(2);
        expect(markdown.stdout).toContain(
          "A list is compared whole (an API update replaces it whole); `pulumi refresh` names its entries.",
        );
        expect(markdown.stdout).toContain("A write-only secret is never returned by the API: its change is seen through the flag shown");
        for (const { urn } of report.drifted) {
          expect(markdown.stdout).toContain(`\`pulumi up --stack ${STACK} --target ${urn} --refresh\``);
          expect(markdown.stdout).toContain(`\`pulumi refresh --stack ${STACK} --target ${urn}\``);
        }
        for (const output of [json.stdout, json.stderr, markdown.stdout, markdown.stderr]) expectNoSecret(output);
        expect(await stack.exportState(), "the state is left as it was").toBe(stateBefore);
      },
      STEP_TIMEOUT,
    );

    it(
      "keeps the server's values: a refresh, then Pulumi's generated declaration in the program, previews no change, no write",
      async () => {
        const report = JSON.parse((await drift(["--format", "json"])).stdout) as DriftJson;
        for (const drifted of report.drifted) expect(drifted.wayOut.declaration?.language, drifted.name).toBe(program.runtime);
        const docs = report.drifted.find((source) => source.name === "docs")!;
        const code = docs.wayOut.declaration!.code;
        expect(code).toContain("800");
        // A secret's place in the code is a read of config.
        const assets = report.drifted.find((source) => source.name === "assets")!.wayOut.declaration!.code;
        expect(assets).toMatch(/assetsS3SecretKey/);
        if (program.passesSecrets) expect(assets).toMatch(/assetsS3AccessKey/);
        const { requests } = await countedSourceRequests(server, async () => {
          await stack.ok(["refresh", "--yes", "--target", docs.urn]);
          program.write(stack, declared, { name: "docs", code });
          const preview = await stack.pulumi(["preview", "--expect-no-changes", "--diff", "--target", docs.urn]);
          expect(preview.code, preview.stdout + preview.stderr).toBe(0);
        });
        expect(requests.PATCH ?? 0).toBe(0);
        expect(requests.POST ?? 0).toBe(0);
      },
      STEP_TIMEOUT,
    );
  });
}

/** What `pulumi refresh --preview-only` would change, by resource name: its detailed diff's paths, list entries as their list. */
async function refreshedFields(stack: YamlStack): Promise<Record<string, string[]>> {
  const { stdout } = await stack.ok(["refresh", "--preview-only", "--json"]);
  const { steps } = JSON.parse(stdout) as { steps: { op: string; urn: string; detailedDiff?: Record<string, unknown> }[] };
  return Object.fromEntries(
    steps
      .filter((step) => step.op === "update" && step.urn.includes(`::${NATIVE}::`))
      .map((step): [string, string[]] => [
        step.urn.split("::").pop()!,
        [...new Set(Object.keys(step.detailedDiff ?? {}).map((field) => field.replace(/\[\d+\]$/, "")))],
      ])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}
