// Failed sign-ins counted where junk cannot push them out: a table of fixed size made once, indexed
// by an HMAC of the series' key (the email, the email from an address, ...), never a cache that a
// flood of new keys would make forget the victim's count. Each key has a cell in each of two rows
// (a count-min sketch): its count is the smaller of the two, so failures of a key that shares a cell
// can only make another look worse; a success takes its key's count back from both its cells
// (remove), which can lower a key sharing one of them, by at most that count. An attacker who does
// not know the HMAC's key can aim at neither. A cell whose last failure is older than the series'
// memory counts as 0.
// Memory: 12 bytes a cell, allocated at start, whatever is sent.
import { createHmac, createSecretKey, randomBytes } from "node:crypto";

export interface Failures {
  count: number;
  lastAt: number;
}

/**
 * Cells per row: 2^16, so 2 rows take 1.5 MiB (pages the OS gives only once touched). 60,000 junk
 * keys in an hour add about one failure to every cell: a user's count may read one too many.
 */
export const CELLS_PER_ROW = 2 ** 16;

/** Where a key's counts are: its cell in each row. */
export type Cells = readonly [number, number];

export type FailureTable = ReturnType<typeof createFailureTable>;

export function createFailureTable(forgetAfterMs: number, cellsPerRow = CELLS_PER_ROW) {
  const secret = createSecretKey(randomBytes(32));
  const counts = new Uint32Array(2 * cellsPerRow);
  const lastAt = new Float64Array(2 * cellsPerRow);
  const live = (cell: number, at: number) => (at - lastAt[cell]! < forgetAfterMs ? counts[cell]! : 0);

  return {
    /** The key's cells: look them up once, then read and count through them. */
    cellsOf(key: string): Cells {
      const digest = createHmac("sha256", secret).update(key).digest();
      return [digest.readUInt32LE(0) % cellsPerRow, cellsPerRow + (digest.readUInt32LE(4) % cellsPerRow)];
    },
    /** The key's failures (at least its own, more if it shares cells with busier keys); undefined when none remembered. */
    get([a, b]: Cells, at: number): Failures | undefined {
      const cell = live(a, at) <= live(b, at) ? a : b;
      const count = live(cell, at);
      return count === 0 ? undefined : { count, lastAt: lastAt[cell]! };
    },
    /** One more failure, now. */
    add(cells: Cells, at: number): void {
      for (const cell of cells) {
        counts[cell] = live(cell, at) + 1;
        lastAt[cell] = at;
      }
    },
    /** Takes `count` failures back (each cell down to 0 at least): a success gives them back. */
    remove(cells: Cells, count: number, at: number): void {
      for (const cell of cells) counts[cell] = Math.max(0, live(cell, at) - count);
    },
  };
}
