// The engine's Cancel (the native plugin's; the dynamic provider's host sends none): the provider
// object's waits for deployments stop at once (its signal: no further poll), and every write under
// way (a request, a pacing wait) is answered at once with a CancelledError, unless it hands back,
// within a short grace, the Source it wrote.
import type { Instructions } from "./instructions";

export class CancelledError extends Error {
  constructor(instructions: Instructions) {
    super(`cancelled: the engine asked the provider to stop (the Source may still be deploying; ${instructions.seeWhereItStands})`);
  }
}

/** How long a cancelled write may take to hand back the Source it wrote. */
const CANCEL_GRACE_MS = 200;

export class Cancellation {
  private readonly controller = new AbortController();
  /** Rejects with the CancelledError once cancelled; only raced against, never awaited alone. */
  private readonly cancelled: Promise<never>;

  constructor(private readonly instructions: Instructions) {
    const { signal } = this.controller;
    this.cancelled = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
    this.cancelled.catch(() => undefined);
  }

  /** Aborted by `cancel`: what the core's waits listen to. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(): void {
    this.controller.abort(new CancelledError(this.instructions));
  }

  /**
   * The write's result, raced against Cancel. Cancelled: the core's wait ends on the same signal,
   * with the Source it had written (a SourceNotReadyError, to be recorded); a write still under way
   * is not waited for beyond the grace.
   */
  async untilCancelled<T>(work: Promise<T>): Promise<T> {
    try {
      return await Promise.race([work, this.cancelled]);
    } catch (raced) {
      if (!(raced instanceof CancelledError)) throw raced;
      const outcome = await outcomeWithin(work, CANCEL_GRACE_MS, raced);
      if (outcome instanceof Error) throw outcome;
      return outcome; // done just before the Cancel
    }
  }
}

/** The work's result, or its error, if it settles within `ms`; else `otherwise`. */
async function outcomeWithin<T>(work: Promise<T>, ms: number, otherwise: Error): Promise<T | Error> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Error>((resolve) => (timer = setTimeout(() => resolve(otherwise), ms)));
  const settled = work.then(
    (value) => value,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}
