// A report's table as gzipped CSV files: each at most `limitBytes` compressed (the spec limits
// files, and a file is what is downloaded), each beginning with the header row.
import { gzipSync } from "node:zlib";
import { csvLine } from "./csv";
import type { Table } from "./tables";

// Node's gzip writes no file name and a zero mtime, so equal input gives equal bytes.
const GZIP_OPTIONS = { level: 6 } as const;

function gzipPart(header: Buffer, lines: readonly Buffer[]): Buffer {
  return gzipSync(Buffer.concat([header, ...lines]), GZIP_OPTIONS);
}

/**
 * Splits the rows into as few files as fit the limit. The largest number of rows that fits is
 * found by binary search on the compressed size, so the split is deterministic.
 */
export function encodeReportFiles(table: Table, limitBytes: number): Buffer[] {
  const header = Buffer.from(csvLine(table.columns));
  const lines = table.rows.map((row) => Buffer.from(csvLine(row)));
  const whole = gzipPart(header, lines);
  if (whole.length <= limitBytes) return [whole];

  const files: Buffer[] = [];
  let start = 0;
  while (start < lines.length) {
    let fits = 0;
    let fitting: Buffer | undefined;
    let low = 1;
    let high = lines.length - start;
    while (low <= high) {
      const count = Math.floor((low + high) / 2);
      const part = gzipPart(header, lines.slice(start, start + count));
      if (part.length <= limitBytes) {
        fits = count;
        fitting = part;
        low = count + 1;
      } else high = count - 1;
    }
    if (!fitting) {
      throw new RangeError(`report file size limit of ${limitBytes} bytes is too small to hold the header and row ${start + 1}`);
    }
    files.push(fitting);
    start += fits;
  }
  return files;
}
