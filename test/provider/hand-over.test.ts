// Host names handed over between the Sources of one run, without a server: the plan's order
// (release before take, cycles of 2 and 3 broken by one release-only PATCH, a failed release named)
// and the coordinator driving it in any engine order, against an in-memory account that refuses a
// name still held, as the API does.
import { describe, expect, it, vi } from "vitest";
import { HandOverError, HandOvers } from "../../provider/src/core/hand-over/coordinator";
import { refusalMessage } from "../../provider/src/core/hand-over/messages";
import {
  handOverOf,
  hostnameId,
  hostnamesOf,
  planFor,
  releaseOnlyDeployment,
  type ChangeFacts,
  type Holder,
  type HostnameLists,
  type Plan,
  type Step,
} from "../../provider/src/core/hand-over/plan";
import { RunHandOvers } from "../../provider/src/core/hand-over/run-hand-overs";
import { RunReplacements } from "../../provider/src/core/run-replacements";
import { CancelledError } from "../../provider/src/core/cancellation";
import { PULUMI_INSTRUCTIONS } from "../../provider/src/pulumi-names/instructions";
import { annotationWithMark, createdInScope } from "../../provider/src/core/create-mark";
import { withOrderHint } from "../../provider/src/engine/rename-hint";
import { sourceOutputs, type SourceInputs, type SourceState } from "../../provider/src/core/codec";
import { SourceNotReadyError } from "../../provider/src/core/lifecycle/settle";
import { updateSource } from "../../provider/src/core/lifecycle/update";
import type { DeploymentInput, Source } from "@asset-delivery/sdk";
import { checkedSource } from "../support/checked-source";
import type { Session } from "../../provider/src/core/session";
import { sourceResource, WEBFOLDER } from "../support/api-documents";

type Lists = { service_subdomains: string[]; custom_domains: string[] };
const lists = (subdomains: string[], domains: string[] = []): Lists => ({ service_subdomains: subdomains, custom_domains: domains });

/** A change of Source `id` from `before` to `after`, as the coordinator keeps it. */
function change(id: string, before: Lists, after: Lists, enabled = true): ChangeFacts & { id: string } {
  const { releases, takes } = handOverOf(before, after);
  return {
    id,
    name: `name-${id}`,
    creates: false,
    releases,
    takes,
    declares: new Set(hostnamesOf(after).keys()),
    canReleaseFirst: enabled && releases.length > 0 && takes.length > 0 && releaseOnlyDeployment(after, takes) !== undefined,
    progress: {},
  };
}

function create(name: string, after: Lists): ChangeFacts {
  return {
    name,
    creates: true,
    releases: [],
    takes: [...hostnamesOf(after).values()],
    declares: new Set(hostnamesOf(after).keys()),
    canReleaseFirst: false,
    progress: {},
  };
}

function holders(byId: Record<string, Lists>, disabled: string[] = []): Map<string, Holder> {
  const map = new Map<string, Holder>();
  for (const [id, held] of Object.entries(byId))
    for (const key of hostnamesOf(held).keys()) map.set(key, { id, name: `name-${id}`, enabled: !disabled.includes(id) });
  return map;
}

const stepsOf = (steps: Step[]) => steps.map((step) => `${step.kind}:${step.change.id}`);

describe("hostnames", () => {
  it("compares names as the API does (case-insensitively), per field", () => {
    expect(hostnameId({ field: "custom_domains", name: "Img.Team.Example" })).toBe(
      hostnameId({ field: "custom_domains", name: "img.team.example" }),
    );
    expect(handOverOf(lists(["a"], ["IMG.example"]), lists(["a"], ["img.example"]))).toEqual({ releases: [], takes: [] });
    expect(hostnameId({ field: "custom_domains", name: "a" })).not.toBe(hostnameId({ field: "service_subdomains", name: "a" }));
  });

  it("a release-only deployment keeps what is not taken, and needs a service subdomain left", () => {
    const declared = { type: "webproxy", ...lists(["b", "keep"], ["x.example"]) };
    expect(releaseOnlyDeployment(declared, [{ field: "service_subdomains", name: "B" }])).toEqual({
      type: "webproxy",
      ...lists(["keep"], ["x.example"]),
    });
    expect(releaseOnlyDeployment(lists(["b"]) as HostnameLists, [{ field: "service_subdomains", name: "b" }])).toBeUndefined();
  });
});

