// What the functions give, stated once below both the functions and their signatures
// (signatures.ts): each result's schema (the sdk's schemas) and its members' descriptors, and how
// many items a list function fetches by default.
import { z } from "zod";
import {
  describeFields,
  reportAttributesSchema,
  reportSchema,
  videoJobAttributesSchema,
  videoJobPhaseSchema,
  videoJobSchema,
  type FieldDescriptor,
} from "@asset-delivery/sdk";

/** How many items getSources and getReports fetch when `max` is not given. */
export const DEFAULT_MAX_RESULTS = 1000;

/** A report as the functions give it: its id and attributes, the sdk's schemas. */
export const reportResultSchema = z.object({ id: reportSchema.shape.id, ...reportAttributesSchema.shape });

/** The result's members, described by the sdk's rules: what the schema's report type lists. */
export const REPORT_RESULT_FIELDS: readonly FieldDescriptor[] = describeFields(reportResultSchema.shape);

const videoJob = videoJobAttributesSchema.shape;

/**
 * A job as the function gives it: its id and attributes (the sdk's schemas), with its phase, and
 * `result.url` (the spec's name) in place of the one-member `result`.
 */
export const videoJobResultSchema = z.object({
  id: videoJobSchema.shape.id,
  status: videoJob.status,
  phase: videoJobPhaseSchema,
  created_at: videoJob.created_at,
  updated_at: videoJob.updated_at,
  "result.url": videoJob.result.unwrap().shape.url.optional(),
  error: videoJob.error,
});

/** The result's members, described by the sdk's rules: what the schema's getVideoJob result lists. */
export const VIDEO_JOB_RESULT_FIELDS: readonly FieldDescriptor[] = describeFields(videoJobResultSchema.shape);
