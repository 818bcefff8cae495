// Reads are answered from one listing of the account's pages, whatever the stack's size and however
// the engine spreads its reads; a lone read is one GET; a Source missing from the whole listing is
// confirmed gone by a GET.
import { describe, expect, it } from "vitest";
import { NotFoundError, type Source } from "@asset-delivery/sdk";
import { ReadCoalescer, type SourceLookup } from "../../provider/src/core/read-coalescer";
import { sourceResource } from "../support/api-documents";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An account's Sources behind the two calls the coalescer makes, counting them; each call takes `latencyMs`. */
function account(count: number, latencyMs = 0) {
  const sources = Array.from({ length: count }, (_, i) => sourceResource({ name: `Source ${i}` }));
  const calls = { list: [] as number[], get: [] as string[] };
  const lookup: SourceLookup = {
    async list({ number, size }) {
      calls.list.push(number);
      await sleep(latencyMs);
      return { data: sources.slice(number * size, number * size + size), pagination: { totalPages: Math.ceil(sources.length / size) } };
    },
    async get(id) {
      calls.get.push(id);
      await sleep(latencyMs);
      const found = sources.find((s) => s.id === id);
      if (!found) throw new NotFoundError({ status: 404, method: "GET", path: `/api/v1/sources/${id}`, errors: [] });
      return found;
    },
  };
  return { sources, calls, lookup };
}

/** Reads `ids` the way Pulumi refreshes: `parallel` at a time, each worker taking the next id when its read is done. */
async function refresh(coalescer: ReadCoalescer, ids: string[], parallel: number): Promise<Map<string, Source | undefined>> {
  const results = new Map<string, Source | undefined>();
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) results.set(id, await coalescer.read(id));
    }),
  );
  return results;
}

