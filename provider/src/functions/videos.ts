// getVideoJob: the state of an image-to-video generation job, read with the caller's client (the
// program-side forms are in program-forms.ts).
import { z } from "zod";
import {
  describeFields,
  videoJobAttributesSchema,
  videoJobPhase,
  videoJobPhaseSchema,
  videoJobSchema,
  type AssetDeliveryClient,
  type FieldDescriptor,
  type VideoJob,
} from "@asset-delivery/sdk";
import { camelMembers, type CamelNamed } from "../pulumi-names/rename";

const attributes = videoJobAttributesSchema.shape;

/**
 * A job as the function gives it: its id and attributes (the sdk's schemas), with its phase, and
 * `result.url` (the spec's name) in place of the one-member `result`.
 */
const videoJobResultSchema = z.object({
  id: videoJobSchema.shape.id,
  status: attributes.status,
  phase: videoJobPhaseSchema,
  created_at: attributes.created_at,
  updated_at: attributes.updated_at,
  "result.url": attributes.result.unwrap().shape.url.optional(),
  error: attributes.error,
});
const VIDEO_JOB_RESULT_KEYS = videoJobResultSchema.keyof().options;

/** A job under the resource's camelCase names (`createdAt`, `resultUrl`). */
export type VideoJobResult = CamelNamed<z.output<typeof videoJobResultSchema>>;

/** The result's members, described by the sdk's rules: what the schema's getVideoJob result lists. */
export const VIDEO_JOB_RESULT_FIELDS: readonly FieldDescriptor[] = describeFields(videoJobResultSchema.shape);

function videoJobResult(job: VideoJob): VideoJobResult {
  const { result, ...rest } = job.attributes;
  // Absent members are left out (camelMembers): Pulumi outputs cannot hold undefined.
  return camelMembers({ id: job.id, ...rest, phase: videoJobPhase(rest.status), "result.url": result?.url }, VIDEO_JOB_RESULT_KEYS);
}

/** getVideoJob: a job by id. */
export async function videoJobOf(client: AssetDeliveryClient, args: { id: string }): Promise<VideoJobResult> {
  return videoJobResult(await client.videos.get(args.id));
}
