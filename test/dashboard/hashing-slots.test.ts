// The password-hashing slots (server/src/dashboard/users/hashing-slots.ts): 2 at once, and a line
// served by who was served longest ago, so a crowd of busy addresses never keeps a quiet one out.
import { describe, expect, it } from "vitest";
import { createHashingSlots } from "../../server/src/dashboard/users/hashing-slots";

/** Whether the promise has settled by the time queued callbacks have run, and with what. */
async function settled<T>(promise: Promise<T>): Promise<{ value: T } | "pending"> {
  let result: { value: T } | "pending" = "pending";
  void promise.then((value) => (result = { value }));
  await new Promise((resolve) => setImmediate(resolve));
  return result;
}

describe("createHashingSlots", () => {
  it("hands out 2 slots at once; a third sign-in waits for one to be released", async () => {
    const slots = createHashingSlots();
    const first = (await slots.acquire("a"))!;
    const second = (await slots.acquire("b"))!;
    const third = slots.acquire("c");
    expect(await settled(third)).toBe("pending");
    first();
    first(); // a second call releases nothing more
    const got = await settled(third);
    expect(got).not.toBe("pending");
    expect(await settled(slots.acquire("d"))).toBe("pending");
    second();
  });

  it("serves the client served longest ago first, not the first in line: a quiet address goes ahead of a crowd", async () => {
    const slots = createHashingSlots({ max: 1, maxWaiting: 10 });
    const order: string[] = [];
    // Each, when served, notes its turn and releases at once.
    const inLine = (clients: string[]) =>
      Promise.all(
        clients.map((client) =>
          slots.acquire(client).then((release) => {
            order.push(client);
            release!();
          }),
        ),
      );
    const holding = (await slots.acquire("crowd-1"))!; // crowd-1 is served now
    const first = inLine(["crowd-1", "crowd-2", "quiet"]);
    holding();
    await first;
    expect(order).toEqual(["crowd-2", "quiet", "crowd-1"]);

    // Served in that order; crowd-2 again now. The next line: never served first, then longest ago.
    order.length = 0;
    const again = (await slots.acquire("crowd-2"))!;
    const second = inLine(["crowd-1", "quiet", "newcomer"]);
    again();
    await second;
    expect(order).toEqual(["newcomer", "quiet", "crowd-1"]);
  });

  it("lets each client wait with one sign-in, and turns away the most recently served when the line is full", async () => {
    const slots = createHashingSlots({ max: 1, maxWaiting: 2 });
    const holding = (await slots.acquire("busy"))!;
    const waitingBusy = slots.acquire("busy"); // busy was served just now
    expect(await settled(slots.acquire("busy"))).toEqual({ value: undefined }); // already waiting
    const waitingOther = slots.acquire("other");
    // The line is full: a never-served client takes the place of the most recently served one...
    const quiet = slots.acquire("quiet");
    expect(await settled(waitingBusy)).toEqual({ value: undefined });
    // ...and among clients never served, the last to come is the one turned away.
    expect(await settled(slots.acquire("late"))).toEqual({ value: undefined });
    expect(await settled(waitingOther)).toBe("pending");
    expect(await settled(quiet)).toBe("pending");
    holding();
    (await waitingOther)!();
    (await quiet)!();
  });
});