describe("read coalescer", () => {
  it("refreshes 100 Sources, 8 reads at a time, with one list call", async () => {
    const { sources, calls, lookup } = account(100);
    const results = await refresh(
      new ReadCoalescer(lookup),
      sources.map((s) => s.id),
      8,
    );
    expect(calls).toEqual({ list: [0], get: [] });
    for (const source of sources) expect(results.get(source.id)).toBe(source);
  });

  it("refreshes 1,000 Sources, 8 reads at a time, with the account's 10 pages and no GET", async () => {
    // Never more than 8 reads wait at once: a listing that goes only as far as the waiting reads
    // need turned each of these reads into a GET.
    const { sources, calls, lookup } = account(1000, 2);
    const results = await refresh(
      new ReadCoalescer(lookup),
      sources.map((s) => s.id),
      8,
    );
    expect(calls.get).toEqual([]);
    expect(calls.list.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const source of sources) expect(results.get(source.id)).toBe(source);
  });

  it("refreshes a few Sources of a big account with its pages, however the reads trickle in", async () => {
    const { sources, calls, lookup } = account(1000, 2);
    const coalescer = new ReadCoalescer(lookup);
    for (const source of [sources[500]!, sources[700]!, sources[900]!]) {
      expect(await coalescer.read(source.id)).toBe(source);
      await sleep(20);
    }
    // The first, alone, was a GET; the second started the listing, which answered the third.
    expect(calls.get).toEqual([sources[500]!.id]);
    expect(calls.list).toHaveLength(10);
  });

  it("answers each read as soon as the page holding it arrives", async () => {
    const { sources, lookup } = account(300);
    const pageArrived: number[] = [];
    const gate: Array<() => void> = [];
    const slowLookup: SourceLookup = {
      ...lookup,
      async list(page) {
        if (page.number > 0) await new Promise<void>((resolve) => gate.push(resolve));
        pageArrived.push(page.number);
        return lookup.list(page);
      },
    };
    const coalescer = new ReadCoalescer(slowLookup);
    const onPage1 = coalescer.read(sources[150]!.id);
    const onPage0 = coalescer.read(sources[5]!.id);
    expect(await onPage0).toBe(sources[5]);
    await sleep(10);
    expect(gate).toHaveLength(2); // pages 1 and 2 requested together, neither answered yet
    gate.shift()!();
    expect(await onPage1).toBe(sources[150]);
    gate.shift()!();
  });

  it("answers a lone read from page 0, or else with one GET", async () => {
    const first = account(300);
    expect(await new ReadCoalescer(first.lookup).read(first.sources[7]!.id)).toBe(first.sources[7]);
    expect(first.calls).toEqual({ list: [0], get: [] });
    const second = account(300);
    expect(await new ReadCoalescer(second.lookup).read(second.sources[207]!.id)).toBe(second.sources[207]);
    expect(second.calls).toEqual({ list: [0], get: [second.sources[207]!.id] });
  });

  it("reports a Source missing from the whole listing as undefined, after confirming with a GET", async () => {
    const { sources, calls, lookup } = account(250);
    const gone = "z".repeat(24);
    const results = await refresh(new ReadCoalescer(lookup), [...sources.map((s) => s.id), gone], 8);
    expect(results.get(gone)).toBeUndefined();
    expect(calls.get).toEqual([gone]);
    expect(calls.list).toHaveLength(3);
  });

  it("keeps one listing while reads keep coming, however long the wave, and lists again after a pause", async () => {
    const { sources, calls, lookup } = account(10);
    let now = 0;
    const coalescer = new ReadCoalescer(lookup, { now: () => now, maxIdleMs: 1000, maxAgeMs: 10_000 });
    // Reads 900 ms apart for 3.6 s: one wave, one listing.
    for (const source of sources.slice(0, 5)) {
      await coalescer.read(source.id);
      now += 900;
    }
    expect(calls.list).toEqual([0]);
    now += 1000; // a pause: the next read starts a new listing
    await coalescer.read(sources[5]!.id);
    expect(calls.list).toEqual([0, 0]);
  });

  it("lists again once the listing is older than its lifetime, however busy", async () => {
    const { sources, calls, lookup } = account(10);
    let now = 0;
    const coalescer = new ReadCoalescer(lookup, { now: () => now, maxIdleMs: 1000, maxAgeMs: 2000 });
    for (const source of sources.slice(0, 4)) {
      await coalescer.read(source.id);
      now += 700;
    }
    expect(calls.list).toEqual([0, 0]);
  });

  it("answers a later read with what this process wrote", async () => {
    const { sources, calls, lookup } = account(10);
    const coalescer = new ReadCoalescer(lookup);
    await coalescer.read(sources[0]!.id);
    const renamed = { ...sources[3]!, attributes: { ...sources[3]!.attributes, name: "Renamed" } };
    coalescer.remember(renamed);
    expect(await coalescer.read(renamed.id)).toBe(renamed);
    expect(calls.list).toEqual([0]);
  });

  it("asks the server again for a Source it already answered", async () => {
    const { sources, calls, lookup } = account(10);
    const coalescer = new ReadCoalescer(lookup);
    await refresh(
      coalescer,
      sources.map((s) => s.id),
      8,
    );
    const renamed = { ...sources[3]!, attributes: { ...sources[3]!.attributes, name: "Renamed elsewhere" } };
    sources[3] = renamed;
    expect(await coalescer.read(renamed.id)).toBe(renamed);
    expect(calls.list).toEqual([0, 0]);
  });

  it("lists the whole account, and then answers reads of its Sources without a request", async () => {
    const { sources, calls, lookup } = account(250);
    const coalescer = new ReadCoalescer(lookup);
    expect((await coalescer.all()).map((s) => s.id)).toEqual(sources.map((s) => s.id));
    expect(calls.list).toEqual([0, 1, 2]);
    const results = await refresh(coalescer, [sources[3]!.id, sources[240]!.id, "z".repeat(24)], 8);
    expect(results.get(sources[240]!.id)).toBe(sources[240]);
    expect(results.get("z".repeat(24))).toBeUndefined();
    expect(calls).toEqual({ list: [0, 1, 2], get: ["z".repeat(24)] });
  });

  it("passes a failed page on to every read waiting for it, and lists afresh for the next read", async () => {
    const { sources, lookup } = account(250);
    let failures = 1;
    const flaky: SourceLookup = {
      ...lookup,
      async list(page) {
        if (page.number === 2 && failures-- > 0) throw new Error("list failed");
        return lookup.list(page);
      },
    };
    const coalescer = new ReadCoalescer(flaky);
    const reads = [sources[210]!, sources[220]!, sources[230]!].map((s) => coalescer.read(s.id));
    for (const read of reads) await expect(read).rejects.toThrow("list failed");
    expect(await coalescer.read(sources[240]!.id)).toBe(sources[240]);
  });

  it("passes a failed GET on to the read", async () => {
    const { sources, lookup } = account(300);
    const coalescer = new ReadCoalescer({ ...lookup, get: async () => Promise.reject(new Error("get failed")) });
    await expect(coalescer.read(sources[250]!.id)).rejects.toThrow("get failed");
  });
});
