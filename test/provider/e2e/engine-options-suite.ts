// Every option and flag a user drives a Source with, through the real Pulumi CLI against a real
// server, in both shells: one suite, each shell an adapter that writes the same declarations as its
// program (the native plugin's YAML in test/plugin/engine-options.test.ts, the dynamic `Source` in
// TypeScript in test/provider/e2e/engine-options.test.ts). One stack; each step one `up` (or two)
// exercising several options on Sources of their own, so that each assertion stays on its Source:
// the writes the server answered on every Source it holds (the stack's or not), the Source on the
// server and in the state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import type { StartedCli, YamlStack } from "../../plugin/yaml-stack";
import { countWrites, noWrites, totalWrites, type Writes } from "../../support/hand-overs";
import { startTestServer, type TestServer, type TestServerOptions } from "../../support/server";

const STEP_TIMEOUT = 300_000;
const STACK = "e2e";
const ORIGIN = "https://origin.example.com/options/";

/** Resource options as both shells spell them (the YAML program's `options`, the TypeScript one's third argument). */
export interface Options {
  protect?: boolean;
  retainOnDelete?: boolean;
  deleteBeforeReplace?: boolean;
  replaceOnChanges?: string[];
  ignoreChanges?: string[];
  /** The resource's earlier names (a TypeScript program gives each as `{ name }`, Pulumi YAML as its URN). */
  aliases?: string[];
  import?: string;
  customTimeouts?: { create?: string; update?: string };
  /** Names of Sources declared before this one. */
  dependsOn?: string[];
}

/** A Source as the programs declare it: its arguments, deployment fields read from secret config (field -> config key), its options. */
export interface Declared {
  args: { name: string; deployment: Record<string, unknown> } & Record<string, unknown>;
  secrets?: Record<string, string>;
  options?: Options;
}

/** How one shell's program declares Sources. */
export interface Shell {
  /** What the tests' names say: "native plugin, YAML" or "dynamic Source, TypeScript". */
  label: string;
  /** The resource type in the state and in URNs. */
  type: string;
  /** A fresh stack of the shell's project named `project`, with the API's address and key in its config. */
  createStack(project: string, credentials: { baseUrl: string; apiKey: string }): Promise<YamlStack>;
  /** Writes the program declaring `sources`, in this order; `urnOf`: a resource name's URN in the stack. */
  write(stack: YamlStack, sources: Record<string, Declared>, urnOf: (name: string) => string): void;
  /**
   * The native plugin, which the engine gives its Cancel, and which reads a Source to import.
   * Pulumi's dynamic provider host passes no Cancel to a dynamic resource, and cannot import one
   * (pulumi/pulumi#3550: it needs the provider from the state): the dynamic `Source` adopts a
   * Source by `adoptSourceId` instead. (Its `replaceOnChanges` and `customTimeouts`, which the host
   * does not pass either, the Source class does: dynamic/resource-options.ts.)
   */
  native: boolean;
}

/** A webfolder Source's arguments; `more`: its other arguments (`waitForDeployment`, ...). */
function webfolder(name: string, subdomain: string, customDomains: string[] = [], more: Record<string, unknown> = {}): Declared["args"] {
  return { name, ...more, deployment: { type: "webfolder", webfolderBaseUrl: ORIGIN, serviceSubdomains: [subdomain], customDomains } };
}

/**
 * The first declaration: a Source per option, named after it. `ignored`'s secret is named as on the
 * native plugin: the dynamic `Source` keeps it apart (`deploymentSecrets.password`), and its class
 * adds that path (dynamic/resource-options.ts).
 */
const first = (): Record<string, Declared> => ({
  web: { args: webfolder("Web", "eo-web", ["web.eo.example"]) },
  relabeled: { args: webfolder("Relabeled", "eo-relabeled", ["relabeled.eo.example"]), options: { replaceOnChanges: ["name"] } },
  before: { args: webfolder("Before", "eo-before", ["before.eo.example"]), options: { deleteBeforeReplace: true } },
  ignored: {
    args: webfolder("Ignored", "eo-ignored", ["ignored.eo.example"]),
    secrets: { password: "ignoredPassword" },
    options: { ignoreChanges: ["deployment.customDomains", "deployment.password"] },
  },
  guarded: { args: webfolder("Guarded", "eo-guarded"), options: { protect: true } },
  kept: { args: webfolder("Kept", "eo-kept"), options: { retainOnDelete: true } },
  old: { args: webfolder("Old", "eo-old") },
  targeted: { args: webfolder("Targeted", "eo-targeted") },
  excluded: { args: webfolder("Excluded", "eo-excluded") },
});

