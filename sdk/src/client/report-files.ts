// Report files (spec 2.4): gzipped CSV with a header row; a large report is split into several
// files, each with its own header. Parsing follows RFC 4180 (csv-parse).
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { parse } from "csv-parse/sync";
import {
  CREDIT_ANALYTICS_COLUMNS,
  creditAnalyticsRowSchema,
  describeIssues,
  fieldIssues,
  REPORT_FILE_SIZE_LIMIT,
  type CreditAnalyticsRow,
} from "../api";
import { ReportFormatError } from "./errors";

const gunzipAsync = promisify(gunzip);
const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * The file's bytes, gunzipped when they are gzip (a proxy may already have decoded them). The spec
 * limits a report file to 64 MB: more once decompressed is refused as soon as zlib has produced
 * that much, so a small gzip bomb cannot fill the memory.
 */
export async function gunzipIfCompressed(bytes: Buffer, file: string, maxBytes: number = REPORT_FILE_SIZE_LIMIT): Promise<Buffer> {
  const tooLarge = () =>
    new ReportFormatError(
      `file ${file}`,
      `is larger than ${maxBytes / 1024 / 1024} MB decompressed; the API limits report files to ${REPORT_FILE_SIZE_LIMIT / 1024 / 1024} MB`,
    );
  if (bytes[0] !== GZIP_MAGIC[0] || bytes[1] !== GZIP_MAGIC[1]) {
    if (bytes.length > maxBytes) throw tooLarge();
    return bytes;
  }
  try {
    return await gunzipAsync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
    throw new ReportFormatError(`file ${file}`, `is not valid gzip (${(error as Error).message})`);
  }
}

export interface CsvTable {
  header: string[];
  rows: Record<string, string>[];
}

export function parseCsv(text: Buffer, file: string): CsvTable {
  let header: string[] = [];
  let rows: Record<string, string>[];
  try {
    rows = parse<Record<string, string>>(text, {
      bom: true,
      columns: (names: string[]) => (header = names),
      skip_empty_lines: true,
    });
  } catch (error) {
    throw new ReportFormatError(`file ${file}`, `is not valid CSV (${(error as Error).message})`);
  }
  if (header.length === 0) throw new ReportFormatError(`file ${file}`, "has no header row");
  const repeated = header.find((name, index) => header.indexOf(name) !== index);
  if (repeated !== undefined) throw new ReportFormatError(`file ${file}`, `header names column "${repeated}" twice`);
  return { header, rows };
}

/** The rows of all the files of one report, in order; every file must have the same header. */
export function joinTables(tables: readonly { file: string; table: CsvTable }[]): CsvTable {
  const first = tables[0];
  if (!first) return { header: [], rows: [] };
  for (const { file, table } of tables.slice(1)) {
    if (table.header.join("\u0000") !== first.table.header.join("\u0000")) {
      throw new ReportFormatError(
        `file ${file}`,
        `header (${table.header.join(",")}) differs from the first file's (${first.table.header.join(",")})`,
      );
    }
  }
  return { header: first.table.header, rows: tables.flatMap(({ table }) => table.rows) };
}

/** The table of a report from the bytes of its files (gzipped or not), in order. */
export async function reportTable(files: readonly { file: string; bytes: Buffer }[]): Promise<CsvTable> {
  return joinTables(
    await Promise.all(files.map(async ({ file, bytes }) => ({ file, table: parseCsv(await gunzipIfCompressed(bytes, file), file) }))),
  );
}

/** The rows of a credit-analytics report's table, with numbers for the credit columns. */
export function creditRowsOf(reportKey: string, { header, rows }: CsvTable): CreditAnalyticsRow[] {
  const missing = CREDIT_ANALYTICS_COLUMNS.filter((column) => !header.includes(column));
  if (header.length > 0 && missing.length > 0) throw new ReportFormatError(reportKey, `lacks the credit columns ${missing.join(", ")}`);
  return rows.map((row, index) => {
    const parsed = creditAnalyticsRowSchema.safeParse(row);
    if (parsed.success) return parsed.data;
    throw new ReportFormatError(reportKey, `row ${index + 1}: ${describeIssues(fieldIssues(parsed.error))}`);
  });
}
