// The video worker's pure parts: which job runs next (accounts take turns, each capped), and an
// image's size read from its header before ffmpeg runs.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { nextJob, type QueuedJob } from "../../server/src/videos/fair-queue";
import { imageSize, sniffImageFormat } from "../../server/src/videos/image-format";

/** Runs the queue to the end with `concurrency` workers that finish in start order; returns the start order. */
function startOrder(waiting: QueuedJob[], concurrency: number, perAccount: number): string[] {
  const queue = [...waiting];
  const running: QueuedJob[] = [];
  const inFlight = new Map<string, number>();
  const lastStarted = new Map<string, number>();
  const started: string[] = [];
  while (queue.length > 0 || running.length > 0) {
    for (;;) {
      if (running.length >= concurrency) break;
      const job = nextJob(queue, { running: new Set(running.map((j) => j.id)), inFlight, lastStarted, perAccount });
      if (!job) break;
      running.push(job);
      inFlight.set(job.accountId, (inFlight.get(job.accountId) ?? 0) + 1);
      lastStarted.set(job.accountId, started.length);
      started.push(job.id);
    }
    const done = running.shift()!;
    queue.splice(queue.indexOf(done), 1);
    inFlight.set(done.accountId, inFlight.get(done.accountId)! - 1);
  }
  return started;
}

const jobs = (account: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `${account}${i + 1}`, accountId: account }));

describe("nextJob", () => {
  it("interleaves two accounts even when one queued first", () => {
    expect(startOrder([...jobs("A", 4), ...jobs("B", 2)], 1, 1)).toEqual(["A1", "B1", "A2", "B2", "A3", "A4"]);
    expect(startOrder([...jobs("A", 4), ...jobs("B", 2)], 2, 1)).toEqual(["A1", "B1", "A2", "B2", "A3", "A4"]);
  });

  it("never lets one account hold more than its cap, leaving a worker for the next account", () => {
    const waiting = [...jobs("A", 4), ...jobs("B", 1)];
    const state = { running: new Set(["A1"]), inFlight: new Map([["A", 1]]), lastStarted: new Map([["A", 0]]), perAccount: 1 };
    expect(nextJob(waiting, state)?.id).toBe("B1");
    expect(nextJob(jobs("A", 4), state)).toBeUndefined();
  });

  it("takes three accounts in turn, oldest first within each", () => {
    expect(startOrder([...jobs("A", 3), ...jobs("B", 2), ...jobs("C", 1)], 1, 1)).toEqual(["A1", "B1", "C1", "A2", "B2", "A3"]);
  });
});

describe("imageSize", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "image-size-"));

  it.each(["png", "jpg", "gif", "webp", "bmp", "tiff"])("reads width and height from a %s header", (extension) => {
    const file = path.join(tmp, `test.${extension}`);
    execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=123x45", "-frames:v", "1", "-y", file]);
    const bytes = fs.readFileSync(file);
    const format = sniffImageFormat(bytes)!;
    expect(imageSize(bytes, format)).toEqual({ width: 123, height: 45 });
  });

  it("reads a declared 8000×8000 from a small PNG, and nothing from a header cut short", () => {
    const header = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const size = Buffer.alloc(8);
    size.writeUInt32BE(8000, 0);
    size.writeUInt32BE(8000, 4);
    expect(imageSize(Buffer.concat([header, size, Buffer.alloc(100)]), "png")).toEqual({ width: 8000, height: 8000 });
    expect(imageSize(header, "png")).toBeUndefined();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]), "jpeg")).toBeUndefined();
  });
});
