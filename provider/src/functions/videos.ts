// getVideoJob: the state of an image-to-video generation job.
import { videoJobPhase, withoutUndefined, type AssetDeliveryClient, type VideoJob } from "@asset-delivery/sdk";
import { outputForm, withClient } from "./client";

export interface VideoJobResult {
  id: string;
  /** As the server says it (either vocabulary of the spec). */
  status: string;
  /** `waiting`, `ready` or `errored`, whichever vocabulary the server speaks. */
  phase: "waiting" | "ready" | "errored";
  createdAt: number;
  updatedAt?: number;
  resultUrl?: string;
  error?: { code: number; message: string };
}

function videoJobResult(job: VideoJob): VideoJobResult {
  const a = job.attributes;
  // Absent members are left out: Pulumi outputs cannot hold undefined.
  return withoutUndefined({
    id: job.id,
    status: a.status,
    phase: videoJobPhase(a.status),
    createdAt: a.created_at,
    updatedAt: a.updated_at,
    resultUrl: a.result?.url,
    error: a.error,
  }) as unknown as VideoJobResult;
}

export async function getVideoJob(args: { id: string }): Promise<VideoJobResult> {
  return withClient((client) => videoJobOf(client, args));
}

/** getVideoJob with the caller's client (the native plugin's Invoke). */
export async function videoJobOf(client: AssetDeliveryClient, args: { id: string }): Promise<VideoJobResult> {
  return videoJobResult(await client.videos.get(args.id));
}

export const getVideoJobOutput = outputForm(getVideoJob);
