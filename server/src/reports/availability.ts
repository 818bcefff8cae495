// Which report types an account receives (spec 2.4, "Availability").
import { REPORT_TYPES, type ReportType } from "@asset-delivery/sdk";

export interface ReportSubscriber {
  plan: string;
  /** Enterprise report types switched off for this account. */
  disabledReports: readonly string[];
}

/** The enterprise types, each of which an account may switch off. */
export const OPTIONAL_REPORT_TYPES = REPORT_TYPES.filter((type) => type !== "image_analytics");

const CREDIT_TYPES: readonly ReportType[] = ["credit_analytics_daily", "credit_analytics_mtd"];

/**
 * image_analytics for every paid or enterprise account; the other types for enterprise accounts
 * unless switched off. Credit analytics come only with source_analytics (spec 2.4).
 */
export function reportTypesFor(account: ReportSubscriber): ReportType[] {
  if (account.plan !== "paid" && account.plan !== "enterprise") return [];
  if (account.plan === "paid") return ["image_analytics"];
  const enabled = (type: ReportType) => !account.disabledReports.includes(type);
  return REPORT_TYPES.filter((type) => {
    if (type === "image_analytics") return true;
    if (CREDIT_TYPES.includes(type)) return enabled(type) && enabled("source_analytics");
    return enabled(type);
  });
}

/** Checks a type named for `--enable`/`--disable`; the error names the rule. */
export function parseOptionalReportType(text: string): ReportType {
  if (text === "image_analytics") throw new RangeError("image_analytics is part of every paid plan and cannot be switched off");
  if (!(OPTIONAL_REPORT_TYPES as readonly string[]).includes(text)) {
    throw new RangeError(`report type: must be one of ${OPTIONAL_REPORT_TYPES.join(", ")} (got "${text}")`);
  }
  return text as ReportType;
}
