// Request deadlines on one coarse ticker per client, instead of a timer per request: Node drops the
// timer list of a duration when it empties, so sequential requests each paid for a new list and a
// libuv timer; here a request costs a Set entry. A deadline fires within a tenth of the timeout
// (at most 250 ms) after it passes.
import { EventEmitter } from "node:events";

export interface Deadline {
  /** Emits "abort" when the deadline passes: undici accepts an EventEmitter as a request's signal. */
  readonly signal: EventEmitter;
  readonly expired: boolean;
  /** The request ended: stop watching it. */
  clear(): void;
}

interface Watched {
  readonly signal: EventEmitter;
  readonly at: number;
  expired: boolean;
}

export function createDeadlines(timeoutMs: number): { start(): Deadline } {
  const watched = new Set<Watched>();
  const tickMs = Math.min(250, Math.max(5, Math.round(timeoutMs / 10)));
  let ticker: NodeJS.Timeout | undefined;

  const tick = () => {
    const now = performance.now();
    for (const entry of watched) {
      if (entry.at > now) continue;
      entry.expired = true;
      watched.delete(entry);
      entry.signal.emit("abort");
    }
    // Stopped only when idle at a tick, so a run of sequential requests keeps one ticker.
    if (watched.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };

  return {
    start() {
      const entry: Watched = { signal: new EventEmitter(), at: performance.now() + timeoutMs, expired: false };
      watched.add(entry);
      ticker ??= setInterval(tick, tickMs).unref();
      return {
        signal: entry.signal,
        get expired() {
          return entry.expired;
        },
        clear: () => watched.delete(entry),
      };
    },
  };
}
