// Reports (spec 2.4): the resource, its types and the credit-analytics columns.
import { z } from "zod";

export const REPORT_TYPES = [
  "cdn_logs",
  "credit_analytics_daily",
  "credit_analytics_mtd",
  "image_analytics",
  "mild_errors",
  "source_analytics",
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/** Files over this size are split (spec 8). */
export const REPORT_FILE_SIZE_LIMIT = 64 * 1024 * 1024;
export const REPORT_RETENTION_DAYS = 90;

// The attributes of spec 2.4; a description is what the plugin's schema and docs say of the field.
export const reportAttributesSchema = z.object({
  completed: z.boolean(),
  files: z.array(z.string()).describe("URLs of the report's files."),
  period_end: z.int().describe("Unix time."),
  period_start: z.int().describe("Unix time."),
  report_key: z
    .string()
    .regex(/^[a-z_]+_\d{8}$/)
    .describe("`<report_type>_<yyyymmdd>`."),
  report_type: z.enum(REPORT_TYPES),
});

export const reportSchema = z.object({
  id: z.string(),
  type: z.literal("reports"),
  attributes: reportAttributesSchema,
  relationships: z.object({ account: z.object({ data: z.object({ id: z.string(), type: z.literal("accounts") }) }) }).optional(),
});
export type Report = z.output<typeof reportSchema>;

/** A Report as returned for a request with `fields[reports]`: only the selected attributes are present. */
export const selectedReportSchema = reportSchema.extend({ attributes: reportAttributesSchema.partial() });
export type SelectedReport = z.output<typeof selectedReportSchema>;
export type ReportAttributes = z.output<typeof reportAttributesSchema>;

/** The credit-analytics CSV columns, in the order of the spec. */
export const CREDIT_COLUMNS = [
  "total_credits",
  "standard_renders_credits",
  "advanced_renders_credits",
  "premium_renders_credits",
  "storage_credits",
  "delivery_bandwidth_credits",
  "cache_reads_credits",
  "premium_video_encoding_seconds_credits",
  "video_smartcropping_seconds_credits",
  "video_preview_seconds_credits",
  "video_ai_interpolation_seconds_credits",
  "video_vmaf_encoded_seconds_credits",
  "video_render_cache_credits",
  "specialized_transformations_credits",
] as const;
export const CREDIT_ANALYTICS_COLUMNS = ["timestamp", "source_id", "source_name", ...CREDIT_COLUMNS] as const;

/** Columns the spec says currently report 0. */
export const ALWAYS_ZERO_CREDIT_COLUMNS = [
  "video_ai_interpolation_seconds_credits",
  "video_vmaf_encoded_seconds_credits",
  "video_render_cache_credits",
] as const;

/** One parsed credit-analytics row: `timestamp` a YYYY-MM-DD date, credits as numbers. */
export const creditAnalyticsRowSchema = z.object({
  timestamp: z.iso.date(),
  source_id: z.string(),
  source_name: z.string(),
  ...Object.fromEntries(CREDIT_COLUMNS.map((column) => [column, z.coerce.number()])),
}) as unknown as z.ZodType<CreditAnalyticsRow, Record<(typeof CREDIT_ANALYTICS_COLUMNS)[number], string>>;
export type CreditAnalyticsRow = { timestamp: string; source_id: string; source_name: string } & {
  [C in (typeof CREDIT_COLUMNS)[number]]: number;
};
