// getVideoJob: the state of an image-to-video generation job, read with the caller's client (the
// program-side forms are in program-forms.ts).
import { videoJobPhase, withoutUndefined, type AssetDeliveryClient, type VideoJob } from "@asset-delivery/sdk";

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

/** getVideoJob: a job by id. */
export async function videoJobOf(client: AssetDeliveryClient, args: { id: string }): Promise<VideoJobResult> {
  return videoJobResult(await client.videos.get(args.id));
}