const PASSWORDS = ["eo-origin-password-one", "eo-origin-password-two"];

export function engineOptionsSuite(shell: Shell): void {
  let server: TestServer;
  let client: AssetDeliveryClient;
  let stack: YamlStack;
  /** What the program declares now. */
  let declared: Record<string, Declared>;
  const project = `options-${shell.native ? "native" : "dynamic"}`;
  const urn = urnIn(project, shell);

  const declare = (sources: Record<string, Declared>) => {
    declared = sources;
    shell.write(stack, sources, urn);
  };

  /** The stack's Sources in the state. */
  const inState = () => sourcesInState(stack, shell.type);

  const ids = async () => Object.fromEntries(Object.entries(await inState()).map(([name, { id }]) => [name, id]));

  /** The Sources the server holds, all accounts. */
  const sourceCount = () => (server.db.prepare("SELECT count(*) AS n FROM sources").get() as { n: number }).n;

  /** The last `up`'s output. */
  let upOutput = "";

  /** `up ARGS`, its writes counted, named by the ids in the state after it (its output in `upOutput`). */
  const up = (args: string[]) =>
    countWrites(
      server,
      async () => {
        const result = await stack.ok(["up", "--yes", ...args]);
        upOutput = result.stdout + result.stderr;
      },
      ids,
    );

  /** The Sources of `names` got no write; the others of `writes` are someone else's to assert. */
  function expectUntouched(writes: Writes, names: readonly string[]): void {
    for (const name of names) expect(writes.patches[name], `PATCHes of ${name}`).toBe(0);
  }

  /**
   * The Source of `name` serves what the program declares: enabled on the server with its name and
   * host names, the state's id that Source, and the state's outputs saying the same.
   */
  async function expectServing(name: string, state?: Record<string, { id: string; outputs: any }>): Promise<void> {
    const recorded = (state ?? (await inState()))[name]!;
    const { args } = declared[name]!;
    const live = (await client.sources.get(recorded.id)).attributes;
    expect({ name: live.name, enabled: live.enabled, serviceSubdomains: live.deployment.service_subdomains }, name).toEqual({
      name: args.name,
      enabled: true,
      serviceSubdomains: args.deployment.serviceSubdomains,
    });
    expect(live.deployment.custom_domains, name).toEqual(args.deployment.customDomains);
    expect({ name: recorded.outputs.name, enabled: recorded.outputs.enabled }, `${name} in the state`).toEqual({
      name: args.name,
      enabled: true,
    });
  }

  /**
   * After a replacement step, whatever its outcome: each of `names`' Sources serves again, as the
   * state says it does, so that a replacement that took one offline fails its own step only.
   */
  async function reEnable(names: readonly string[]): Promise<void> {
    const byName = await ids();
    for (const name of names) {
      const id = byName[name];
      if (id !== undefined && !(await client.sources.get(id)).attributes.enabled) await client.sources.update(id, { enabled: true });
    }
  }

  /** A refreshed preview shows no change and writes nothing: the state agrees with the server. */
  async function expectNoChangeAfterRefresh(): Promise<void> {
    let output = "";
    const writes = await countWrites(
      server,
      async () => {
        const preview = await stack.pulumi(["preview", "--refresh", "--expect-no-changes", "--diff"]);
        output = preview.stdout + preview.stderr;
        expect(preview.code, output).toBe(0);
      },
      ids,
    );
    expect(totalWrites(writes), output).toBe(0);
  }

  describe(`${shell.label}: the options and flags Pulumi drives a Source with`, () => {
    stackOnServer(shell, project, { deployDelayMs: 0, deployLagMs: 0 }, async (made) => {
      ({ server, client, stack } = made);
      await stack.ok(["config", "set", "--secret", "ignoredPassword", PASSWORDS[0]!]);
      declare(first());
      await stack.ok(["up", "--yes", "--skip-preview"]);
    });

    it(
      "`up --replace` and a replaceOnChanges replacement keep each Source serving, never disabled, the state agreeing, deleteBeforeReplace too; no Source made",
      async () => {
        const before = await ids();
        const count = sourceCount();
        const { relabeled } = declared;
        declare({ ...declared, relabeled: { ...relabeled!, args: { ...relabeled!.args, name: "Relabeled again" } } });
        try {
          // With its preview: Check must let a replacement take its own Source's names.
          const writes = await up(["--replace", urn("web"), "--replace", urn("before")]);
          // relabeled's replaceOnChanges made its change a replacement (not an update in place), in either shell.
          expect(upOutput).toMatch(/\+-3 replaced/);
          expect(upOutput).not.toMatch(/~\s*\d+ updated/);
          const state = await inState();
          const replaced = ["web", "relabeled", "before"] as const;
          expect(Object.fromEntries(replaced.map((name) => [name, state[name]!.id]))).toEqual(
            Object.fromEntries(replaced.map((name) => [name, before[name]])),
          );
          expect(sourceCount()).toBe(count);
          // `before`'s delete comes first (deleteBeforeReplace): it too leaves the Source serving for the create that follows.
          expect({ disabled: writes.disabled, posts: writes.posts, purges: writes.purges, others: writes.others }).toEqual({
            disabled: [],
            posts: 0,
            purges: 0,
            others: [],
          });
          expectUntouched(writes, ["ignored", "guarded", "kept", "old", "targeted", "excluded"]);
          for (const name of replaced) await expectServing(name, state);
          await expectNoChangeAfterRefresh();
        } finally {
          await reEnable(["web", "relabeled", "before"]);
          // The name the state records, so that the steps after it replace nothing.
          const recorded = (await inState()).relabeled!.outputs.name as string;
          declare({ ...declared, relabeled: { ...relabeled!, args: { ...relabeled!.args, name: recorded } } });
        }
      },
      STEP_TIMEOUT,
    );

    it(
      "`up --target-replace` keeps the Source serving, never disabled, writing no other Source; no Source made",
      async () => {
        const before = await ids();
        const writes = await up(["--skip-preview", "--target-replace", urn("web")]);
        const state = await inState();
        expect(state.web!.id).toBe(before.web);
        expect(writes).toEqual(noWrites(Object.keys(state)));
        await expectServing("web", state);
        await expectNoChangeAfterRefresh();
      },
      STEP_TIMEOUT,
    );

    it(
      "a replacement whose run stops after its create: the next up's delete of the pending-delete leftover leaves the Source the replacement took over serving, writing nothing",
      async () => {
        const before = await ids();
        // The run fails after web's replacement took its Source over (broken waits for it, and its
        // check refuses it): the engine never runs the deletes then, and leaves the old web pending
        // delete after the replacement, with the same id, as a run killed there does.
        const broken = webfolder("Broken", "eo-broken");
        const withoutBroken = () => Object.fromEntries(Object.entries(declared).filter(([name]) => name !== "broken"));
        declare({
          ...declared,
          broken: { args: { ...broken, deployment: { ...broken.deployment, serviceSubdomains: [] } }, options: { dependsOn: ["web"] } },
        });
        try {
          let failed = "";
          const interrupted = await countWrites(
            server,
            async () => {
              const result = await stack.pulumi(["up", "--yes", "--skip-preview", "--replace", urn("web")]);
              failed = result.stdout + result.stderr;
              expect(result.code, failed).not.toBe(0);
            },
            ids,
          );
          expect(failed).toContain("must name at least one subdomain");
          expect(interrupted, failed).toEqual(noWrites(Object.keys(before)));
          expect(await entriesOf(stack, urn("web")), "web in the state").toEqual([
            { id: before.web, delete: false },
            { id: before.web, delete: true },
          ]);
          declare(withoutBroken());
          let output = "";
          const writes = await countWrites(
            server,
            async () => {
              const result = await stack.ok(["up", "--yes", "--skip-preview"]);
              output = result.stdout + result.stderr;
            },
            ids,
          );
          expect(writes, output).toEqual(noWrites(Object.keys(before)));
          expect(output).toContain(`Source ${before.web} was not retired: the replacement an interrupted run created took it over`);
          expect(await entriesOf(stack, urn("web")), "web in the state").toEqual([{ id: before.web, delete: false }]);
          await expectServing("web");
          await expectNoChangeAfterRefresh();
        } finally {
          declare(withoutBroken());
          await reEnable(["web"]);
        }
      },
      STEP_TIMEOUT,
    );

    it(
      "in one up: ignoreChanges on a nested list and a secret sends nothing; an alias renames; retainOnDelete leaves the Source; `import` (the dynamic Source: adoptSourceId) takes one made by hand",
      async () => {
        const handMadeArgs = { name: "Hand made", deployment: { type: "webproxy", serviceSubdomains: ["eo-imported"] } };
        const handMade = await client.sources.create({
          name: "Hand made",
          deployment: { type: "webproxy", service_subdomains: ["eo-imported"] },
        });
        const before = await ids();
        const { ignored, old, kept: _kept, relabeled, ...rest } = declared;
        await stack.ok(["config", "set", "--secret", "ignoredPassword", PASSWORDS[1]!]);
        declare({
          ...rest,
          // Its options alone changed: nothing to write, nothing replaced (the dynamic Source passes them in an input of its own).
          relabeled: {
            ...relabeled!,
            options: { replaceOnChanges: ["deployment.customDomains", "name"], customTimeouts: { update: "1m" } },
          },
          ignored: {
            ...ignored!,
            args: { ...ignored!.args, deployment: { ...ignored!.args.deployment, customDomains: ["ignored-too.eo.example"] } },
          },
          renamed: { ...old!, options: { aliases: ["old"] } },
          imported: shell.native
            ? { args: handMadeArgs, options: { import: handMade.id } }
            : { args: { ...handMadeArgs, adoptSourceId: handMade.id } },
        });
        const writes = await up(["--skip-preview"]);
        const state = await inState();
        // ignoreChanges: the server and the state keep the domain and the password; nothing sent.
        const ignoredLive = (await client.sources.get(before.ignored!)).attributes.deployment;
        expect(ignoredLive).toMatchObject({ custom_domains: ["ignored.eo.example"], password_set: true });
        expect(writes.patches.ignored).toBe(0);
        expect(state.ignored!.inputs.deployment.customDomains).toEqual(["ignored.eo.example"]);
        // aliases: the same Source under its new name, nothing sent.
        expect(state.renamed!.id).toBe(before.old);
        expect(state).not.toHaveProperty("old");
        expect(writes.patches.renamed).toBe(0);
        // retainOnDelete: out of the state, left as it was on the server.
        expect(state).not.toHaveProperty("kept");
        expect(writes.patches[`Kept (${before.kept})`]).toBeUndefined();
        expect((await client.sources.get(before.kept!)).attributes).toMatchObject({ name: "Kept", enabled: true });
        // import (adoptSourceId on the dynamic Source): the hand-made Source in the state, nothing sent.
        expect(state.imported!.id).toBe(handMade.id);
        expect(writes.patches.imported).toBe(0);
        expect(writes).toEqual(noWrites(Object.keys(state)));
        expect(state.relabeled!.id).toBe(before.relabeled);
        expect(upOutput).not.toMatch(/replaced/);
        await expectNoChangeAfterRefresh();
      },
      STEP_TIMEOUT,
    );

    it(
      "`--target` writes only the targeted Source; `--exclude` writes all but the excluded one, whose change the next up sends",
      async () => {
        const renamed = (name: string) => ({
          ...declared[name]!,
          args: { ...declared[name]!.args, name: `${declared[name]!.args.name} 2` },
        });
        declare({ ...declared, targeted: renamed("targeted"), excluded: renamed("excluded"), renamed: renamed("renamed") });
        const targeted = await up(["--skip-preview", "--target", urn("targeted")]);
        expect(targeted).toEqual({
          ...noWrites(Object.keys(declared)),
          patches: { ...noWrites(Object.keys(declared)).patches, targeted: 1 },
        });
        const excluded = await up(["--skip-preview", "--exclude", urn("excluded")]);
        expect(excluded).toEqual({
          ...noWrites(Object.keys(declared)),
          patches: { ...noWrites(Object.keys(declared)).patches, renamed: 1 },
        });
        const state = await inState();
        expect(state.excluded!.outputs.name).toBe("Excluded");
        expect((await client.sources.get(state.excluded!.id)).attributes.name).toBe("Excluded");
        await expectServing("targeted", state);
        await expectServing("renamed", state);
      },
      STEP_TIMEOUT,
    );

    it(
      "`up --continue-on-error` creates the good Source and refuses one taking a domain held outside the stack, naming the holder, with no write to it",
      async () => {
        const outside = await client.sources.create({
          name: "Outside",
          deployment: { type: "webproxy", service_subdomains: ["eo-outside"], custom_domains: ["outside.eo.example"] },
        });
        const before = declared;
        declare({
          ...before,
          good: { args: webfolder("Good", "eo-good") },
          bad: { args: webfolder("Bad", "eo-bad", ["outside.eo.example"]) },
        });
        try {
          let output = "";
          const writes = await countWrites(
            server,
            async () => {
              const result = await stack.pulumi(["up", "--yes", "--skip-preview", "--continue-on-error"]);
              output = result.stdout + result.stderr;
              expect(result.code, output).not.toBe(0);
            },
            ids,
          );
          expect(output).toContain(`it is held by Source ${outside.id} ("Outside")`);
          const state = await inState();
          // The good one made, the bad one not; the change --exclude held back goes now.
          expect(writes).toEqual({
            ...noWrites(Object.keys(state)),
            patches: { ...noWrites(Object.keys(state)).patches, excluded: 1 },
            posts: 1,
          });
          expect(state).not.toHaveProperty("bad");
          await expectServing("good", state);
          await expectServing("excluded", state);
          expect((await client.sources.get(outside.id)).attributes.deployment.custom_domains).toEqual(["outside.eo.example"]);
        } finally {
          declare({ ...before, good: { args: webfolder("Good", "eo-good") } });
        }
      },
      STEP_TIMEOUT,
    );

    it(
      "`protect`: a protected Source left out of the program fails the preview, naming the way to unprotect it, with no write",
      async () => {
        const before = declared;
        const { guarded: _guarded, ...rest } = before;
        declare(rest);
        try {
          let output = "";
          const writes = await countWrites(
            server,
            async () => {
              const result = await stack.pulumi(["preview"]);
              output = result.stdout + result.stderr;
              expect(result.code, output).not.toBe(0);
            },
            ids,
          );
          expect(output).toMatch(/cannot be deleted\s+because it is protected/);
          expect(output).toContain(`pulumi state unprotect '${urn("guarded")}'`);
          expect(totalWrites(writes)).toBe(0);
          expect((await inState()).guarded).toBeDefined();
        } finally {
          declare(before);
        }
      },
      STEP_TIMEOUT,
    );

    it(
      "`pulumi state delete` then `up --refresh`: the deleted one's Source is taken back, no duplicate; the refresh sees a rename by hand and the up undoes it",
      async () => {
        const before = await ids();
        const count = sourceCount();
        await client.sources.update(before.renamed!, { name: "Renamed by hand" });
        await stack.ok(["state", "delete", urn("good"), "--yes"]);
        const writes = await up(["--skip-preview", "--refresh"]);
        const state = await inState();
        expect(state.good!.id).toBe(before.good);
        expect(sourceCount()).toBe(count);
        expect(writes.patches.renamed).toBe(1);
        expect(writes.disabled).toEqual([]);
        expectUntouched(writes, ["web", "relabeled", "before", "ignored", "guarded", "imported", "targeted", "excluded"]);
        await expectServing("good", state);
        await expectServing("renamed", state);
        await expectNoChangeAfterRefresh();
      },
      STEP_TIMEOUT,
    );

    it(
      "`up --strict`: the update keeps to the plan its preview made, a create and an update",
      async () => {
        const { targeted, ...rest } = declared;
        declare({
          ...rest,
          targeted: {
            ...targeted!,
            args: { ...targeted!.args, deployment: { ...targeted!.args.deployment, customDomains: ["t.eo.example"] } },
          },
          fresh: { args: webfolder("Fresh", "eo-fresh", ["fresh.eo.example"]) },
        });
        const writes = await up(["--strict"]);
        expect(writes).toEqual({
          ...noWrites(Object.keys(declared)),
          patches: { ...noWrites(Object.keys(declared)).patches, targeted: 1 },
          posts: 1,
        });
        const state = await inState();
        await expectServing("targeted", state);
        await expectServing("fresh", state);
      },
      STEP_TIMEOUT,
    );
  });

  slowStepsSuite(shell);
}

