// Operations on reports outside HTTP, for the CLI (`asset-delivery reports ...`) and tests. Bad
// input fails with an AdminError naming the field and rule.
import type { ReportType } from "@asset-delivery/sdk";
import { createAccountStore } from "../accounts/account-store";
import { accountsNamed, AdminError, asAdminError } from "../accounts/admin";
import type { Database } from "../store/database";
import { parseDay } from "../usage/days";
import { OPTIONAL_REPORT_TYPES, parseOptionalReportType, reportTypesFor } from "./availability";
import { createReportGenerator } from "./generator";
import type { StoredReport } from "./report-store";

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
  const date = asAdminError(() => parseDay(input.date));
  asAdminError(() => generator.checkReportable(date));
  return accountsNamed(db, input.account).map((account) => ({ account: account.name, reports: generator.generate(account, date) }));
}

/** Switches enterprise report types on or off for an account; returns the types it now receives. */
export function setReportTypes(
  db: Database,
  input: { account: string; enable?: readonly string[]; disable?: readonly string[] },
): ReportType[] {
  const [account] = accountsNamed(db, input.account);
  const enable = (input.enable ?? []).map((type) => asAdminError(() => parseOptionalReportType(type)));
  const disable = (input.disable ?? []).map((type) => asAdminError(() => parseOptionalReportType(type)));
  const both = enable.find((type) => disable.includes(type));
  if (both) throw new AdminError(`report type ${both}: cannot be both enabled and disabled`);
  const disabled = new Set(account!.disabledReports);
  enable.forEach((type) => disabled.delete(type));
  disable.forEach((type) => disabled.add(type));
  const updated = { ...account!, disabledReports: OPTIONAL_REPORT_TYPES.filter((type) => disabled.has(type)) };
  createAccountStore(db).update(updated);
  return reportTypesFor(updated);
}
