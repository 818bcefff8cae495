// Operations on reports and usage outside HTTP, for the CLI (`asset-delivery reports ...`,
// `asset-delivery usage ...`) and tests. Bad input fails with an AdminError naming the field and rule.
import type { ReportType } from "@asset-delivery/sdk";
import { createAccountStore, type Account } from "../accounts/account-store";
import { AdminError } from "../admin";
import type { Database } from "../store/database";
import { OPTIONAL_REPORT_TYPES, parseOptionalReportType, reportTypesFor } from "./availability";
import { createReportGenerator } from "./generator";
import { createLedger } from "./ledger";
import { addDays, parseReportDate, yesterdayOf, type ReportDate } from "./periods";
import type { StoredReport } from "./report-store";
import { sampleUsage } from "./seed";
import { parseUsageLines } from "./usage-event";

function adminError<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) throw new AdminError(error.message);
    throw error;
  }
}

function accountsNamed(db: Database, name: string | undefined): Account[] {
  const accounts = createAccountStore(db);
  if (name === undefined) return accounts.list();
  const account = accounts.findByName(name);
  if (!account) throw new AdminError(`account "${name}" does not exist`);
  return [account];
}

export interface GenerateReportsInput {
  /** YYYY-MM-DD, a UTC day that is over and within retention. */
  date: string;
  /** Only this account; default every account. */
  account?: string;
  dataDir: string;
  now?: () => number;
  fileSizeLimit?: number;
}

/** Generates (idempotently) the day's reports of one or every account. */
export function generateReports(db: Database, input: GenerateReportsInput): { account: string; reports: StoredReport[] }[] {
  const generator = createReportGenerator({ db, dataDir: input.dataDir, now: input.now ?? Date.now, fileSizeLimit: input.fileSizeLimit });
  const date = adminError(() => parseReportDate(input.date));
  adminError(() => generator.checkReportable(date));
  return accountsNamed(db, input.account).map((account) => ({ account: account.name, reports: generator.generate(account, date) }));
}

/** Adds the usage events of a JSON-lines text to the ledger; all or none. Returns how many. */
export function importUsage(db: Database, text: string): number {
  const events = adminError(() => parseUsageLines(text));
  adminError(() => createLedger(db).record(events));
  return events.length;
}

export interface SeedUsageInput {
  /** How many days, ending yesterday (UTC). */
  days: number;
  account?: string;
  requestsPerDay?: number;
  now?: () => number;
}

/**
 * Replaces the seeded sample usage of the account's (or every account's) Sources on the last
 * `days` days. Returns the number of events and the days covered.
 */
export function seedUsage(db: Database, input: SeedUsageInput): { events: number; days: ReportDate[]; sources: number } {
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > 366) throw new AdminError("days: must be an integer from 1 to 366");
  const last = yesterdayOf((input.now ?? Date.now)());
  const days = Array.from({ length: input.days }, (_, i) => addDays(last, i - input.days + 1));
  const sourceIdsOf = db.prepare<[string], string>("SELECT id FROM sources WHERE account_id = ? ORDER BY id").pluck();
  const sourceIds = accountsNamed(db, input.account).flatMap((account) => sourceIdsOf.all(account.id));
  if (sourceIds.length === 0) throw new AdminError("no Sources to seed usage for: create a Source first");
  const events = adminError(() => sampleUsage({ sourceIds, days, requestsPerDay: input.requestsPerDay ?? 400 }));
  createLedger(db).replaceSeeded(sourceIds, days, events);
  return { events: events.length, days, sources: sourceIds.length };
}

/** Switches enterprise report types on or off for an account; returns the types it now receives. */
export function setReportTypes(
  db: Database,
  input: { account: string; enable?: readonly string[]; disable?: readonly string[] },
): ReportType[] {
  const [account] = accountsNamed(db, input.account);
  const enable = (input.enable ?? []).map((type) => adminError(() => parseOptionalReportType(type)));
  const disable = (input.disable ?? []).map((type) => adminError(() => parseOptionalReportType(type)));
  const both = enable.find((type) => disable.includes(type));
  if (both) throw new AdminError(`report type ${both}: cannot be both enabled and disabled`);
  const disabled = new Set(account!.disabledReports);
  enable.forEach((type) => disabled.delete(type));
  disable.forEach((type) => disabled.add(type));
  const updated = { ...account!, disabledReports: OPTIONAL_REPORT_TYPES.filter((type) => disabled.has(type)) };
  createAccountStore(db).update(updated);
  return reportTypesFor(updated);
}
