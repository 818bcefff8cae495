// What every CLI command shares: its shape, usage errors, and the settings read from flags or
// environment variables (a flag wins over the variable, the variable over the default).
import * as path from "node:path";
import { domainNameSchema, parseDuration } from "@asset-delivery/sdk";

export interface Command {
  /** One line for the command list. */
  summary: string;
  /** Full usage text, shown by `asset-delivery <command> --help` and after a usage error. */
  usage: string;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

/** The flags of the commands that work on a stack's Sources (drift, import): parseArgs options. */
export const STACK_SOURCE_OPTIONS = {
  stack: { type: "string" },
  cwd: { type: "string" },
  format: { type: "string" },
  filter: { type: "string", multiple: true },
} as const;

/** Wrong arguments: the message and the command's usage are printed, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export const DEFAULT_DB = path.join(".data", "asset-delivery.db");

/** The database file: --db, else ASSET_DELIVERY_DB, else .data/asset-delivery.db under the current folder. */
export function databasePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag ?? env.ASSET_DELIVERY_DB ?? DEFAULT_DB);
}

/** A whole number from a flag or variable, refused with the name of where it came from. */
export function integerSetting(value: string | undefined, name: string, fallback: number, range: { min: number; max: number }): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
    throw new UsageError(`${name}: must be a whole number from ${range.min} to ${range.max} (got "${value}")`);
  }
  return Number(value);
}

/** A number (decimals allowed) from a flag or variable, refused with the name of where it came from. */
export function fractionSetting(value: string | undefined, name: string, fallback: number, range: { min: number; max: number }): number {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
    throw new UsageError(`${name}: must be a number from ${range.min} to ${range.max} (got "${value}")`);
  }
  return Number(value);
}

/** A domain name (the sdk's rule for domain names) from a flag or variable, refused with the name of where it came from; unset: undefined. */
export function domainSetting(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === "") return undefined;
  const parsed = domainNameSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`${name}: ${parsed.error.issues[0]!.message} (got "${value}")`);
  return parsed.data;
}

/** A duration (the sdk's `parseDuration`: `90s`, `10m`, `2h`) in milliseconds, from 1 s to a day; unset: undefined. */
export function durationSetting(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const ms = parseDuration(value);
  if (ms === undefined || ms < 1_000 || ms > 86_400_000)
    throw new UsageError(`${name}: must be a duration from 1s to 24h such as 90s, 10m or 2h (got "${value}")`);
  return ms;
}

export function oneOfSetting<T extends string>(value: string | undefined, name: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === "") return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${name}: must be one of ${allowed.join(", ")} (got "${value}")`);
  return value as T;
}

/** Prints rows as aligned columns under a header. */
export function printTable(header: string[], rows: string[][], out: NodeJS.WritableStream = process.stdout): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)));
  for (const row of [header, ...rows])
    out.write(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd() + "\n",
    );
}

export function isoDate(unixSeconds: number | null): string {
  return unixSeconds === null ? "-" : new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
