// The host names handed over between Sources in one `pulumi up`, as the end-to-end tests of both
// shells run them (test/plugin/hand-over.test.ts, test/provider/e2e/hand-over.test.ts): the same
// declarations (a Source's arguments in the resource's names, which a YAML program and the
// dynamic `Source` share), and the writes the server answered, on every Source it holds (the stack's or not) and its purges.
import { expect } from "vitest";
import type { AssetDeliveryClient, Source } from "@asset-delivery/sdk";
import type { TestServer } from "./server";

const ORIGIN = "https://origin.example.com/images/";

export interface SourceArgs {
  name: string;
  deployment: { type: "webfolder"; webfolderBaseUrl: string; serviceSubdomains: string[]; customDomains: string[] };
}

function source(name: string, serviceSubdomains: string[], customDomains: string[] = []): SourceArgs {
  return { name, deployment: { type: "webfolder", webfolderBaseUrl: ORIGIN, serviceSubdomains, customDomains } };
}

/**
 * The stacks of three `up`s, each a resource name -> arguments, in declaration order: every
 * Source that takes a name declared before the one that gives it (rounds 1 and 2 alike), the order
 * in which the engine, one write at a time, meets the take first.
 * - move: `img.ho.example` from web to shop, and back;
 * - swap: swapA and swapB exchange their custom domains (a cycle), and back;
 * - hand-over: the service subdomain `ho-moving` from subFrom to subTo, and back;
 * - create: a new Source takes a domain that an update of giver releases (created1, then created2).
 */
export const HAND_OVER_ROUNDS: Record<string, SourceArgs>[] = [
  {
    shop: source("Shop", ["ho-shop"]),
    web: source("Web", ["ho-web"], ["img.ho.example"]),
    swapA: source("Swap A", ["ho-a"], ["a.ho.example"]),
    swapB: source("Swap B", ["ho-b"], ["b.ho.example"]),
    subTo: source("Sub To", ["ho-to"]),
    subFrom: source("Sub From", ["ho-from", "ho-moving"]),
    giver: source("Giver", ["ho-giver"], ["new1.ho.example", "new2.ho.example"]),
  },
  {
    shop: source("Shop", ["ho-shop"], ["img.ho.example"]),
    web: source("Web", ["ho-web"]),
    swapA: source("Swap A", ["ho-a"], ["b.ho.example"]),
    swapB: source("Swap B", ["ho-b"], ["a.ho.example"]),
    subTo: source("Sub To", ["ho-to", "ho-moving"]),
    subFrom: source("Sub From", ["ho-from"]),
    created1: source("Created 1", ["ho-created1"], ["new1.ho.example"]),
    giver: source("Giver", ["ho-giver"], ["new2.ho.example"]),
  },
  {
    web: source("Web", ["ho-web"], ["img.ho.example"]),
    shop: source("Shop", ["ho-shop"]),
    swapB: source("Swap B", ["ho-b"], ["b.ho.example"]),
    swapA: source("Swap A", ["ho-a"], ["a.ho.example"]),
    subFrom: source("Sub From", ["ho-from", "ho-moving"]),
    subTo: source("Sub To", ["ho-to"]),
    created1: source("Created 1", ["ho-created1"], ["new1.ho.example"]),
    created2: source("Created 2", ["ho-created2"], ["new2.ho.example"]),
    giver: source("Giver", ["ho-giver"]),
  },
];

/**
 * Rounds 1 and 2 as pairs: each Source that takes a name with the one that gives it (round 2's
 * unchanged created1 apart). With `--parallel 1` the engine shows a resource's diff only once its
 * one worker is free for the resource's step (the step executor takes one step at a time), so a
 * taker's write sees only the diffs the engine made before it and the one right after: a test of
 * one write at a time runs each pair after the one before (dependsOn), in whichever order the
 * engine gets the pair's two (docs/provider.md, "Moving domains between Sources").
 */
export const HAND_OVER_PAIRS: Record<1 | 2, [string, string][]> = {
  1: [
    ["shop", "web"],
    ["swapA", "swapB"],
    ["subTo", "subFrom"],
    ["created1", "giver"],
  ],
  2: [
    ["web", "shop"],
    ["swapB", "swapA"],
    ["subFrom", "subTo"],
    ["created2", "giver"],
  ],
};

/** Each Source of `groups` after every one of the group before: resource name -> the names it depends on. */
export function pairsInTurn(groups: string[][]): Record<string, string[]> {
  return Object.fromEntries(groups.flatMap((group, i) => (i === 0 ? [] : group.map((name) => [name, groups[i - 1]!]))));
}

/**
 * The writes a step sent, as the server answered them (refused ones too), on every Source of the
 * server and beyond: a wrongful write to a Source outside the stack is as visible as one inside.
 */
export interface Writes {
  /** PATCHes per Source: each of the step's `ids` by resource name (0 when none), any other as `Name (id)`. */
  patches: Record<string, number>;
  /** Creates (POST /api/v1/sources). */
  posts: number;
  /** Purges (POST /api/v1/purge). */
  purges: number;
  /** The Sources a PATCH turned off (`enabled: false`), named as in `patches`, once per such PATCH. */
  disabled: string[];
  /** Any other write, as "METHOD path": a provider sends none. */
  others: string[];
}

