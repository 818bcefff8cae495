// Host names moving between the native plugin's Sources in one `pulumi up` of a YAML program, by
// the real CLI against a real server (test/support/hand-overs.ts has the rounds): a move, a swap, a
// subdomain handed over and a create taking what an update releases, with `--parallel 1` and then
// the default; a releasing update the server refuses; a name held outside the stack at preview; a
// rename without aliases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type AssetDeliveryClient } from "@asset-delivery/sdk";
import {
  countWrites,
  noWrites,
  createOutsideHolder,
  expectHandOverWrites,
  expectHeldAsDeclared,
  HAND_OVER_PAIRS,
  HAND_OVER_ROUNDS,
  heldOnServer,
  pairsInTurn,
  type SourceArgs,
} from "../support/hand-overs";
import { startTestServer, type TestServer } from "../support/server";
import { yamlStack, type YamlProgram, type YamlStack } from "./yaml-stack";

const STEP_TIMEOUT = 300_000;

/** The YAML program declaring `sources`; with `pairs`, each pair depends on the one before (see HAND_OVER_PAIRS). */
function program(sources: Record<string, SourceArgs>, pairs: string[][] = []): YamlProgram {
  const after = pairsInTurn(pairs);
  return {
    resources: Object.fromEntries(
      Object.entries(sources).map(([name, properties]) => {
        const dependsOn = after[name]?.map((other) => `\${${other}}`);
        return [name, { type: "assetdelivery:index:Source", properties, ...(dependsOn && { options: { dependsOn } }) }];
      }),
    ),
    outputs: Object.fromEntries(Object.keys(sources).map((name) => [name, `\${${name}.id}`])),
  };
}

let server: TestServer;
let client: AssetDeliveryClient;
let stack: YamlStack;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  stack = await yamlStack("hand-over", "e2e", program(HAND_OVER_ROUNDS[0]!), {
    credentials: { baseUrl: server.url, apiKey: server.adminKey },
  });
  await stack.ok(["up", "--yes", "--skip-preview"]);
}, STEP_TIMEOUT);

afterAll(async () => {
  await stack?.remove();
  await client?.close();
  await server?.close();
}, STEP_TIMEOUT);

const ids = async () => (await stack.outputs()) as Record<string, string>;

const held = async () => heldOnServer(client, await ids());

async function expectNoChangeAfter(): Promise<void> {
  const preview = await countWrites(server, () => stack.ok(["preview", "--expect-no-changes"]), ids);
  expect(preview).toEqual(noWrites(Object.keys(await ids())));
}

describe("native plugin: host names moving between Sources in one up", () => {
  it(
    "round 1, one write at a time (--parallel 1): a move, a swap, a subdomain handed over, a create taking a released domain",
    async () => {
      stack.write(program(HAND_OVER_ROUNDS[1]!, HAND_OVER_PAIRS[1]));
      const writes = await countWrites(server, () => stack.ok(["up", "--yes", "--skip-preview", "--parallel", "1"]), ids);
      expectHandOverWrites(writes, 1);
      expectHeldAsDeclared(await held(), 1);
      await expectNoChangeAfter();
    },
    STEP_TIMEOUT,
  );

  it(
    "round 2, at the default parallelism: each back, and another create",
    async () => {
      stack.write(program(HAND_OVER_ROUNDS[2]!));
      const writes = await countWrites(server, () => stack.ok(["up", "--yes", "--skip-preview"]), ids);
      expectHandOverWrites(writes, 2);
      expectHeldAsDeclared(await held(), 2);
      await expectNoChangeAfter();
    },
    STEP_TIMEOUT,
  );

  it(
    "a releasing update the server refuses (its Source disabled by hand) fails the taking one, both named; nothing else is written",
    async () => {
      const before = await ids();
      const { web: webId, shop: shopId } = before;
      await client.sources.update(webId!, { enabled: false });
      const { web, shop, ...rest } = HAND_OVER_ROUNDS[2]!;
      stack.write(
        program(
          {
            ...rest,
            shop: { ...shop!, deployment: { ...shop!.deployment, customDomains: ["img.ho.example"] } },
            web: { ...web!, deployment: { ...web!.deployment, customDomains: [] } },
          },
          // web registered after giver and created1 (unchanged), shop at once: shop's write starts
          // first and waits for web's change, which the engine shows next (otherwise web's refusal
          // could end the run before the engine has shown shop).
          [["giver", "created1"], ["web"]],
        ),
      );
      let output = "";
      const writes = await countWrites(
        server,
        async () => {
          // Both writes at once, in either order: the taking one sends the release itself, or awaits it.
          const result = await stack.pulumi(["up", "--yes", "--skip-preview"]);
          expect(result.code).not.toBe(0);
          output = result.stdout + result.stderr;
        },
        before,
      );
      expect(output).toContain(
        `Source ${shopId} ("Shop") cannot take deployment.custom_domains "img.ho.example": Source ${webId} ("Web") was to release it, and its update failed:`,
      );
      expect(output).toContain("a disabled Source cannot be updated");
      // web's one PATCH, refused; nothing else.
      const refused = noWrites(Object.keys(HAND_OVER_ROUNDS[2]!));
      expect(writes).toEqual({ ...refused, patches: { ...refused.patches, web: 1 } });
      await client.sources.update(webId!, { enabled: true });
      stack.write(program(HAND_OVER_ROUNDS[2]!));
    },
    STEP_TIMEOUT,
  );

  it(
    "a domain held by a Source outside the stack fails the preview, naming the holder, with no write",
    async () => {
      const outside = await createOutsideHolder(client);
      const before = await ids();
      const { shop, ...rest } = HAND_OVER_ROUNDS[2]!;
      stack.write(program({ shop: { ...shop!, deployment: { ...shop!.deployment, customDomains: ["Outside.ho.example"] } }, ...rest }));
      let output = "";
      const writes = await countWrites(
        server,
        async () => {
          const result = await stack.pulumi(["preview"]);
          expect(result.code).not.toBe(0);
          output = result.stdout + result.stderr;
        },
        before,
      );
      expect(output).toContain(
        `cannot take deployment.custom_domains "Outside.ho.example": it is held by Source ${outside.id} ("Outside"), and no change of this run releases it`,
      );
      expect(writes).toEqual(noWrites(Object.keys(before)));
      stack.write(program(HAND_OVER_ROUNDS[2]!));
    },
    STEP_TIMEOUT,
  );

  it(
    "a Source renamed without aliases: the create finds its names held and says to rename with aliases",
    async () => {
      const before = await ids();
      const { created2, ...rest } = HAND_OVER_ROUNDS[2]!;
      stack.write(program({ ...rest, renamed: created2! }));
      const writes = await countWrites(
        server,
        async () => {
          const result = await stack.pulumi(["up", "--yes", "--skip-preview"]);
          expect(result.code).not.toBe(0);
          expect(result.stdout + result.stderr).toContain("If this resource was renamed without aliases");
          expect(result.stdout + result.stderr).toContain(
            `it is held by Source ${before.created2} ("Created 2"), and no change of this run releases it`,
          );
        },
        before,
      );
      expect(writes).toEqual(noWrites(Object.keys(before)));
      stack.write(program(HAND_OVER_ROUNDS[2]!));
      await expectNoChangeAfter();
    },
    STEP_TIMEOUT,
  );
});
