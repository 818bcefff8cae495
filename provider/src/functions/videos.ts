// getVideoJob: the state of an image-to-video generation job, read with the caller's client (the
// program-side forms are in program-forms.ts).
import type { z } from "zod";
import { videoJobPhase, type AssetDeliveryClient, type VideoJob } from "@asset-delivery/sdk";
import { camelMembers, type CamelNamed } from "../pulumi-names/rename";
import { videoJobResultSchema } from "./results";

const VIDEO_JOB_RESULT_KEYS = videoJobResultSchema.keyof().options;

/** A job under the resource's camelCase names (`createdAt`, `resultUrl`). */
export type VideoJobResult = CamelNamed<z.output<typeof videoJobResultSchema>>;

function videoJobResult(job: VideoJob): VideoJobResult {
  const { result, ...rest } = job.attributes;
  // Absent members are left out (camelMembers): Pulumi outputs cannot hold undefined.
  return camelMembers({ id: job.id, ...rest, phase: videoJobPhase(rest.status), "result.url": result?.url }, VIDEO_JOB_RESULT_KEYS);
}

/** getVideoJob: a job by id. */
export async function videoJobOf(client: AssetDeliveryClient, args: { id: string }): Promise<VideoJobResult> {
  return videoJobResult(await client.videos.get(args.id));
}
