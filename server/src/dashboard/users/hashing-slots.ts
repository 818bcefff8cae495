// A bound on password hashes running at once, shared fairly between clients. scrypt runs on libuv's
// thread pool (4 threads by default), which every file, zlib and DNS call of the server shares: a
// flood of sign-ins must not occupy all of it. When every slot is busy a sign-in waits in line, and
// the line is served by who was served longest ago (a client never served first, then arrival): a
// crowd of addresses that keeps the slots busy has each been served recently, so a person signing in
// from a quiet address is next, not behind the crowd. Each client waits with one sign-in at most, and
// the line is bounded: a full line turns away the most recently served client (429 at once), never
// one that waited less long for its turn.
import { LRUCache } from "lru-cache";

export const MAX_CONCURRENT_PASSWORD_HASHES = 2;
/** Sign-ins waiting for a slot, from all clients together. */
export const MAX_WAITING_SIGN_INS = 64;

// Bounded: an attacker cycling through addresses evicts the oldest entries, not memory.
const MAX_TRACKED = 50_000;

/** Releases a slot; call it exactly once (later calls do nothing). */
export type ReleaseSlot = () => void;

interface Waiter {
  client: string;
  /** When the client was last served (0: never), then when it came: the smaller is served first. */
  lastServed: number;
  arrival: number;
  admit(release: ReleaseSlot | undefined): void;
}

export type HashingSlots = ReturnType<typeof createHashingSlots>;

export function createHashingSlots({ max = MAX_CONCURRENT_PASSWORD_HASHES, maxWaiting = MAX_WAITING_SIGN_INS } = {}) {
  let busy = 0;
  let turns = 0; // counts every slot handed out: "when" a client was last served
  let arrivals = 0;
  const lastServed = new LRUCache<string, number>({ max: MAX_TRACKED });
  const line: Waiter[] = [];

  const before = (a: Waiter, b: Waiter) => a.lastServed - b.lastServed || a.arrival - b.arrival;

  function slotFor(client: string): ReleaseSlot {
    busy++;
    lastServed.set(client, ++turns);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      busy--;
      serveLine();
    };
  }

  function serveLine(): void {
    while (busy < max && line.length > 0) {
      const next = line.reduce((best, waiter) => (before(waiter, best) < 0 ? waiter : best));
      line.splice(line.indexOf(next), 1);
      next.admit(slotFor(next.client));
    }
  }

  return {
    /**
     * A slot for a sign-in from `client` (its address, clientKey), at once or after waiting its
     * turn; undefined (at once) when the client already waits with another sign-in, or the line is
     * full of clients served longer ago than this one.
     */
    acquire(client: string): Promise<ReleaseSlot | undefined> {
      if (busy < max && line.length === 0) return Promise.resolve(slotFor(client));
      if (line.some((waiter) => waiter.client === client)) return Promise.resolve(undefined);
      return new Promise((admit) => {
        const waiter: Waiter = { client, lastServed: lastServed.get(client) ?? 0, arrival: ++arrivals, admit };
        if (line.length >= maxWaiting) {
          const last = line.reduce((worst, other) => (before(other, worst) > 0 ? other : worst));
          if (before(waiter, last) > 0) return admit(undefined);
          line.splice(line.indexOf(last), 1);
          last.admit(undefined);
        }
        line.push(waiter);
      });
    },
  };
}