describe("planFor", () => {
  it("sends the release before the take: a move waits for nothing but the releasing change", () => {
    const web = change("web", lists(["web"], ["img.example"]), lists(["web"]));
    const shop = change("shop", lists(["shop"]), lists(["shop"], ["img.example"]));
    const held = holders({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
    expect(stepsOf((planFor(shop, [web, shop], held) as { steps: Step[] }).steps)).toEqual(["change:web"]);
    expect(planFor(web, [web, shop], held)).toEqual({ kind: "ready", steps: [] });
  });

  it("a create taking what an update releases goes after the update", () => {
    const web = change("web", lists(["web", "img"]), lists(["web"]));
    const fresh = create("new", lists(["img"]));
    expect(stepsOf((planFor(fresh, [web], holders({ web: lists(["web", "img"]) })) as { steps: Step[] }).steps)).toEqual(["change:web"]);
  });

  it("orders a chain: the release the releaser itself waits for comes first", () => {
    const a = change("a", lists(["a"]), lists(["a", "b1"]));
    const b = change("b", lists(["b", "b1"]), lists(["b", "c1"]));
    const c = change("c", lists(["c", "c1"]), lists(["c"]));
    const held = holders({ a: lists(["a"]), b: lists(["b", "b1"]), c: lists(["c", "c1"]) });
    expect(stepsOf((planFor(a, [a, b, c], held) as { steps: Step[] }).steps)).toEqual(["change:c", "change:b"]);
  });

  it("breaks a swap (a cycle of 2) by the running write's release-only part first", () => {
    const a = change("a", lists(["a", "x"]), lists(["a", "y"]));
    const b = change("b", lists(["b", "y"]), lists(["b", "x"]));
    const held = holders({ a: lists(["a", "x"]), b: lists(["b", "y"]) });
    expect(stepsOf((planFor(a, [a, b], held) as { steps: Step[] }).steps)).toEqual(["release-first:a", "change:b"]);
    expect(stepsOf((planFor(b, [a, b], held) as { steps: Step[] }).steps)).toEqual(["release-first:b", "change:a"]);
  });

  it("breaks a cycle of 3 with one release-only part", () => {
    const a = change("a", lists(["a", "x"]), lists(["a", "y"]));
    const b = change("b", lists(["b", "y"]), lists(["b", "z"]));
    const c = change("c", lists(["c", "z"]), lists(["c", "x"]));
    const held = holders({ a: lists(["a", "x"]), b: lists(["b", "y"]), c: lists(["c", "z"]) });
    expect(stepsOf((planFor(a, [a, b, c], held) as { steps: Step[] }).steps)).toEqual(["release-first:a", "change:c", "change:b"]);
  });

  it("picks another member when the running one cannot release first (its only subdomain moves)", () => {
    const a = change("a", lists(["x"]), lists(["y"]));
    const b = change("b", lists(["b", "y"]), lists(["b", "x"]));
    const held = holders({ a: lists(["x"]), b: lists(["b", "y"]) });
    expect(stepsOf((planFor(a, [a, b], held) as { steps: Step[] }).steps)).toEqual(["release-first:b"]);
  });

  it("refuses a swap of two only subdomains, naming both Sources", () => {
    const a = change("a", lists(["x"]), lists(["y"]));
    const b = change("b", lists(["y"]), lists(["x"]));
    const plan = planFor(a, [a, b], holders({ a: lists(["x"]), b: lists(["y"]) }));
    expect(plan.kind).toBe("refused");
    const message = refusalMessage((plan as Extract<Plan, { kind: "refused" }>).refusals[0]!, a);
    expect(message).toContain('Source a ("name-a")');
    expect(message).toContain('Source b ("name-b")');
  });

  it("a failed release refuses the take, naming the releaser, the name and its error", () => {
    const web = change("web", lists(["web"], ["img.example"]), lists(["web"]));
    web.progress.failed = new Error("PATCH 403: the Source is disabled");
    const shop = change("shop", lists(["shop"]), lists(["shop"], ["img.example"]));
    const plan = planFor(shop, [web, shop], holders({ web: lists(["web"], ["img.example"]) }));
    expect(plan.kind).toBe("refused");
    const message = refusalMessage((plan as Extract<Plan, { kind: "refused" }>).refusals[0]!, shop);
    expect(message).toBe(
      'Source shop ("name-shop") cannot take deployment.custom_domains "img.example": Source web ("name-web") was to release it, and its update failed: PATCH 403: the Source is disabled',
    );
  });

  it("a name held by a Source whose change keeps it is refused; one whose change is not shown yet is a wait", () => {
    const shop = change("shop", lists(["shop"]), lists(["shop"], ["img.example"]));
    const kept = change("web", lists(["web"], ["img.example"]), lists(["web"], ["img.example"]));
    const held = holders({ web: lists(["web"], ["img.example"]) });
    expect(planFor(shop, [kept, shop], held).kind).toBe("refused");
    expect(planFor(shop, [shop], held)).toMatchObject({
      kind: "wait",
      waits: [{ holder: { id: "web" }, hostname: { name: "img.example" } }],
    });
  });

  it("a create goes when it takes the holder over (the Source its interrupted create left: lifecycle/create.ts decides)", () => {
    const held = holders({ left: lists(["img"]) });
    const fresh = create("new", lists(["img"]));
    expect(planFor(fresh, [], held).kind).toBe("wait");
    expect(planFor({ ...fresh, isOwn: (holder) => holder.id === "left" }, [], held)).toEqual({ kind: "ready", steps: [] });
  });

  it("a create takes over one Source holding every held name it declares, as the create does after a refused POST (lifecycle/adopt.ts): names on two Sources, retired or its own, are a wait", () => {
    const twoRetired = holders({ old: lists(["img"]), older: lists(["cdn"]) }, ["old", "older"]);
    expect(planFor(create("new", lists(["img", "cdn"])), [], twoRetired)).toMatchObject({
      kind: "wait",
      waits: [{ holder: { id: "old" } }, { holder: { id: "older" } }],
    });
    const markedAndRetired = holders({ left: lists(["img"]), old: lists(["cdn"]) }, ["old"]);
    const ours = { ...create("new", lists(["img", "cdn"])), isOwn: (holder: Holder) => holder.id === "left" };
    expect(planFor(ours, [], markedAndRetired).kind).toBe("wait");
    // The second Source's name released by a change of the run: the one left holding is taken over.
    const releasing = change("old", lists(["cdn"]), lists(["old"]));
    expect(planFor(ours, [releasing], markedAndRetired)).toEqual({ kind: "ready", steps: [{ kind: "change", change: releasing }] });
  });

  it("a create reclaims a retired holder; an update does not", () => {
    const held = holders({ old: lists(["img"]) }, ["old"]);
    expect(planFor(create("new", lists(["img"])), [], held)).toEqual({ kind: "ready", steps: [] });
    expect(planFor(change("b", lists(["b"]), lists(["b", "img"])), [], held).kind).toBe("wait");
  });
});

/**
 * The names a deployment holds as the API tells them apart: per field, case-insensitively. Written
 * here from the API's rule, not with hostnamesOf: the account must not share the code it tests.
 */
const namesOf = (held: Lists) => [
  ...held.service_subdomains.map((name) => `subdomain ${name.toLowerCase()}`),
  ...held.custom_domains.map((name) => `domain ${name.toLowerCase()}`),
];

/** An account in memory: each PATCH or create refused (as the API does) while another Source holds a name it declares. */
function memoryAccount(initial: Record<string, Lists>) {
  const sources = new Map(Object.entries(initial).map(([id, held]) => [id, structuredClone(held)]));
  const writes: string[] = [];
  const refusedFor = new Set<string>();
  function write(id: string, declared: Lists): void {
    if (refusedFor.has(id)) throw new Error(`the Source ${id} is disabled`);
    for (const [other, held] of sources) {
      if (other === id) continue;
      const clash = namesOf(declared).find((name) => namesOf(held).includes(name));
      if (clash) throw new Error(`${clash} is already used by another Source (${other})`);
    }
    sources.set(id, structuredClone(declared));
    writes.push(id);
  }
  const listSources = async () =>
    [...sources].map(([id, held]) => sourceResource({ id, name: `name-${id}`, deployment: { ...WEBFOLDER, ...held } }));
  return { sources, writes, refusedFor, write, listSources };
}

/** One run: the updates `from -> to`, declared (the engine's diffs) and written in the given orders. */
function run(account: ReturnType<typeof memoryAccount>, updates: Record<string, Lists>, options: { quietMs?: number } = {}) {
  const handOvers = new HandOvers<void>({ listSources: account.listSources, quietMs: options.quietMs ?? 200 });
  const declare = (id: string) => {
    const before = account.sources.get(id)!;
    const facts = change(id, before, updates[id]!);
    handOvers.declare(facts, {
      change: async () => account.write(id, updates[id]!),
      ...(facts.canReleaseFirst && { releaseFirst: async () => account.write(id, releaseOnlyDeployment(updates[id]!, facts.takes)!) }),
    });
  };
  // The engine's checks list who holds what (a write lists nothing itself).
  const checked = () => handOvers.refusalsNow(create("probe", lists(["probe"])));
  return { handOvers, declare, checked, update: (id: string) => handOvers.update(id) };
}

describe("HandOvers", () => {
  const swap = { a: lists(["a"], ["y.example"]), b: lists(["b"], ["x.example"]) };
  const before = { a: lists(["a"], ["x.example"]), b: lists(["b"], ["y.example"]) };

  it("a move in the bad order, one write at a time (--parallel 1): the taking write sends the release itself, each Source written once", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
    const { declare, checked, update } = run(account, { web: lists(["web"]), shop: lists(["shop"], ["img.example"]) });
    await checked();
    declare("shop");
    const shop = update("shop"); // before web's diff has come
    declare("web");
    await shop;
    await update("web"); // the engine's own update of web, after: what was sent
    expect(account.writes).toEqual(["web", "shop"]);
    expect(account.sources.get("shop")).toEqual(lists(["shop"], ["img.example"]));
  });

  it("a move of a name written in another case is a move (the API compares names case-insensitively): the release goes first", async () => {
    const account = memoryAccount({ web: lists(["web"], ["IMG.example"]), shop: lists(["shop"]) });
    const { declare, checked, update } = run(account, { web: lists(["web"]), shop: lists(["shop"], ["img.example"]) });
    await checked();
    declare("shop");
    const shop = update("shop");
    declare("web");
    await shop;
    await update("web");
    expect(account.writes).toEqual(["web", "shop"]);
  });

  it.each([
    ["a first, one at a time", async (u: (id: string) => Promise<void>) => (await u("a"), await u("b"))],
    ["b first, one at a time", async (u: (id: string) => Promise<void>) => (await u("b"), await u("a"))],
    ["both at once", async (u: (id: string) => Promise<void>) => void (await Promise.all([u("a"), u("b")]))],
  ])("a swap, %s: converges with one release-only PATCH", async (_, order) => {
    const account = memoryAccount(before);
    const { declare, update } = run(account, swap);
    declare("a");
    declare("b");
    await order(update);
    expect(Object.fromEntries(account.sources)).toEqual(swap);
    expect(account.writes).toHaveLength(3); // the planned 2, and one release-only
  });

  it("a cycle of 3, all at once: 4 writes", async () => {
    const account = memoryAccount({ a: lists(["a", "x"]), b: lists(["b", "y"]), c: lists(["c", "z"]) });
    const after = { a: lists(["a", "y"]), b: lists(["b", "z"]), c: lists(["c", "x"]) };
    const { declare, update } = run(account, after);
    for (const id of ["a", "b", "c"]) declare(id);
    await Promise.all(["c", "a", "b"].map(update));
    expect(Object.fromEntries(account.sources)).toEqual(after);
    expect(account.writes).toHaveLength(4);
  });

  /** Two cycles in one run: a swap of a and b, and a cycle of 3 (c, d, e). */
  const twoCycles = {
    before: { a: lists(["a", "x"]), b: lists(["b", "y"]), c: lists(["c", "p"]), d: lists(["d", "q"]), e: lists(["e", "r"]) },
    after: { a: lists(["a", "y"]), b: lists(["b", "x"]), c: lists(["c", "q"]), d: lists(["d", "r"]), e: lists(["e", "p"]) },
  };
  const permutations = (ids: string[]): string[][] =>
    ids.length <= 1 ? [ids] : ids.flatMap((id) => permutations(ids.filter((other) => other !== id)).map((rest) => [id, ...rest]));

  it("sends each Source's release-only PATCH at most once a run: two cycles at once, in every write order, each write declaring its change again", async () => {
    for (const order of permutations(Object.keys(twoCycles.after))) {
      for (const together of [true, false]) {
        const account = memoryAccount(twoCycles.before);
        const handOvers = new HandOvers<void>({ listSources: account.listSources, quietMs: 200 });
        const releases: string[] = [];
        const declare = (id: string) => {
          const after = twoCycles.after[id as keyof typeof twoCycles.after];
          const facts = change(id, twoCycles.before[id as keyof typeof twoCycles.before], after);
          handOvers.declare(facts, {
            change: async () => account.write(id, after),
            releaseFirst: async () => (releases.push(id), account.write(id, releaseOnlyDeployment(after, facts.takes)!)),
          });
        };
        for (const id of order) declare(id);
        // The engine's Update of a Source declares its change again (RunHandOvers.update): the same change, kept.
        const update = (id: string) => (declare(id), handOvers.update(id));
        if (together) await Promise.all(order.map(update));
        else for (const id of order) await update(id);
        expect(Object.fromEntries(account.sources)).toEqual(twoCycles.after);
        expect(new Set(releases).size, `${order.join()} ${together ? "at once" : "one at a time"}`).toBe(releases.length);
        expect(releases, `${order.join()} ${together ? "at once" : "one at a time"}`).toHaveLength(2); // one per cycle
        expect(account.writes).toHaveLength(7);
      }
    }
  });

  it("a write taking from two cycles starts both releases at once: a write of either cycle planning meanwhile breaks it no second time", async () => {
    // t takes t1 from x (x and y swap) and t2 from z (z and w swap).
    const before = { t: lists(["t"]), x: lists(["x", "t1", "a"]), y: lists(["y", "b"]), z: lists(["z", "t2", "c"]), w: lists(["w", "d"]) };
    const after = { t: lists(["t", "t1", "t2"]), x: lists(["x", "b"]), y: lists(["y", "a"]), z: lists(["z", "d"]), w: lists(["w", "c"]) };
    for (const order of permutations(Object.keys(after))) {
      const account = memoryAccount(before);
      const handOvers = new HandOvers<void>({ listSources: account.listSources, quietMs: 200 });
      const releases: string[] = [];
      for (const id of order) {
        const declared = after[id as keyof typeof after];
        const facts = change(id, before[id as keyof typeof before], declared);
        handOvers.declare(facts, {
          change: async () => account.write(id, declared),
          releaseFirst: async () => (releases.push(id), account.write(id, releaseOnlyDeployment(declared, facts.takes)!)),
        });
      }
      await Promise.all(order.map((id) => handOvers.update(id)));
      expect(Object.fromEntries(account.sources)).toEqual(after);
      expect(releases, order.join()).toHaveLength(2); // one per cycle
    }
  });

  it("a preview's write estimate counts one release-only PATCH per cycle, none for a move, and sends nothing", async () => {
    const account = memoryAccount({ ...twoCycles.before, web: lists(["web", "img"]), shop: lists(["shop"]) });
    const { handOvers, declare } = run(account, { ...twoCycles.after, web: lists(["web"]), shop: lists(["shop", "img"]) });
    expect(handOvers.releasesFirstPlanned()).toBe(0);
    for (const id of ["shop", "web", ...Object.keys(twoCycles.after)]) declare(id);
    expect(handOvers.releasesFirstPlanned()).toBe(2);
    expect(handOvers.releasesFirstPlanned()).toBe(2); // planned on copies: nothing marked sent
    expect(account.writes).toEqual([]);
  });

  it("a create taking what an update releases waits for it", async () => {
    const account = memoryAccount({ web: lists(["web", "img"]) });
    const { handOvers, declare, update } = run(account, { web: lists(["web"]) });
    declare("web");
    const created = handOvers.create(create("new", lists(["img"])), async () => account.write("new", lists(["img"])));
    await Promise.all([created, update("web")]);
    expect(account.writes).toEqual(["web", "new"]);
  });

  it("a failed release fails the waiting write, naming the other Source, the name and its error; nothing else is written", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
    account.refusedFor.add("web");
    const { declare, update } = run(account, { web: lists(["web"]), shop: lists(["shop"], ["img.example"]) });
    declare("web");
    declare("shop");
    const [shop, web] = await Promise.allSettled([update("shop"), update("web")]);
    expect((shop as PromiseRejectedResult).reason).toBeInstanceOf(HandOverError);
    expect(String((shop as PromiseRejectedResult).reason.message)).toBe(
      'Source shop ("name-shop") cannot take deployment.custom_domains "img.example": Source web ("name-web") was to release it, and its update failed: the Source web is disabled',
    );
    expect(String((web as PromiseRejectedResult).reason.message)).toBe("the Source web is disabled");
    expect(account.writes).toEqual([]);
  });

  it("a holder that no change of the run releases: the wait ends when the engine shows nothing new, naming the holder", async () => {
    const account = memoryAccount({ other: lists(["other"], ["img.example"]) });
    const { handOvers, checked } = run(account, {}, { quietMs: 100 });
    await checked();
    const started = Date.now();
    const created = handOvers.create(create("new", lists(["new"], ["img.example"])), async () => account.write("new", lists(["new"])));
    await expect(created).rejects.toThrow(
      /^Source "new" cannot take deployment\.custom_domains "img\.example": it is held by Source other \("name-other"\), and no change of this run releases it/,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(account.writes).toEqual([]);
  });

  it("an update's wait that ends says the holder's change may not have been shown yet; the shells add how to order it (dependsOn)", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
    const { declare, checked, update } = run(account, { shop: lists(["shop"], ["img.example"]) }, { quietMs: 100 });
    await checked();
    declare("shop");
    const error = await update("shop").then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(String((error as Error).message)).toBe(
      'Source shop ("name-shop") cannot take deployment.custom_domains "img.example": it is held by Source web ("name-web"), and no change of this run releases it (none was shown in the 0 s this write waited: the holder\'s change may not have been shown yet)',
    );
    expect((withOrderHint(error) as Error).message).toMatch(
      /with --parallel 1 a waiting write sees at most one more.*\(dependsOn\), so that the giving Source goes first/,
    );
    expect(withOrderHint(new Error("refused"))).toEqual(new Error("refused"));
    expect(account.writes).toEqual([]);
  });

  it("a check sees the refusals known now, and never waits", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]) });
    const { handOvers } = run(account, {});
    const shop = change("shop", lists(["shop"]), lists(["shop"], ["img.example"]));
    expect(await handOvers.refusalsNow(shop)).toEqual([]); // web's change may come later
    handOvers.declare(change("web", lists(["web"], ["img.example"]), lists(["web"], ["img.example"])), { change: async () => {} });
    expect(await handOvers.refusalsNow(shop)).toMatchObject([{ kind: "kept", holder: { id: "web", name: "name-web" } }]);
  });

  it("what checks let pass for a holder not shown, and no change released, is said at the end", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]), other: lists(["other"], ["out.example"]) });
    const { handOvers } = run(account, {});
    await handOvers.refusalsNow(change("shop", lists(["shop"]), lists(["shop"], ["img.example", "out.example"])));
    handOvers.declare(change("web", lists(["web"], ["img.example"]), lists(["web"])), { change: async () => {} });
    expect(await handOvers.unresolved()).toEqual([
      'Source shop ("name-shop") cannot take deployment.custom_domains "out.example": it is held by Source other ("name-other"), and no change of this run releases it',
    ]);
  });
});

