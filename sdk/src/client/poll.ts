// The one polling loop of the client (a Source's deployment, a video job's result): read, stop
// when the read settles it, else give up or sleep and read again; or stop when the caller aborts.
import type { Clock } from "./clock";

export interface Polling<T, R> {
  clock: Clock;
  intervalMs: number;
  read: () => Promise<T>;
  /** The result once a read settles it (or a throw when the read shows a failure); undefined: not yet. */
  settled: (read: T) => R | undefined;
  /** After an unsettled read: the error to give up with, or undefined to poll again. */
  giveUp: (read: T, progress: { waitedMs: number; attempts: number }) => Error | undefined;
  /** Aborted: no further read, and a sleep between reads ends at once, rejecting with the signal's reason. */
  signal?: AbortSignal | undefined;
}

export async function poll<T, R>({ clock, intervalMs, read, settled, giveUp, signal }: Polling<T, R>): Promise<R> {
  const startedAt = clock.now();
  for (let attempts = 1; ; attempts++) {
    signal?.throwIfAborted();
    const value = await read();
    const result = settled(value);
    if (result !== undefined) return result;
    const failure = giveUp(value, { waitedMs: clock.now() - startedAt, attempts });
    if (failure) throw failure;
    await untilAborted(clock.sleep(intervalMs), signal);
  }
}

/** The promise, or the signal's reason as soon as it is aborted. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
}
