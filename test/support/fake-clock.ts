// A virtual clock for the client's waiting (pacing, backoff, polling): `sleep` resolves at once and
// moves time forward, so hours of rate-limit waiting take milliseconds. Concurrent sleeps overlap
// as they would in real time: time ends at the latest wake-up, not at their sum.
import type { Clock } from "@asset-delivery/sdk";

export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  readonly startedAt: number;

  constructor(private time = Date.UTC(2026, 0, 1)) {
    this.startedAt = time;
  }

  now(): number {
    return this.time;
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    const wakeAt = this.time + ms;
    await Promise.resolve();
    this.time = Math.max(this.time, wakeAt);
  }

  /** Virtual time passed since construction. */
  elapsed(): number {
    return this.time - this.startedAt;
  }
}