describe("RunHandOvers (the provider's calls)", () => {
  const deployment = (subdomains: string[], domains: string[]) => ({
    ...WEBFOLDER,
    service_subdomains: subdomains,
    custom_domains: domains,
  });
  const web = sourceResource({ id: "web", name: "Web", deployment: deployment(["web"], ["img.example"]) });
  let listings = 0;
  const session = {
    reads: {
      all: async () => {
        listings++;
        return [web];
      },
    },
  } as unknown as Session;

  it("check fails a declared name whose holder's change keeps it: the field and index, the name, the holder's id and name; one listing", async () => {
    const run = new RunHandOvers(() => session);
    const state = { name: "Web", enabled: true, deployment: deployment(["web"], ["img.example"]) } as unknown as SourceState;
    run.diffed("web", state, { ...state, name: "Web renamed" } as unknown as SourceInputs); // keeps img.example
    const shop = {
      name: "Shop",
      enabled: true,
      deployment: deployment(["shop"], ["other.example", "IMG.example"]),
    } as unknown as SourceInputs;
    const failures = await run.checkFailures(shop, { deployment: deployment(["shop"], []) });
    expect(failures).toEqual([
      { path: ["deployment", "custom_domains", 1], rule: '"IMG.example" is held by Source web ("Web"), which this run does not release' },
    ]);
    expect(await run.checkFailures(shop, { deployment: deployment(["shop"], []) })).toHaveLength(1);
    expect(listings).toBe(1);
  });

  it("check lets a name pass whose holder's change the run has not shown yet, and lists nothing for names already declared", async () => {
    listings = 0;
    const run = new RunHandOvers(() => session);
    const shop = { name: "Shop", enabled: true, deployment: deployment(["shop"], ["img.example"]) } as unknown as SourceInputs;
    expect(await run.checkFailures(shop, { deployment: deployment(["shop"], []) })).toEqual([]);
    expect(await run.checkFailures(shop, { deployment: deployment(["shop"], ["img.example"]) })).toEqual([]);
    expect(listings).toBe(1);
  });
});