/** No write at all, with `names` (the step's resource names) at 0 PATCHes: what a step that must write nothing expects. */
export function noWrites(names: readonly string[]): Writes {
  return { patches: Object.fromEntries(names.map((name) => [name, 0])), posts: 0, purges: 0, disabled: [], others: [] };
}

const SOURCE_PATH = /^\/api\/v1\/sources\/([^/]+)$/;

/**
 * Runs `step` and counts every write the server answered meanwhile: `ids` (resource name -> id),
 * as given or read after the step (a successful `up` creates some), name the stack's Sources; any
 * other Source written is named by the server's record.
 */
export async function countWrites(
  server: TestServer,
  step: () => Promise<unknown>,
  ids: Record<string, string> | (() => Promise<Record<string, string>>),
): Promise<Writes> {
  server.resetRequestCount();
  await step();
  const byName = typeof ids === "function" ? await ids() : ids;
  const nameOf = new Map(Object.entries(byName).map(([name, id]) => [id, name]));
  const labelOf = (id: string) => {
    const record = server.db.prepare("SELECT name FROM sources WHERE id = ?").get(id) as { name: string } | undefined;
    return nameOf.get(id) ?? `${record?.name ?? "no such Source"} (${id})`;
  };
  const writes = noWrites(Object.keys(byName));
  for (const { method, path, body } of server.answered()) {
    if (method === "GET" || method === "HEAD") continue;
    const id = method === "PATCH" ? SOURCE_PATH.exec(path)?.[1] : undefined;
    if (id !== undefined) {
      const label = labelOf(id);
      writes.patches[label] = (writes.patches[label] ?? 0) + 1;
      if ((body as { data?: { attributes?: { enabled?: unknown } } } | undefined)?.data?.attributes?.enabled === false)
        writes.disabled.push(label);
    } else if (method === "POST" && path === "/api/v1/sources") writes.posts++;
    else if (method === "POST" && path === "/api/v1/purge") writes.purges++;
    else writes.others.push(`${method} ${path}`);
  }
  return writes;
}

/** How many writes of any kind `writes` holds. */
export function totalWrites({ patches, posts, purges, others }: Writes): number {
  return Object.values(patches).reduce((a, b) => a + b, 0) + posts + purges + others.length;
}

/**
 * Rounds 1 and 2: each moved name's giver and taker got one PATCH, the swap three between its two
 * Sources (the planned two and one release-only PATCH: at most two for either), the new Source one
 * POST and no PATCH, every other Source (of the stack or not) nothing, and nothing was purged or turned off.
 */
export function expectHandOverWrites({ patches, posts, purges, disabled, others }: Writes, round: 1 | 2): void {
  const created = round === 1 ? "created1" : "created2";
  expect({ posts, purges, disabled, others }).toEqual({ posts: 1, purges: 0, disabled: [], others: [] });
  expect({ ...patches, swapA: undefined, swapB: undefined }).toEqual({
    shop: 1,
    web: 1,
    swapA: undefined,
    swapB: undefined,
    subTo: 1,
    subFrom: 1,
    giver: 1,
    [created]: 0,
    ...(round === 2 && { created1: 0 }),
  });
  expect(patches.swapA! + patches.swapB!).toBe(3);
  expect(Math.max(patches.swapA!, patches.swapB!)).toBe(2);
}

/** The host names a Source holds on the server, in the resource's names. */
export interface Held {
  serviceSubdomains: string[];
  customDomains: string[];
}

/** What each of `ids`' Sources (resource name -> id) holds on the server. */
export async function heldOnServer(client: AssetDeliveryClient, ids: Record<string, string>): Promise<Record<string, Held>> {
  const entries = await Promise.all(
    Object.entries(ids).map(async ([name, id]) => {
      const { deployment } = (await client.sources.get(id)).attributes;
      return [name, { serviceSubdomains: deployment.service_subdomains, customDomains: deployment.custom_domains }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** A Source made by hand, outside the stack, holding `outside.ho.example`. */
export function createOutsideHolder(client: AssetDeliveryClient): Promise<Source> {
  return client.sources.create({
    name: "Outside",
    deployment: {
      type: "webfolder",
      service_subdomains: ["ho-outside"],
      custom_domains: ["outside.ho.example"],
      webfolder_base_url: "https://origin.example.com/outside/",
    },
  });
}

/** Who holds each name on the server after a round: the declared Source of each. */
export function expectHeldAsDeclared(held: Record<string, Held>, round: number): void {
  const declared = HAND_OVER_ROUNDS[round]!;
  expect(held).toEqual(
    Object.fromEntries(
      Object.entries(declared).map(([name, args]) => [
        name,
        { serviceSubdomains: args.deployment.serviceSubdomains, customDomains: args.deployment.customDomains },
      ]),
    ),
  );
}
