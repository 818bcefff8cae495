// What a write waiting for a holder's change listens to: the engine showing more of the run (a
// check, a diff, a change sent or failed), the end of its wait, and the engine's Cancel, which ends
// every wait at once.
export class EngineActivity {
  private last: number;
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly now: () => number,
    private readonly signal?: AbortSignal,
  ) {
    this.last = now();
    signal?.addEventListener("abort", () => this.wake(), { once: true });
  }

  /** When the engine last showed something. */
  get lastActivity(): number {
    return this.last;
  }

  /** The engine checked or diffed a resource: it is still showing the run's changes. */
  note(): void {
    this.last = this.now();
    this.wake();
  }

  /** Throws the Cancel's error once the engine cancelled. */
  throwIfCancelled(): void {
    this.signal?.throwIfAborted();
  }

  /** Resolves at the next activity, after `ms`, or at a Cancel (the caller then throws). */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wakers.add(done);
      if (this.signal?.aborted) done();
    });
  }

  /** Something a waiting write plans on changed (a change sent or failed). */
  wake(): void {
    for (const waker of [...this.wakers]) waker();
  }
}