describe("RunHandOvers: names from the server in a check failure", () => {
  it("prints a holder named with ESC, BEL and U+202E as escapes, and its id too", async () => {
    const hostile = "\u001b]0;owned\u0007 web \u202egpj.exe";
    const deployment = { ...WEBFOLDER, service_subdomains: ["web"], custom_domains: ["img.example"] };
    const web = sourceResource({ id: "web\u001b[31m", name: hostile, deployment });
    const session = { reads: { all: async () => [web] } } as unknown as Session;
    const run = new RunHandOvers(() => session);
    run.diffed(
      web.id,
      { name: hostile, enabled: true, deployment } as unknown as SourceState,
      {
        name: hostile,
        enabled: true,
        deployment,
      } as unknown as SourceInputs,
    ); // keeps img.example
    const shop = { name: "Shop", enabled: true, deployment: { ...deployment, service_subdomains: ["shop"] } } as unknown as SourceInputs;
    const failures = await run.checkFailures(shop, { deployment: { ...deployment, service_subdomains: ["shop"], custom_domains: [] } });
    expect(failures).toEqual([
      {
        path: ["deployment", "custom_domains", 0],
        rule: '"img.example" is held by Source web\\u001b[31m ("\\u001b]0;owned\\u0007 web \\u202egpj.exe"), which this run does not release',
      },
    ]);
  });
});

