// Operations on the usage ledger outside HTTP, for the CLI (`asset-delivery usage ...`) and tests.
// Bad input fails with an AdminError naming the field and rule.
import { accountsNamed, AdminError, asAdminError } from "../accounts/admin";
import type { Database } from "../store/database";
import { addDays, yesterdayOf, type UtcDay } from "./days";
import { parseUsageLines } from "./event";
import { createLedger } from "./ledger";
import { sampleUsage } from "./seed";

/** Adds the usage events of a JSON-lines text to the ledger; all or none. Returns how many. */
export function importUsage(db: Database, text: string): number {
  const events = asAdminError(() => parseUsageLines(text));
  asAdminError(() => createLedger(db).record(events));
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
export function seedUsage(db: Database, input: SeedUsageInput): { events: number; days: UtcDay[]; sources: number } {
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > 366) throw new AdminError("days: must be an integer from 1 to 366");
  const last = yesterdayOf((input.now ?? Date.now)());
  const days = Array.from({ length: input.days }, (_, i) => addDays(last, i - input.days + 1));
  const sourceIdsOf = db.prepare<[string], string>("SELECT id FROM sources WHERE account_id = ? ORDER BY id").pluck();
  const sourceIds = accountsNamed(db, input.account).flatMap((account) => sourceIdsOf.all(account.id));
  if (sourceIds.length === 0) throw new AdminError("no Sources to seed usage for: create a Source first");
  const events = asAdminError(() => sampleUsage({ sourceIds, days, requestsPerDay: input.requestsPerDay ?? 400 }));
  createLedger(db).replaceSeeded(sourceIds, days, events);
  return { events: events.length, days, sources: sourceIds.length };
}
