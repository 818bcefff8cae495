// Failed sign-ins counted where junk cannot push them out: a table of fixed size made once, indexed
// by an HMAC of the series' key (the email, the email from an address, ...), never a cache that a
// flood of new keys would make forget the victim's count. Each key has a cell in each of two rows
// (a count-min sketch): its count is the smaller of the two, so failures of a key that shares a cell
// can only make another look worse; a success takes its key's count back from both its cells
// (remove), which can lower a key sharing one of them, by at most that count. An attacker who does
// not know the HMAC's key can aim at neither.
// A cell's count decays by one failure every `decayEveryMs` whatever touches it, and reads 0 once
// its last failure is older than the series' memory. Without the decay, a flood that touches every
// cell more often than that memory would keep each cell alive and make every count climb (one an
// hour, a day: anyone's first try refused); with it, a cell climbs only while failures reach it
// faster than it decays, which the hashing slots' bound on checked passwords keeps a flood from
// doing (docs/dashboard.md).
// Memory: 16 bytes a cell, allocated at start, whatever is sent.
import { createHmac, createSecretKey, randomBytes } from "node:crypto";

export interface Failures {
  count: number;
  lastAt: number;
}

/**
 * Cells per row: 2^16, so 2 rows take 2 MiB (pages the OS gives only once touched). 60,000 junk
 * keys in an hour add about one failure to every cell, which decays within the hour.
 */
export const CELLS_PER_ROW = 2 ** 16;

/** Where a key's counts are: its cell in each row. */
export type Cells = readonly [number, number];

export type FailureTable = ReturnType<typeof createFailureTable>;

export interface FailureTableOptions {
  /** A cell whose last failure is this old counts 0. */
  forgetAfterMs: number;
  /** A cell loses one failure per this long (fractions in between). */
  decayEveryMs: number;
  cellsPerRow?: number;
}

export function createFailureTable({ forgetAfterMs, decayEveryMs, cellsPerRow = CELLS_PER_ROW }: FailureTableOptions) {
  const secret = createSecretKey(randomBytes(32));
  // The count as it was at lastAt: what it is now is that, less the decay since.
  const counts = new Float64Array(2 * cellsPerRow);
  const lastAt = new Float64Array(2 * cellsPerRow);
  const live = (cell: number, at: number) => {
    const age = at - lastAt[cell]!;
    return age < forgetAfterMs ? Math.max(0, counts[cell]! - age / decayEveryMs) : 0;
  };

  return {
    /** The key's cells: look them up once, then read and count through them. */
    cellsOf(key: string): Cells {
      const digest = createHmac("sha256", secret).update(key).digest();
      return [digest.readUInt32LE(0) % cellsPerRow, cellsPerRow + (digest.readUInt32LE(4) % cellsPerRow)];
    },
    /** The key's failures, a part-decayed one counting whole (at least its own, more if it shares cells with busier keys); undefined when none remembered. */
    get([a, b]: Cells, at: number): Failures | undefined {
      const cell = live(a, at) <= live(b, at) ? a : b;
      const count = Math.ceil(live(cell, at));
      return count === 0 ? undefined : { count, lastAt: lastAt[cell]! };
    },
    /** One more failure, now. */
    add(cells: Cells, at: number): void {
      for (const cell of cells) {
        counts[cell] = live(cell, at) + 1;
        lastAt[cell] = at;
      }
    },
    /** Takes `count` failures back (each cell down to 0 at least): a success gives them back. Its last failure's time stays. */
    remove(cells: Cells, count: number, at: number): void {
      for (const cell of cells) counts[cell] = live(cell, at) > count ? counts[cell]! - count : 0;
    },
  };
}
