// Reads arriving together share paged list calls; lone reads are single GETs; a Source missing
// from the listing is confirmed gone by a GET.
import { describe, expect, it } from "vitest";
import { NotFoundError, type Source } from "@asset-delivery/sdk";
import { ReadCoalescer, type SourceLookup } from "@asset-delivery/provider/dist/read-coalescer";
import { sourceResource } from "../support/api-documents";

/** An account's Sources behind the two calls the coalescer makes, counting them. */
function account(count: number) {
  const sources = Array.from({ length: count }, (_, i) => sourceResource({ name: `Source ${i}` }));
  const calls = { list: [] as number[], get: [] as string[] };
  const lookup: SourceLookup = {
    async list({ number, size }) {
      calls.list.push(number);
      return { data: sources.slice(number * size, number * size + size), pagination: { totalPages: Math.ceil(sources.length / size) } };
    },
    async get(id) {
      calls.get.push(id);
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
    const results = await refresh(new ReadCoalescer(lookup), sources.map((s) => s.id), 8);
    expect(calls).toEqual({ list: [0], get: [] });
    for (const source of sources) expect(results.get(source.id)).toBe(source);
  });

  it("answers the waves after a listing at once: only the first wave waits for its window", async () => {
    const { sources, lookup } = account(100);
    const windowMs = 500;
    const coalescer = new ReadCoalescer(lookup, { windowMs });
    const started = performance.now();
    await refresh(coalescer, sources.map((s) => s.id), 8);
    // 100 reads 8 at a time are 13 waves; waiting a window for each would take 13 * 500 ms.
    expect(performance.now() - started).toBeLessThan(3 * windowMs);
  });

  it("sends a burst of reads once they stop arriving, without waiting out the window", async () => {
    const { sources, calls, lookup } = account(100);
    const coalescer = new ReadCoalescer(lookup, { windowMs: 2_000, quietMs: 10 });
    const started = performance.now();
    await Promise.all(sources.slice(0, 20).map((s) => coalescer.read(s.id)));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(calls).toEqual({ list: [0], get: [] });
  });

  it("gathers reads that keep trickling in, but no longer than the window", async () => {
    const { sources, calls, lookup } = account(100);
    const coalescer = new ReadCoalescer(lookup, { windowMs: 300, quietMs: 50 });
    const started = performance.now();
    const reads: Promise<unknown>[] = [];
    let firstAnswered = Infinity;
    // One read every 20 ms for 600 ms: never 50 ms of quiet, so the window ends the first batch.
    for (const source of sources.slice(0, 30)) {
      const read = coalescer.read(source.id);
      if (reads.length === 0) void read.then(() => (firstAnswered = performance.now() - started));
      reads.push(read);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(reads);
    expect(firstAnswered).toBeGreaterThanOrEqual(299);
    expect(firstAnswered).toBeLessThan(550);
    expect(calls.list).toEqual([0]);
  });

  it("pages through a larger account only as far as the reads need", async () => {
    const { sources, calls, lookup } = account(250);
    const wanted = sources.slice(0, 150).map((s) => s.id);
    const results = await refresh(new ReadCoalescer(lookup), wanted, 8);
    expect(calls).toEqual({ list: [0, 1], get: [] });
    expect([...results.values()].every(Boolean)).toBe(true);
  });

  it("answers a lone read with one GET", async () => {
    const { sources, calls, lookup } = account(300);
    expect(await new ReadCoalescer(lookup).read(sources[7]!.id)).toBe(sources[7]);
    expect(calls).toEqual({ list: [], get: [sources[7]!.id] });
  });

  it("GETs a few reads rather than listing many pages for them", async () => {
    const { sources, calls, lookup } = account(1000);
    const wanted = [sources[500]!, sources[700]!, sources[900]!].map((s) => s.id);
    await refresh(new ReadCoalescer(lookup), wanted, 8);
    expect(calls).toEqual({ list: [0], get: wanted });
  });

  it("reports a Source the server no longer has as undefined, after confirming with a GET", async () => {
    const { sources, calls, lookup } = account(5);
    const gone = "z".repeat(24);
    const results = await refresh(new ReadCoalescer(lookup), [...sources.map((s) => s.id), gone], 8);
    expect(results.get(gone)).toBeUndefined();
    expect(calls).toEqual({ list: [0], get: [gone] });
  });

  it("lists again once the pages are older than the snapshot's lifetime", async () => {
    const { sources, calls, lookup } = account(10);
    let now = 0;
    const coalescer = new ReadCoalescer(lookup, { now: () => now, snapshotTtlMs: 1000 });
    const ids = sources.map((s) => s.id);
    await refresh(coalescer, ids, 8);
    await refresh(coalescer, ids, 8);
    now = 1000;
    await refresh(coalescer, ids, 8);
    expect(calls.list).toEqual([0, 0]);
  });

  it("answers later reads with what this process wrote", async () => {
    const { sources, lookup } = account(10);
    const coalescer = new ReadCoalescer(lookup);
    await refresh(coalescer, sources.map((s) => s.id), 8);
    const renamed = { ...sources[3]!, attributes: { ...sources[3]!.attributes, name: "Renamed" } };
    coalescer.remember(renamed);
    expect(await coalescer.read(renamed.id)).toBe(renamed);
  });

  it("passes a failed call on to every read waiting for it", async () => {
    const lookup: SourceLookup = {
      list: async () => {
        throw new Error("list failed");
      },
      get: async () => {
        throw new Error("get failed");
      },
    };
    const coalescer = new ReadCoalescer(lookup);
    const reads = ["a", "b", "c"].map((id) => coalescer.read(id.repeat(24)));
    for (const read of reads) await expect(read).rejects.toThrow("list failed");
  });
});
