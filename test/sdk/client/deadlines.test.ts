import { describe, expect, it } from "vitest";
import { once } from "node:events";
import { createDeadlines } from "@asset-delivery/sdk/dist/client/deadlines";

describe("request deadlines", () => {
  it("aborts a request once its timeout has passed, no later than a tenth of the timeout after", async () => {
    const deadline = createDeadlines(200).start();
    const started = performance.now();
    await once(deadline.signal, "abort");
    const waited = performance.now() - started;
    expect(deadline.expired).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(199);
    expect(waited).toBeLessThan(200 + 20 + 50); // tick of 20 ms, plus a busy machine's margin
  });

  it("never aborts a request that ended in time", async () => {
    const deadlines = createDeadlines(50);
    const deadline = deadlines.start();
    let aborted = false;
    deadline.signal.on("abort", () => (aborted = true));
    deadline.clear();
    // A later request keeps the ticker running past the first one's deadline.
    const later = deadlines.start();
    await once(later.signal, "abort");
    expect(aborted).toBe(false);
    expect(deadline.expired).toBe(false);
  });

  it("times each request from its own start", async () => {
    const deadlines = createDeadlines(100);
    const first = deadlines.start();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const second = deadlines.start();
    await once(first.signal, "abort");
    expect(second.expired).toBe(false);
    await once(second.signal, "abort");
    expect(second.expired).toBe(true);
  });
});