/** What a describe block of the suite works on: a server, a client of its account, a stack of the shell's project. */
interface OnServer {
  server: TestServer;
  client: AssetDeliveryClient;
  stack: YamlStack;
}

/**
 * Before the describe block's tests: a server of `options`, a client and a fresh stack of `project`
 * on it, handed to `start`; after them, all three removed (any may be missing: a start that failed early).
 */
function stackOnServer(shell: Shell, project: string, options: TestServerOptions, start: (made: OnServer) => Promise<void>): void {
  const made: Partial<OnServer> = {};
  beforeAll(async () => {
    made.server = await startTestServer(options);
    made.client = createClient({ baseUrl: made.server.url, apiKey: made.server.adminKey, pacing: false });
    made.stack = await shell.createStack(project, { baseUrl: made.server.url, apiKey: made.server.adminKey });
    await start(made as OnServer);
  }, STEP_TIMEOUT);
  afterAll(async () => {
    await made.stack?.remove();
    await made.client?.close();
    await made.server?.close();
  }, STEP_TIMEOUT);
}

/** A resource name's URN in the stack of `project`. */
function urnIn(project: string, shell: Shell): (name: string) => string {
  return (name) => `urn:pulumi:${STACK}::${project}::${shell.type}::${name}`;
}

/** The Sources of a stack in its exported state: resource name -> id, inputs, outputs and initialization errors. */
async function sourcesInState(
  stack: YamlStack,
  type: string,
): Promise<Record<string, { id: string; inputs: any; outputs: any; initErrors?: string[] }>> {
  const exported = JSON.parse(await stack.exportState()) as {
    deployment: { resources: { urn: string; type: string; id: string; inputs: any; outputs: any; initErrors?: string[] }[] };
  };
  return Object.fromEntries(
    exported.deployment.resources.filter((r) => r.type === type).map((r) => [r.urn.split("::").pop()!, r] as const),
  );
}

