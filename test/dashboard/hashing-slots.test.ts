// The password-hashing slots (server/src/dashboard/users/hashing-slots.ts): 2 at once (and one
// more for sign-ins with a valid device cookie), and a line served by whose previous request came
// longest ago, a client it does not know ranked level with the oldest it knows: addresses that keep
// asking never keep a quiet one out, and addresses that keep being new no longer go ahead of all.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHashingSlots } from "../../server/src/dashboard/users/hashing-slots";

/** A minute: what a sign-in's wait is checked over, on fake timers. */
const A_MINUTE = 60_000;

/**
 * Whether the promise has settled once `ms` of fake time has passed (every timer due meanwhile
 * run, and the callbacks they queued), and with what; 0: at once, with no time passing.
 */
async function settled<T>(promise: Promise<T>, ms = 0): Promise<{ value: T } | "pending"> {
  let result: { value: T } | "pending" = "pending";
  void promise.then((value) => (result = { value }));
  await vi.advanceTimersByTimeAsync(ms);
  return result;
}

/** The release of a slot granted once `ms` of fake time has passed: fails while the sign-in waits, and when it was turned away. */
async function granted(acquiring: Promise<(() => void) | undefined>, ms = 0): Promise<() => void> {
  const result = await settled(acquiring, ms);
  expect(result, "a slot granted (a release), not a wait or a refusal").toEqual({ value: expect.any(Function) });
  return (result as { value: () => void }).value;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("createHashingSlots", () => {
  it("hands out 2 slots at once; a third sign-in waits for one to be released, a minute and more", async () => {
    const slots = createHashingSlots();
    const first = (await slots.acquire("a"))!;
    const second = (await slots.acquire("b"))!;
    const third = slots.acquire("c");
    expect(await settled(third, A_MINUTE)).toBe("pending");
    first();
    first(); // a second call releases nothing more
    const releaseThird = await granted(third);
    expect(await settled(slots.acquire("d"), A_MINUTE)).toBe("pending");
    second();
    releaseThird();
  });

  it("serves first whoever asked longest ago before, not the first in line: a flooding address goes behind quiet ones", async () => {
    const slots = createHashingSlots({ max: 1, reserved: 0, maxWaiting: 10 });
    const order: string[] = [];
    // Each, when served, notes its turn and releases at once.
    const inLine = (clients: string[]) =>
      Promise.all(
        clients.map((client) =>
          slots.acquire(client).then((release) => {
            if (release) order.push(client);
            release?.();
          }),
        ),
      );
    // Two people signed in once, a while ago.
    for (const client of ["quiet-1", "quiet-2"]) (await slots.acquire(client))!();
    const holding = (await slots.acquire("flood"))!;
    // The flood asks again and again (one of its requests waits, the others are turned away), then
    // the two quiet addresses ask again.
    const first = inLine(["flood", "flood", "flood", "quiet-1", "quiet-2"]);
    holding();
    await first;
    expect(order).toEqual(["quiet-1", "quiet-2", "flood"]);

    // Later: the flood still asking, quiet-1 again: whoever asked longest ago before goes first.
    order.length = 0;
    const again = (await slots.acquire("flood"))!;
    const second = inLine(["flood", "quiet-1"]);
    again();
    await second;
    expect(order).toEqual(["quiet-1", "flood"]);
  });

  it("lets each client wait with one sign-in, and turns away whoever asked most recently before when the line is full", async () => {
    const slots = createHashingSlots({ max: 1, reserved: 0, maxWaiting: 2 });
    (await slots.acquire("quiet"))!(); // asked once, long ago
    const holding = (await slots.acquire("busy"))!;
    const waitingBusy = slots.acquire("busy"); // busy asked just before
    expect(await settled(slots.acquire("busy"))).toEqual({ value: undefined }); // already waiting
    const waitingOther = slots.acquire("other");
    // The line is full: a client that asked long ago takes the place of the one that asked just before...
    const quiet = slots.acquire("quiet");
    expect(await settled(waitingBusy)).toEqual({ value: undefined });
    // ...and a client asking for the first time, ranked as the oldest known, comes after those in line.
    expect(await settled(slots.acquire("late"))).toEqual({ value: undefined });
    expect(await settled(waitingOther, A_MINUTE)).toBe("pending");
    expect(await settled(quiet, A_MINUTE)).toBe("pending");
    holding();
    (await waitingOther)!(); // new, so ranked with quiet's ask long ago, and in line before it
    (await quiet)!();
  });
});

describe("a client the line does not know", () => {
  it("ranks level with the oldest it knows, not ahead of everyone: fresh clients that come after the oldest returning one wait behind it", async () => {
    const slots = createHashingSlots({ max: 1, reserved: 0, maxWaiting: 10 });
    const order: string[] = [];
    const served = (client: string) =>
      slots.acquire(client).then((release) => {
        if (release) order.push(client);
        release?.();
      });
    (await slots.acquire("returning"))!(); // asked once, long ago: the oldest the line knows
    const holding = (await slots.acquire("flood"))!;
    const waiting = [served("fresh-1"), served("returning"), served("fresh-2"), served("fresh-3")];
    holding();
    await Promise.all(waiting);
    // Ranked as "never asked", each fresh client would go first: fresh-1, fresh-2, fresh-3, returning.
    expect(order).toEqual(["fresh-1", "returning", "fresh-2", "fresh-3"]);
  });
});

describe("the slot kept for known browsers", () => {
  it("lets a sign-in with a valid device cookie start while the other slots are busy and others wait", async () => {
    const slots = createHashingSlots({ max: 2, reserved: 1, maxWaiting: 10 });
    const busy = [(await slots.acquire("flood-1"))!, (await slots.acquire("flood-2"))!];
    const waiting = slots.acquire("flood-3");
    expect(await settled(waiting, A_MINUTE)).toBe("pending");
    const known = await granted(slots.acquire("user", { knownDeviceOf: "user-1" }));
    // Released, the kept slot goes to no one without a device cookie: flood-3 still waits for one of the others.
    known();
    expect(await settled(waiting, A_MINUTE)).toBe("pending");
    busy[0]!();
    (await granted(waiting))();
    busy[1]!();
  });
});

describe("a user's known browser", () => {
  it("goes first for one sign-in of that user at a time: an account signing in again and again cannot make every slot its own", async () => {
    const slots = createHashingSlots({ max: 2, reserved: 1, maxWaiting: 10 });
    const holding = (await slots.acquire("other"))!;
    const first = await granted(slots.acquire("net-1", { knownDeviceOf: "mallory" }));
    const stranger = slots.acquire("stranger");
    expect(await settled(stranger, A_MINUTE)).toBe("pending");
    // Mallory signs in again, from another network, while her first sign-in is under way: she waits
    // as anyone does, behind the stranger, and the kept slot stays free.
    const again = slots.acquire("net-2", { knownDeviceOf: "mallory" });
    expect(await settled(again, A_MINUTE)).toBe("pending");
    holding();
    const strangerSlot = await granted(stranger);
    expect(await settled(again, A_MINUTE)).toBe("pending");
    strangerSlot();
    const second = await granted(again);
    // Both done: her next sign-in is a known browser's again, and may take the kept slot.
    first();
    second();
    const busy = [(await slots.acquire("busy-1"))!, (await slots.acquire("busy-2"))!];
    (await granted(slots.acquire("net-3", { knownDeviceOf: "mallory" })))();
    for (const release of busy) release();
  });
});
