// Host names moving between dynamic `Source`s in one `pulumi up` of a TypeScript program, by the
// real CLI (the Automation API) against a real server (test/support/hand-overs.ts has the rounds):
// a move, a swap, a subdomain handed over and a create taking what an update releases, with
// `--parallel 1` and then the default; a releasing update the server refuses; a name held outside
// the stack.
import * as path from "node:path";
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
} from "../../support/hand-overs";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../../support/program-stack";
import { startTestServer, type TestServer } from "../../support/server";

const STEP_TIMEOUT = 300_000;

let server: TestServer;
let client: AssetDeliveryClient;
let program: ProgramStack;

/** Declares `sources`; with `pairs`, each pair after the one before (see HAND_OVER_PAIRS). */
const declare = (sources: Record<string, SourceArgs>, pairs: string[][] = []) => program.set({ sources, dependsOn: pairsInTurn(pairs) });

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  client = createClient({ baseUrl: server.url, apiKey: server.adminKey, pacing: false });
  program = await programStack(path.join(TEST_PROGRAMS, "sources"), "hand-over", { baseUrl: server.url, apiKey: server.adminKey });
  await declare(HAND_OVER_ROUNDS[0]!);
  await program.stack.up();
}, STEP_TIMEOUT);

afterAll(() => removeStacksAndServer({ stacks: [program], client, server }));

const ids = async () => (await program.stack.outputs()).ids!.value as Record<string, string>;

const held = async () => heldOnServer(client, await ids());

async function expectNoChangeAfter(): Promise<void> {
  const preview = await countWrites(server, () => program.stack.preview({ expectNoChanges: true }), ids);
  expect(preview).toEqual(noWrites(Object.keys(await ids())));
}

/** The error of an `up` expected to fail: its output. */
async function failedUp(options: { parallel?: number } = {}): Promise<string> {
  const error = await program.stack.up(options).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(Error);
  return String((error as Error).message);
}

describe("dynamic Source: host names moving between Sources in one up", () => {
  it(
    "round 1, one write at a time (--parallel 1): a move, a swap, a subdomain handed over, a create taking a released domain",
    async () => {
      await declare(HAND_OVER_ROUNDS[1]!, HAND_OVER_PAIRS[1]);
      const writes = await countWrites(server, () => program.stack.up({ parallel: 1 }), ids);
      expectHandOverWrites(writes, 1);
      expectHeldAsDeclared(await held(), 1);
      await expectNoChangeAfter();
    },
    STEP_TIMEOUT,
  );

  it(
    "round 2, at the default parallelism: each back, and another create",
    async () => {
      await declare(HAND_OVER_ROUNDS[2]!);
      const writes = await countWrites(server, () => program.stack.up(), ids);
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
      await client.sources.update(before.web!, { enabled: false });
      const { web, shop, ...rest } = HAND_OVER_ROUNDS[2]!;
      await declare(
        {
          ...rest,
          shop: { ...shop!, deployment: { ...shop!.deployment, customDomains: ["img.ho.example"] } },
          web: { ...web!, deployment: { ...web!.deployment, customDomains: [] } },
        },
        // web registered after giver and created1 (unchanged), shop at once: shop's write starts
        // first and waits for web's change, which the engine shows next (otherwise web's refusal
        // could end the run before the engine has shown shop).
        [["giver", "created1"], ["web"]],
      );
      let output = "";
      const writes = await countWrites(server, async () => (output = await failedUp()), before);
      expect(output).toContain(
        `Source ${before.shop} ("Shop") cannot take deployment.custom_domains "img.ho.example": Source ${before.web} ("Web") was to release it, and its update failed:`,
      );
      expect(output).toContain("a disabled Source cannot be updated");
      const refused = noWrites(Object.keys(before));
      expect(writes).toEqual({ ...refused, patches: { ...refused.patches, web: 1 } });
      await client.sources.update(before.web!, { enabled: true });
      await declare(HAND_OVER_ROUNDS[2]!);
    },
    STEP_TIMEOUT,
  );

  it(
    "a domain held by a Source outside the stack: the up fails before any write, naming the holder",
    async () => {
      const outside = await createOutsideHolder(client);
      const before = await ids();
      const { shop, ...rest } = HAND_OVER_ROUNDS[2]!;
      await declare({ shop: { ...shop!, deployment: { ...shop!.deployment, customDomains: ["Outside.ho.example"] } }, ...rest });
      const heldBy = `it is held by Source ${outside.id} ("Outside"), and no change of this run releases it`;
      // The preview warns as the engine ends the provider: the dynamic host asks for no preview write to fail.
      let warned = "";
      const preview = await countWrites(server, async () => (warned = (await program.stack.preview()).stdout), before);
      expect(warned).toContain(`"Outside.ho.example": ${heldBy}: this update will refuse it`);
      expect(preview).toEqual(noWrites(Object.keys(before)));
      let output = "";
      const writes = await countWrites(server, async () => (output = await failedUp()), before);
      expect(output).toContain(`Source ${before.shop} ("Shop") cannot take deployment.custom_domains "Outside.ho.example": ${heldBy}`);
      expect(writes).toEqual(noWrites(Object.keys(before)));
      await declare(HAND_OVER_ROUNDS[2]!);
      await expectNoChangeAfter();
    },
    STEP_TIMEOUT,
  );
});