/** The state's entries of `urn` in their order: the live one and any left pending delete (`"delete": true`). */
async function entriesOf(stack: YamlStack, urn: string): Promise<{ id: string; delete: boolean }[]> {
  const exported = JSON.parse(await stack.exportState()) as { deployment: { resources: { urn: string; id: string; delete?: boolean }[] } };
  return exported.deployment.resources.filter((r) => r.urn === urn).map((r) => ({ id: r.id, delete: r.delete === true }));
}

/**
 * The steps that need a deployment that takes its time (a minute, on a server of their own):
 * `customTimeouts` bounding the wait, and Ctrl-C (the engine's Cancel) and `pulumi cancel` during a hand-over wait.
 */
function slowStepsSuite(shell: Shell): void {
  let server: TestServer;
  let client: AssetDeliveryClient;
  let stack: YamlStack;
  const project = `options-slow-${shell.native ? "native" : "dynamic"}`;
  const urn = urnIn(project, shell);
  const quick = { waitForDeployment: false };
  const giver = { args: webfolder("Giver", "eo-giver", ["handed.eo.example"], quick) };
  const taker = { args: webfolder("Taker", "eo-taker", [], quick) };
  const ids = async () => Object.fromEntries(Object.entries(await sourcesInState(stack, shell.type)).map(([name, { id }]) => [name, id]));
  const declareSlow = (sources: Record<string, Declared>) => shell.write(stack, sources, urn);
  /** giver hands `handed.eo.example` to taker once slow, which it depends on, is deployed. */
  const handedBehindSlow: Record<string, Declared> = {
    slow: { args: webfolder("Slow", "eo-slow", [], { deploymentTimeoutSeconds: 120 }) },
    giver: {
      args: { ...giver.args, deployment: { ...giver.args.deployment, customDomains: [] } },
      options: { dependsOn: ["slow"] },
    },
    taker: { args: { ...taker.args, deployment: { ...taker.args.deployment, customDomains: ["handed.eo.example"] } } },
  };

  describe(`${shell.label}: options and flags around a deployment that takes a minute`, () => {
    stackOnServer(shell, project, { deployDelayMs: 60_000, deployLagMs: 0 }, async (made) => {
      ({ server, client, stack } = made);
      declareSlow({ giver, taker });
      await stack.ok(["up", "--yes", "--skip-preview"]);
    });

    it(
      "customTimeouts bounds the wait for the deployment, a create's and an update's; the Source written is recorded, its error saying how to go on",
      async () => {
        const timed = (name: string) => ({
          args: webfolder(name, "eo-timed", [], { deploymentTimeoutSeconds: 4 }),
          options: { customTimeouts: { create: "2s", update: "3s" } },
        });
        /** `up`, failing; its output and writes. */
        const failingUp = async () => {
          let output = "";
          const writes = await countWrites(
            server,
            async () => {
              const result = await stack.pulumi(["up", "--yes", "--skip-preview"]);
              output = result.stdout + result.stderr;
              expect(result.code, output).not.toBe(0);
            },
            ids,
          );
          return { output, writes };
        };
        declareSlow({ giver, taker, timed: timed("Timed") });
        const created = await failingUp();
        expect(created.output).toContain("raise deploymentTimeoutSeconds (now 2)");
        expect(created.writes).toEqual({ ...noWrites(["giver", "taker", "timed"]), posts: 1 });
        // The update's own timeout, not the create's.
        declareSlow({ giver, taker, timed: timed("Timed again") });
        const updated = await failingUp();
        expect(updated.output).toContain("raise deploymentTimeoutSeconds (now 3)");
        expect(updated.writes).toEqual({ ...noWrites(["giver", "taker", "timed"]), patches: { giver: 0, taker: 0, timed: 1 } });
        const state = await sourcesInState(stack, shell.type);
        expect(state.timed!.initErrors).toEqual([expect.stringContaining("deploymentTimeoutSeconds")]);
        expect((await client.sources.get(state.timed!.id)).attributes).toMatchObject({ name: "Timed again", enabled: true });
        // Out of the stack, so that the next step's up does not wait for it again.
        await stack.ok(["state", "delete", urn("timed"), "--yes"]);
        shell.write(stack, { giver, taker }, urn);
      },
      STEP_TIMEOUT,
    );

    if (shell.native)
      it(
        "Ctrl-C while a write waits for the change that releases its domain ends the wait at once: nothing is written after it",
        async () => {
          const before = await ids();
          // taker's write waits for giver's release, which waits for slow's deployment (a minute).
          declareSlow(handedBehindSlow);
          server.resetRequestCount();
          const up = stack.start(["up", "--yes", "--skip-preview"]);
          while (server.requestCount("POST", "/api/v1/sources") < 1) await new Promise((resolve) => setTimeout(resolve, 50));
          await new Promise((resolve) => setTimeout(resolve, 1_500)); // slow deploying, taker waiting
          const writes = await countWrites(
            server,
            async () => {
              const interruptedAt = Date.now();
              up.interrupt();
              expect(await up.ended, up.output()).not.toBe(0);
              // The deployment it waits for takes a minute: ending well before shows the wait heard the Cancel.
              expect(Date.now() - interruptedAt, up.output()).toBeLessThan(30_000);
            },
            ids,
          );
          const output = up.output();
          expect(output).toMatch(/Source \(taker\):\n\s+error: cancelled: the engine asked the provider to stop/);
          expect(writes, output).toEqual(noWrites(["slow", "giver", "taker"]));
          const live = async (id: string) => (await client.sources.get(id)).attributes.deployment.custom_domains;
          expect({ giver: await live(before.giver!), taker: await live(before.taker!) }).toEqual({
            giver: ["handed.eo.example"],
            taker: [],
          });
          const state = await sourcesInState(stack, shell.type);
          expect(state.giver!.outputs.deployment.customDomains).toEqual(["handed.eo.example"]);
          expect(state.taker!.outputs.deployment.customDomains ?? []).toEqual([]);
        },
        STEP_TIMEOUT,
      );

    it(
      "`pulumi cancel` while a write waits for the change that releases its domain only removes the stack's lock (a self-managed backend): the update goes on and converges when the wait ends",
      async () => {
        // slow's write (a new origin: on the native plugin a PATCH of the Source the Ctrl-C step
        // made, on the dynamic Source its create) starts a deployment of a minute, which the test
        // holds once answered, and ends after the cancel.
        const { slow } = handedBehindSlow;
        declareSlow({
          ...handedBehindSlow,
          slow: { ...slow!, args: { ...slow!.args, deployment: { ...slow!.args.deployment, webfolderBaseUrl: `${ORIGIN}slow/` } } },
        });
        const slowId = () => (server.db.prepare("SELECT id FROM sources WHERE name = 'Slow'").get() as { id: string } | undefined)?.id;
        /** slow's write answered (the dynamic Source's create, the native plugin's PATCH): its deployment started. */
        const slowWritten = (id: string) =>
          server
            .answered()
            .some(({ method, path }) => `${method} ${path}` === (shell.native ? `PATCH /api/v1/sources/${id}` : "POST /api/v1/sources"));
        const deployedAt = (id: string, at: number) => server.db.prepare("UPDATE sources SET deploy_ready_at = ? WHERE id = ?").run(at, id);
        let cancelled = { code: -1, output: "", writes: [] as string[], updateEnded: true };
        let up: StartedCli | undefined;
        const writes = await countWrites(
          server,
          async () => {
            up = stack.start(["up", "--yes", "--skip-preview"]);
            let ended = false;
            void up.ended.then(() => (ended = true));
            let slowSource: string | undefined;
            while (
              (slowSource = slowId()) === undefined ||
              !slowWritten(slowSource) ||
              !up.output().includes(`${shell.type} taker updating`)
            )
              await new Promise((resolve) => setTimeout(resolve, 50));
            deployedAt(slowSource, Number.MAX_SAFE_INTEGER);
            const cancel = await stack.pulumi(["cancel", "--yes"]);
            cancelled = {
              code: cancel.code,
              output: cancel.stdout + cancel.stderr,
              writes: server.answered().flatMap(({ method, path }) => (method === "GET" ? [] : [`${method} ${path}`])),
              updateEnded: ended,
            };
            deployedAt(slowSource, Date.now());
            expect(await up.ended, up.output()).toBe(0);
          },
          ids,
        );
        const output = up!.output();
        // The cancel succeeds and says so, but only removes the lock: the update, still waiting, had written slow alone.
        expect(cancelled.code, cancelled.output).toBe(0);
        expect(cancelled.output).toContain("The currently running update for 'e2e' has been canceled!");
        expect({ updateEnded: cancelled.updateEnded, writes: cancelled.writes.length }, output).toEqual({ updateEnded: false, writes: 1 });
        // It converged once slow was deployed; at its end it finds its lock gone, says so, and still succeeds.
        expect(output).toMatch(/error: there was a problem deleting the lock at .*, manual clean up may be required/);
        expect(writes, output).toEqual({
          ...noWrites(["slow", "giver", "taker"]),
          patches: { slow: shell.native ? 1 : 0, giver: 1, taker: 1 },
          posts: shell.native ? 0 : 1,
        });
        const state = await sourcesInState(stack, shell.type);
        // The state and the server agree: the domain handed over, slow's new origin, no error left.
        const onServer: Record<string, { customDomains: string[]; origin?: string }> = {};
        const inState: typeof onServer = {};
        for (const [name, recorded] of Object.entries(state)) {
          const live = (await client.sources.get(recorded.id)).attributes.deployment;
          onServer[name] = { customDomains: live.custom_domains, origin: live.type === "webfolder" ? live.webfolder_base_url : undefined };
          inState[name] = {
            customDomains: recorded.outputs.deployment.customDomains ?? [],
            origin: recorded.outputs.deployment.webfolderBaseUrl,
          };
          expect(recorded.initErrors ?? [], name).toEqual([]);
        }
        expect(inState).toEqual(onServer);
        expect(onServer).toEqual({
          slow: { customDomains: [], origin: `${ORIGIN}slow/` },
          giver: { customDomains: [], origin: ORIGIN },
          taker: { customDomains: ["handed.eo.example"], origin: ORIGIN },
        });
      },
      STEP_TIMEOUT,
    );
  });
}