describe("RunHandOvers: a check of an update is no create", () => {
  it("a name a retired Source holds passes an update's check, but the end of the preview names the holder (only a create reclaims it)", async () => {
    const deployment = { ...WEBFOLDER, service_subdomains: ["old"], custom_domains: ["img.example"] };
    const retired = sourceResource({ id: "old", name: "Old", enabled: false, deployment });
    const session = { reads: { all: async () => [retired] } } as unknown as Session;
    const run = new RunHandOvers(() => session);
    const shop = {
      name: "Shop",
      enabled: true,
      deployment: { ...WEBFOLDER, service_subdomains: ["shop"], custom_domains: ["img.example"] },
    };
    expect(await run.checkFailures(shop as unknown as SourceInputs, { deployment: { ...shop.deployment, custom_domains: [] } })).toEqual(
      [],
    );
    expect(await run.unresolved()).toEqual([
      'Source "Shop" cannot take deployment.custom_domains "img.example": it is held by Source old ("Old", retired), and no change of this run releases it',
    ]);
  });
  it("a name the Source itself holds, which its earlier inputs lack, is no take from another: the end of the preview says nothing", async () => {
    const deployment = { ...WEBFOLDER, service_subdomains: ["web"], custom_domains: ["img.example"] };
    const web = sourceResource({ id: "web", name: "Web", deployment });
    const session = { reads: { all: async () => [web] } } as unknown as Session;
    const run = new RunHandOvers(() => session);
    const news = { name: "Web", enabled: true, deployment } as unknown as SourceInputs;
    // img.example was added by hand, and refreshed into the state; the program now declares it too.
    expect(await run.checkFailures(news, { deployment: { ...deployment, custom_domains: [] } })).toEqual([]);
    run.diffed("web", { ...news, date_deployed: 1 } as unknown as SourceState, news);
    expect(await run.unresolved()).toEqual([]);
  });
});

