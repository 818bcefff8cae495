// The password-hashing slots (server/src/dashboard/users/hashing-slots.ts): 2 at once, and a line
// served by whose previous request came longest ago, so addresses that keep asking never keep a
// quiet one out.
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
    const got = await settled(third);
    expect(got).not.toBe("pending");
    expect(await settled(slots.acquire("d"), A_MINUTE)).toBe("pending");
    second();
  });

  it("serves first whoever asked longest ago before, not the first in line: a flooding address goes behind quiet ones", async () => {
    const slots = createHashingSlots({ max: 1, maxWaiting: 10 });
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
    const holding = (await slots.acquire("flood"))!;
    // The flood asks again and again (one of its requests waits, the others are turned away), then
    // two quiet addresses ask for the first time.
    const first = inLine(["flood", "flood", "flood", "quiet-1", "quiet-2"]);
    holding();
    await first;
    expect(order).toEqual(["quiet-1", "quiet-2", "flood"]);

    // Later: the flood still asking, quiet-1 again after a while, a newcomer. Never asked first, then
    // the one whose previous request is oldest.
    order.length = 0;
    const again = (await slots.acquire("flood"))!;
    const second = inLine(["flood", "quiet-1", "newcomer"]);
    again();
    await second;
    expect(order).toEqual(["newcomer", "quiet-1", "flood"]);
  });

  it("lets each client wait with one sign-in, and turns away whoever asked most recently before when the line is full", async () => {
    const slots = createHashingSlots({ max: 1, maxWaiting: 2 });
    const holding = (await slots.acquire("busy"))!;
    const waitingBusy = slots.acquire("busy"); // busy asked just before
    expect(await settled(slots.acquire("busy"))).toEqual({ value: undefined }); // already waiting
    const waitingOther = slots.acquire("other");
    // The line is full: a client asking for the first time takes the place of the one that asked just before...
    const quiet = slots.acquire("quiet");
    expect(await settled(waitingBusy)).toEqual({ value: undefined });
    // ...and among clients asking for the first time, the last to come is the one turned away.
    expect(await settled(slots.acquire("late"))).toEqual({ value: undefined });
    expect(await settled(waitingOther, A_MINUTE)).toBe("pending");
    expect(await settled(quiet, A_MINUTE)).toBe("pending");
    holding();
    (await waitingOther)!();
    (await quiet)!();
  });
});
