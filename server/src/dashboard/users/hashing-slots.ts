// A bound on password hashes running at once, shared fairly between clients. scrypt runs on libuv's
// thread pool (4 threads by default), which every file, zlib and DNS call of the server shares: a
// flood of sign-ins must not occupy all of it. When every slot is busy a sign-in waits in line, and
// the line is served by whose previous request came longest ago: an address of a flood asks again
// and again, so a person signing in from a quiet address goes ahead of all of them. A client the
// line does not know (never seen, or forgotten) ranks level with the oldest it knows (then by
// arrival), no longer ahead of everyone; it still goes ahead of every client that asked since that
// oldest one, so a stream of fresh addresses (an IPv6 attacker has 2^16 /64s in a /48) outranks
// most returning users still. What keeps a returning user's place is the device cookie: one slot
// more is kept for sign-ins that carry a valid one (a browser that signed in as that user before),
// and they go first, so however busy the others, a known browser waits only for its own kind. Only
// one sign-in of a user at a time goes as a known browser (a person signs in once at a time): else
// the holder of one account, signing in as themselves again and again from many networks, would
// go ahead of everyone and take every slot. Each client waits with one sign-in at most, and the
// line is bounded: a full line turns away the waiter that asked most recently before (429 at
// once), or the newcomer if that is the newcomer itself.
import { LRUCache } from "lru-cache";
import { createLimiterKeys } from "../limiter-key";

export const MAX_CONCURRENT_PASSWORD_HASHES = 2;
/** The slot beyond those, for sign-ins with a valid device cookie only: 3 of libuv's 4 threads at most. */
export const RESERVED_FOR_KNOWN_DEVICES = 1;
/** Sign-ins waiting for a slot, from all clients together. */
export const MAX_WAITING_SIGN_INS = 64;

// Bounded in bytes (every entry a 22-character key and a number): an attacker cycling through
// addresses evicts the oldest entries, not memory; a client unseen for an hour is forgotten.
const MAX_TRACKED = 50_000;
const FORGET_AFTER_MS = 3_600_000;

/** Releases a slot; call it exactly once (later calls do nothing). */
export type ReleaseSlot = () => void;

interface Waiter {
  client: string;
  knownDevice: boolean;
  /** When the client asked before this request, then when this one came: the smaller is served first. */
  askedBefore: number;
  arrival: number;
  admit(release: ReleaseSlot | undefined): void;
}

export type HashingSlots = ReturnType<typeof createHashingSlots>;

export function createHashingSlots({
  max = MAX_CONCURRENT_PASSWORD_HASHES,
  reserved = RESERVED_FOR_KNOWN_DEVICES,
  maxWaiting = MAX_WAITING_SIGN_INS,
} = {}) {
  let busy = 0;
  let asks = 0; // counts every request for a slot: "when" a client last asked
  const lastAsked = new LRUCache<string, number>({ max: MAX_TRACKED, ttl: FORGET_AFTER_MS });
  const keyOf = createLimiterKeys();
  const line: Waiter[] = [];
  // Users (keyed) with a known browser's sign-in waiting or under way: at most the slots and the line.
  const knownUsers = new Set<string>();
  let purgedAt = performance.now();

  // A known browser first, then whoever asked longest ago before, then by arrival.
  const before = (a: Waiter, b: Waiter) =>
    Number(b.knownDevice) - Number(a.knownDevice) || a.askedBefore - b.askedBefore || a.arrival - b.arrival;
  const mayStart = (knownDevice: boolean) => busy < max + (knownDevice ? reserved : 0);

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
    for (;;) {
      const eligible = line.filter((waiter) => mayStart(waiter.knownDevice));
      if (eligible.length === 0) return;
      const next = eligible.reduce((best, waiter) => (before(waiter, best) < 0 ? waiter : best));
      line.splice(line.indexOf(next), 1);
      next.admit(slot());
    }
  }

  return {
    /**
     * A slot for a sign-in from `client` (its address, clientKey), at once or after waiting its
     * turn; undefined (at once) when the client already waits with another sign-in, or the line is
     * full of clients whose previous requests came longer ago than this one's. `knownDeviceOf`: the
     * user whose valid device cookie the sign-in carries; unless another sign-in of theirs is
     * waiting or under way as a known browser's, it goes first and may take the reserved slot.
     */
    acquire(client: string, { knownDeviceOf }: { knownDeviceOf?: string | undefined } = {}): Promise<ReleaseSlot | undefined> {
      const key = keyOf(client);
      const userKey = knownDeviceOf === undefined ? undefined : keyOf("user", knownDeviceOf);
      const knownDevice = userKey !== undefined && !knownUsers.has(userKey);
      let finished = !knownDevice;
      if (knownDevice) knownUsers.add(userKey);
      // The user's known sign-in ends when it is turned away or its slot released.
      const finish = () => {
        if (!finished) knownUsers.delete(userKey!);
        finished = true;
      };
      const granted = (release: ReleaseSlot | undefined): ReleaseSlot | undefined => {
        if (!release) {
          finish();
          return undefined;
        }
        return () => {
          finish();
          release();
        };
      };
      const arrival = ++asks;
      // Forgotten entries are dropped once a minute, so looking for the oldest below walks past
      // only those that went stale since (lru-cache skips them, but keeps them until then).
      if (performance.now() - purgedAt >= 60_000) {
        purgedAt = performance.now();
        lastAsked.purgeStale();
      }
      // The least recently asked entry is the oldest: every ask sets its client's entry anew.
      const askedBefore = lastAsked.get(key) ?? lastAsked.rvalues().next().value ?? 0;
      lastAsked.set(key, arrival);
      // Nobody in line who would go first (waiters are only there while they may not start).
      const ahead = knownDevice ? line.some((waiter) => waiter.knownDevice) : line.length > 0;
      if (mayStart(knownDevice) && !ahead) return Promise.resolve(granted(slot()));
      if (line.some((waiter) => waiter.client === key)) return Promise.resolve(granted(undefined));
      return new Promise((resolve) => {
        const admit = (release: ReleaseSlot | undefined) => resolve(granted(release));
        const waiter: Waiter = { client: key, knownDevice, askedBefore, arrival, admit };
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