describe("RunHandOvers: what a release-only PATCH leaves recorded", () => {
  /** A swap of a's and b's custom domains, against an account in memory whose PATCHes return the Source with a later `date_deployed`. */
  function swapRun(refused: string[] = []) {
    let clock = 1_767_225_600; // sourceResource's date_deployed
    const held = new Map<string, Source>();
    const declared = (id: string, domains: string[]) =>
      checkedSource({
        name: id,
        deployment: { type: "webfolder", serviceSubdomains: [id], customDomains: domains, webfolderBaseUrl: "https://origin.example.com/" },
      });
    const olds: Record<string, SourceState> = {};
    const news: Record<string, SourceInputs> = { a: declared("a", ["y.example"]), b: declared("b", ["x.example"]) };
    for (const [id, domain] of [
      ["a", "x.example"],
      ["b", "y.example"],
    ] as const) {
      const inputs = declared(id, [domain]);
      const source = sourceResource({ id, name: id, deployment: inputs.deployment as DeploymentInput });
      held.set(id, source);
      olds[id] = sourceOutputs(source, inputs);
    }
    const update = async (id: string, attributes: { deployment?: DeploymentInput }) => {
      if (refused.includes(id)) throw new Error(`the Source ${id} is disabled`);
      const domains = attributes.deployment?.custom_domains ?? [];
      const clash = [...held.values()].find(
        (other) => other.id !== id && other.attributes.deployment.custom_domains?.some((d) => domains.includes(d)),
      );
      if (clash) throw new Error(`already used by Source ${clash.id}`);
      const source = sourceResource({
        id,
        name: id,
        deployment: { ...held.get(id)!.attributes.deployment, ...attributes.deployment } as DeploymentInput,
      });
      source.attributes.date_deployed = ++clock;
      held.set(id, source);
      return source;
    };
    const waits: unknown[] = [];
    const session = {
      reads: { all: async () => [...held.values()], remember: () => {} },
      client: {
        sources: {
          update,
          waitForDeployment: async (id: string, options: { deployedBefore?: number | null }) => (
            waits.push(options.deployedBefore),
            held.get(id)!
          ),
        },
      },
    } as unknown as Session;
    const run = new RunHandOvers(() => session, { quietMs: 100 });
    for (const id of ["a", "b"]) run.diffed(id, olds[id]!, news[id]!);
    return { run, session, olds, news, held, waits };
  }

  it("the change's failure after its release-only PATCH records the Source that PATCH returned (not the state listing the released name)", async () => {
    const { run, olds, news } = swapRun(["b"]);
    const failure = await run.update("a", olds.a!, news.a!).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SourceNotReadyError);
    const { id, properties, reasons } = failure as SourceNotReadyError;
    expect(id).toBe("a");
    expect(properties.deployment.custom_domains).toEqual([]);
    expect(reasons.join()).toMatch(/Source b \("b"\) was to release it, and its update failed: the Source b is disabled/);
  });

  it("the change's deployment is the one after the release-only PATCH's", async () => {
    const { run, session, olds, news, waits } = swapRun();
    await updateSource(session, "b", olds.b!, news.b!, { send: () => run.update("b", olds.b!, news.b!) });
    await updateSource(session, "a", olds.a!, news.a!, { send: () => run.update("a", olds.a!, news.a!) });
    // b broke the cycle: its release-only PATCH's deployment (the next date) is not its change's; a sent nothing first.
    expect(waits).toEqual([olds.b!.date_deployed! + 1, olds.a!.date_deployed]);
  });
});

