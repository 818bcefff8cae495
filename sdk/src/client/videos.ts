// `client.videos` (spec 4.4): create a generation job, read it, and the reference polling routine.
import { z } from "zod";
import { videoJobPhase, type VideoCreateRequest, type VideoJob } from "../schemas";
import { checked } from "./checked";
import type { Clock } from "./clock";
import { callEndpoint } from "./endpoint";
import { endpoints } from "./endpoints";
import { ResponseValidationError, VideoJobFailedError, VideoJobTimeoutError } from "./errors";
import { positiveMs } from "./options";
import type { Send } from "./transport";

export interface WaitForResultOptions {
  /** Time between polls. Default 5000 ms. */
  intervalMs?: number;
  /** Polls before giving up. Default 60. */
  maxAttempts?: number;
}

const waitOptionsSchema = z.object({
  intervalMs: positiveMs.default(5_000),
  maxAttempts: z.int({ error: "must be a whole number" }).positive({ error: "must be >= 1" }).default(60),
});

export class VideosResource {
  constructor(
    private readonly send: Send,
    private readonly clock: Clock,
  ) {}

  async create(request: VideoCreateRequest): Promise<VideoJob> {
    return (await callEndpoint(this.send, endpoints.createVideo, { input: request })).data;
  }

  async get(id: string): Promise<VideoJob> {
    return (await callEndpoint(this.send, endpoints.getVideo, { params: { job_id: id } })).data;
  }

  /**
   * Polls until the job is ready and returns `result.url`. Understands both status vocabularies;
   * `errored`/`failed` raise VideoJobFailedError, running out of polls VideoJobTimeoutError.
   */
  async waitForResult(id: string, options: WaitForResultOptions = {}): Promise<string> {
    const { intervalMs, maxAttempts } = checked(waitOptionsSchema, options, "waitForResult options");
    const startedAt = this.clock.now();
    let status = "";
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const job = await this.get(id);
      status = job.attributes.status;
      const phase = videoJobPhase(job.attributes.status);
      if (phase === "ready") return resultUrl(job);
      if (phase === "errored") throw new VideoJobFailedError(id, job.attributes.error?.code, job.attributes.error?.message ?? "no error message given");
      if (attempt < maxAttempts) await this.clock.sleep(intervalMs);
    }
    throw new VideoJobTimeoutError(id, maxAttempts, this.clock.now() - startedAt, status);
  }
}

function resultUrl(job: VideoJob): string {
  const url = job.attributes.result?.url;
  if (url === undefined) {
    throw new ResponseValidationError("GET", endpoints.getVideo.path.replace("{id}", encodeURIComponent(job.id)), [
      { path: "data.attributes.result.url", rule: `is required when status is "${job.attributes.status}"` },
    ]);
  }
  return url;
}
