// A report's table as gzipped CSV files, each beginning with the header row. The spec limits a
// file to 64 MB without saying whether compressed: each file here is within the limit both as CSV
// and gzipped, so a client that bounds the decompressed size (the sdk does) accepts every file.
import { gzipSync } from "node:zlib";
import { csvLine } from "./csv";
import type { Table } from "./tables";

// Node's gzip writes no file name and a zero mtime, so equal input gives equal bytes.
const GZIP_OPTIONS = { level: 6 } as const;

/**
 * The most CSV bytes whose gzip is sure to fit `limitBytes`: zlib's worst case (deflateBound:
 * n + n/4096 + n/16384 + n/2^25 + 13) plus gzip's 18 bytes of header and trailer.
 */
function csvBudget(limitBytes: number): number {
  return Math.floor((limitBytes - 31) / (1 + 1 / 4096 + 1 / 16384 + 1 / 2 ** 25));
}

/** Splits the rows, in order, into as few files as fit the limit (deterministic). */
export function encodeReportFiles(table: Table, limitBytes: number): Buffer[] {
  const budget = csvBudget(limitBytes);
  const header = Buffer.from(csvLine(table.columns));
  const files: Buffer[] = [];
  let part: Buffer[] = [];
  let size = header.length;
  table.rows.forEach((row, index) => {
    const line = Buffer.from(csvLine(row));
    if (header.length + line.length > budget) {
      throw new RangeError(`report file size limit of ${limitBytes} bytes is too small to hold the header and row ${index + 1}`);
    }
    if (size + line.length > budget) {
      files.push(gzipSync(Buffer.concat([header, ...part]), GZIP_OPTIONS));
      part = [];
      size = header.length;
    }
    part.push(line);
    size += line.length;
  });
  files.push(gzipSync(Buffer.concat([header, ...part]), GZIP_OPTIONS));
  return files;
}