describe("HandOvers on the engine's other paths", () => {
  it("Cancel ends a write's wait for a holder at once, and nothing is sent after it, even once the holder's change is shown", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
    const cancel = new AbortController();
    const handOvers = new HandOvers<void>({ listSources: account.listSources, quietMs: 60_000, signal: cancel.signal });
    await handOvers.refusalsNow(create("probe", lists(["probe"])));
    const shopFacts = change("shop", lists(["shop"]), lists(["shop"], ["img.example"]));
    handOvers.declare(shopFacts, { change: async () => account.write("shop", lists(["shop"], ["img.example"])) });
    const shop = handOvers.update("shop").then(
      () => "sent",
      (error: unknown) => error,
    );
    cancel.abort(new CancelledError(PULUMI_INSTRUCTIONS));
    expect(await shop).toBeInstanceOf(CancelledError); // no quiet time (60 s) passed: the Cancel ended the wait
    // The holder's change, shown after the Cancel, would make the waiting write ready: nothing is sent.
    handOvers.declare(change("web", lists(["web"], ["img.example"]), lists(["web"])), {
      change: async () => account.write("web", lists(["web"])),
    });
    await expect(handOvers.update("web")).rejects.toBeInstanceOf(CancelledError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(account.writes).toEqual([]);
  });

  it("a change declared again with its olds and news in another key order is the same change: sent once", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
    const sent: Record<string, number> = {};
    const session = {
      reads: { all: account.listSources, remember: () => {} },
      client: {
        sources: {
          update: async (id: string, attributes: { deployment: Lists }) => {
            sent[id] = (sent[id] ?? 0) + 1;
            account.write(id, {
              service_subdomains: attributes.deployment.service_subdomains,
              custom_domains: attributes.deployment.custom_domains,
            });
            return sourceResource({ id, name: id, deployment: { ...WEBFOLDER, ...account.sources.get(id)! } });
          },
        },
      },
    } as unknown as Session;
    const run = new RunHandOvers(() => session, { quietMs: 100 });
    const state = (id: string, held: Lists) =>
      ({ name: id, enabled: true, deployment: { ...WEBFOLDER, ...held }, options: { waitForDeployment: false } }) as unknown as SourceState;
    const inputs = (id: string, held: Lists) =>
      ({
        name: id,
        enabled: true,
        deployment: { ...WEBFOLDER, ...held },
        options: { waitForDeployment: false },
      }) as unknown as SourceInputs;
    const olds = { web: state("web", lists(["web"], ["img.example"])), shop: state("shop", lists(["shop"])) };
    const news = { web: inputs("web", lists(["web"])), shop: inputs("shop", lists(["shop"], ["img.example"])) };
    await run.checkFailures(news.shop, { deployment: olds.shop.deployment });
    run.diffed("web", olds.web, news.web);
    run.diffed("shop", olds.shop, news.shop);
    await run.update("shop", olds.shop, news.shop); // sends web's change first
    // The engine's Update of web hands back the same values, their keys in another order.
    const reversed = <T extends object>(value: T): T =>
      JSON.parse(
        JSON.stringify(value, (_, inner: unknown) => (isPlainRecord(inner) ? Object.fromEntries(Object.entries(inner).reverse()) : inner)),
      );
    await run.update("web", reversed(olds.web), reversed(news.web));
    expect(sent).toEqual({ web: 1, shop: 1 });
  });

  it("a holder of this stack whose change registers late (it waits on a slow dependency) is waited for past the quiet time: one run converges", async () => {
    vi.useFakeTimers();
    try {
      const stack = "urn:pulumi:dev::site::";
      const creator = (name: string) => ({ tool: "Pulumi", resource: `${stack}assetdelivery:index:Source::${name}`, scope: stack });
      const account = memoryAccount({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
      // web was created by this stack with the default annotation, which names its resource.
      const listSources = async () =>
        (await account.listSources()).map((source) =>
          source.id === "web"
            ? {
                ...source,
                attributes: {
                  ...source.attributes,
                  deployment: { ...source.attributes.deployment, annotation: annotationWithMark(undefined, creator("web"))! },
                },
              }
            : source,
        );
      const ours = (holder: Holder) => holder.source !== undefined && createdInScope(holder.source, creator("shop"));
      const handOvers = new HandOvers<void>({ listSources, quietMs: 5_000, comesInThisRun: ours });
      await handOvers.refusalsNow(create("probe", lists(["probe"])));
      handOvers.declare(change("shop", lists(["shop"]), lists(["shop"], ["img.example"])), {
        change: async () => account.write("shop", lists(["shop"], ["img.example"])),
      });
      const shop = handOvers.update("shop");
      await vi.advanceTimersByTimeAsync(60_000); // web's certificate, say: a minute of nothing shown
      handOvers.declare(change("web", lists(["web"], ["img.example"]), lists(["web"])), {
        change: async () => account.write("web", lists(["web"])),
      });
      await shop;
      expect(account.writes).toEqual(["web", "shop"]);
      // A holder not known to be of this stack: the quiet time ends the wait, naming it.
      const other = new HandOvers<void>({ listSources, quietMs: 5_000, comesInThisRun: () => false });
      await other.refusalsNow(create("probe", lists(["probe"])));
      const late = other.create(create("new", lists(["web"])), async () => {});
      const failure = late.then(
        () => undefined,
        (error: unknown) => error,
      );
      await vi.advanceTimersByTimeAsync(6_000);
      expect(String(await failure)).toMatch(/cannot take deployment.service_subdomains "web": it is held by Source web \("name-web"\)/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("RunHandOvers: which holders the engine will show", () => {
  it("a holder of the stack is waited for past the quiet time, but not by a create taking all its service subdomains (a rename without aliases)", async () => {
    vi.useFakeTimers();
    try {
      const stack = "urn:pulumi:dev::site::";
      const creatorOf = (name: string) => ({ tool: "Pulumi", resource: `${stack}assetdelivery:index:Source::${name}`, scope: stack });
      const annotation = annotationWithMark(undefined, creatorOf("web"))!;
      const web = sourceResource({
        id: "web",
        name: "Web",
        deployment: { ...WEBFOLDER, service_subdomains: ["web"], custom_domains: ["img.example"] },
      });
      web.attributes.deployment.annotation = annotation;
      const run = new RunHandOvers(() => ({ reads: { all: async () => [web] } }) as unknown as Session, { quietMs: 5_000 });
      run.noteCreator(creatorOf("shop"));
      const declared = (subdomains: string[], domains: string[]) =>
        ({
          name: "New",
          enabled: true,
          deployment: { ...WEBFOLDER, service_subdomains: subdomains, custom_domains: domains },
        }) as unknown as SourceInputs;
      const renamed = declared(["web"], ["img.example"]);
      const taking = declared(["shop"], ["img.example"]);
      expect(await run.checkFailures(renamed, undefined, { creator: creatorOf("site") })).toEqual([]);
      const settled = (write: Promise<unknown>) =>
        write.then(
          () => "sent",
          (error: unknown) => String(error),
        );
      const rename = settled(run.create(renamed, { creator: creatorOf("site") }, async () => "created"));
      const move = settled(run.create(taking, { creator: creatorOf("shop") }, async () => "created"));
      const outcomes: string[] = [];
      void rename.then((outcome) => outcomes.push(`rename: ${outcome}`));
      void move.then((outcome) => outcomes.push(`move: ${outcome}`));
      await vi.advanceTimersByTimeAsync(6_000);
      expect(outcomes).toEqual([
        expect.stringMatching(
          /^rename: HandOverError: Source "New" cannot take deployment.service_subdomains "web": it is held by Source web/,
        ),
      ]);
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      expect(outcomes[1]).toMatch(/^move: HandOverError: .*none was shown in the 300 s this write waited/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a replacement: the engine checks the resource again as new, creates it, then deletes the old one", () => {
  const creator = { tool: "Pulumi", resource: "urn:pulumi:dev::site::assetdelivery:index:Source::web", scope: "urn:pulumi:dev::site::" };
  const deployment = { ...WEBFOLDER, service_subdomains: ["web"], custom_domains: ["img.example"] };
  const state = { name: "Web", enabled: true, deployment } as unknown as SourceState;

  it("takes its own Source: its check passes (the diffed update withdrawn), it takes that Source over, and the old resource's delete keeps it", async () => {
    const web = sourceResource({ id: "web", name: "Web", deployment });
    const run = new RunHandOvers(() => ({ reads: { all: async () => [web] } }) as unknown as Session);
    const replacements = new RunReplacements();
    const renamed = { ...state, name: "Web 2" } as unknown as SourceInputs;
    // replaceOnChanges: [name]: the engine diffs (an update, for the provider), then checks again with no olds.
    run.diffed("web", state, renamed);
    replacements.noteDiff(creator, "web", state.deployment);
    const replaces = replacements.replacing(creator, renamed.deployment);
    expect(replaces).toBe("web");
    run.replacing(replaces!);
    expect(await run.checkFailures(renamed, undefined, { creator, replaces })).toEqual([]);
    expect(await run.takenOver(renamed, { creator, replaces })).toEqual(["web"]);
    replacements.tookOver("web"); // the create's take-over (lifecycle/create.ts)
    expect(replacements.created(creator, "web")).toBeUndefined();
    expect(replacements.keeps("web")).toBe("taken-over");
  });

  it("a name its old declaration drops, taken by another write: that write waits for the replacement's create, never PATCHing the replaced Source", async () => {
    const account = memoryAccount({ web: lists(["web"], ["img.example"]), shop: lists(["shop"]) });
    const handOvers = new HandOvers<void>({ listSources: account.listSources, quietMs: 60_000 });
    await handOvers.refusalsNow(create("probe", lists(["probe"])));
    handOvers.declare(change("web", lists(["web"], ["img.example"]), lists(["web"])), {
      change: async () => account.write("web", lists(["web"])),
    });
    handOvers.declare(change("shop", lists(["shop"]), lists(["shop"], ["img.example"])), {
      change: async () => account.write("shop", lists(["shop"], ["img.example"])),
    });
    handOvers.withdraw("web"); // the engine replaces web: its diffed update is not coming
    const shop = handOvers.update("shop");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(account.writes).toEqual([]);
    account.write("web", lists(["web"])); // the replacement's create, taking web over
    handOvers.written({ id: "web", name: "name-web", enabled: true }, hostnamesOf(lists(["web"])).keys());
    await shop;
    expect(account.writes).toEqual(["web", "shop"]);
  });

  it("--replace (no diff): the check finds the Source its create mark names; with deleteBeforeReplace the delete leaves it to the create", () => {
    const replacements = new RunReplacements();
    expect(replacements.replacing(creator, deployment)).toBeUndefined(); // no diff: known by the check's listing
    replacements.takesOver(creator, "web");
    expect(replacements.keeps("web")).toBe("awaiting-create");
    expect(replacements.created(creator, "web")).toBeUndefined(); // took it over: nothing to retire
  });

  it("keeping none of the old names: a new Source, and the old one retired (at its delete; or after the create, when deleted first)", () => {
    const moved = { ...deployment, service_subdomains: ["web2"], custom_domains: [] };
    const replacements = new RunReplacements();
    replacements.noteDiff(creator, "web", deployment);
    expect(replacements.replacing(creator, moved)).toBe("web");
    expect(replacements.keeps("web")).toBeUndefined(); // deleted first: retired
    expect(replacements.created(creator, "web2")).toBeUndefined();
    const later = new RunReplacements();
    later.noteDiff(creator, "web", deployment);
    later.replacing(creator, moved);
    expect(later.created(creator, "web2")).toBeUndefined();
    expect(later.keeps("web")).toBeUndefined(); // deleted after: retired
  });

  it("a run interrupted between the create and the delete: the next run's delete of the leftover keeps the Source its resource, diffed in that run, holds", () => {
    const next = new RunReplacements();
    next.noteDiff(creator, "web", deployment); // the replacement, in the state with web's id
    expect(next.keeps("web", creator)).toBe("held");
    expect(next.keeps("web")).toBeUndefined(); // a delete that names no resource: retired
    const other = { ...creator, resource: `${creator.resource}-other` };
    expect(next.keeps("web", other)).toBeUndefined(); // another resource's Source: retired
    // A leftover of a replacement that kept none of the names: the resource holds another Source now.
    const moved = new RunReplacements();
    moved.noteDiff(creator, "web2", { ...deployment, service_subdomains: ["web2"], custom_domains: [] });
    expect(moved.keeps("web", creator)).toBeUndefined();
    // The resource is replaced again in this run, keeping none of the names: its delete retires.
    const again = new RunReplacements();
    again.noteDiff(creator, "web", deployment);
    again.replacing(creator, { ...deployment, service_subdomains: ["web3"], custom_domains: [] });
    expect(again.created(creator, "web3")).toBeUndefined();
    expect(again.keeps("web", creator)).toBeUndefined();
  });
});

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
