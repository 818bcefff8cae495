// `client.videos` (spec 4.4): create a generation job, read it, and the reference polling routine.
import { z } from "zod";
import { fieldIssue, videoJobPhase, type VideoCreateRequest, type VideoJob } from "../api";
import { checked } from "./checked";
import type { Clock } from "./clock";
import { callEndpoint } from "./endpoint";
import { endpoints } from "./endpoints";
import { ResponseValidationError, VideoJobFailedError, VideoJobTimeoutError } from "./errors";
import { positiveMs } from "./options";
import { poll } from "./poll";
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
    return poll({
      clock: this.clock,
      intervalMs,
      read: () => this.get(id),
      settled: (job) => {
        const phase = videoJobPhase(job.attributes.status);
        if (phase === "errored")
          throw new VideoJobFailedError(id, job.attributes.error?.code, job.attributes.error?.message ?? "no error message given");
        return phase === "ready" ? resultUrl(job) : undefined;
      },
      giveUp: (job, { waitedMs, attempts }) =>
        attempts < maxAttempts ? undefined : new VideoJobTimeoutError(id, maxAttempts, waitedMs, job.attributes.status),
    });
  }
}

function resultUrl(job: VideoJob): string {
  const url = job.attributes.result?.url;
  if (url === undefined) {
    throw new ResponseValidationError("GET", endpoints.getVideo.path.replace("{id}", encodeURIComponent(job.id)), [
      fieldIssue(["data", "attributes", "result", "url"], `is required when status is "${job.attributes.status}"`),
    ]);
  }
  return url;
}
