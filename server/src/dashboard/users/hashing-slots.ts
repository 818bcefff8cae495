// A bound on password hashes running at once, shared fairly between clients. scrypt runs on libuv's
// thread pool (4 threads by default), which every file, zlib and DNS call of the server shares: a
// flood of sign-ins must not occupy all of it. When every slot is busy a sign-in waits in line, and
// the line is served by whose previous request came longest ago (a client's first request first,
// then by arrival): an address of a flood asks again and again, so a person signing in from a quiet
// address goes ahead of all of them, and a crowd of fresh addresses gets in front of no one after
// its first round. Each client waits with one sign-in at most, and the line is bounded: a full line
// turns away the waiter that asked most recently before (429 at once), or the newcomer if that is
// the newcomer itself.
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
  /** When the client asked before this request (0: never), then when this one came: the smaller is served first. */
  askedBefore: number;
  arrival: number;
  admit(release: ReleaseSlot | undefined): void;
}

export type HashingSlots = ReturnType<typeof createHashingSlots>;

export function createHashingSlots({ max = MAX_CONCURRENT_PASSWORD_HASHES, maxWaiting = MAX_WAITING_SIGN_INS } = {}) {
  let busy = 0;
  let asks = 0; // counts every request for a slot: "when" a client last asked
  const lastAsked = new LRUCache<string, number>({ max: MAX_TRACKED });
  const line: Waiter[] = [];

  const before = (a: Waiter, b: Waiter) => a.askedBefore - b.askedBefore || a.arrival - b.arrival;

  function slot(): ReleaseSlot {
    busy++;
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
      next.admit(slot());
    }
  }

  return {
    /**
     * A slot for a sign-in from `client` (its address, clientKey), at once or after waiting its
     * turn; undefined (at once) when the client already waits with another sign-in, or the line is
     * full of clients whose previous requests came longer ago than this one's.
     */
    acquire(client: string): Promise<ReleaseSlot | undefined> {
      const arrival = ++asks;
      const askedBefore = lastAsked.get(client) ?? 0;
      lastAsked.set(client, arrival);
      if (busy < max && line.length === 0) return Promise.resolve(slot());
      if (line.some((waiter) => waiter.client === client)) return Promise.resolve(undefined);
      return new Promise((admit) => {
        const waiter: Waiter = { client, askedBefore, arrival, admit };
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
