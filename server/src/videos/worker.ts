// Renders queued video jobs in the server process, a few at a time: fetch the source image,
// render, mark the job ready or errored. The queue is the jobs table, so work survives a restart:
// a job left `preparing` is taken up again, unless its render was already started twice.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { VIDEO_ERROR_CODES, VideoJobFailure } from "./failures";
import { createImageFetcher, DEFAULT_IMAGE_FETCH_OPTIONS, type ImageFetchOptions } from "./image-source";
import type { JobStore, StoredJob } from "./job-store";
import { renderVideo } from "./render";

/** Renders started per job before it is given up (a crash or a stop mid-render counts as one). */
export const MAX_RENDER_ATTEMPTS = 2;

export interface VideoWorkerOptions {
  jobs: JobStore;
  /** Videos go to `<dataDir>/videos/<job id>/video.mp4`. */
  dataDir: string;
  concurrency?: number;
  /** How source images are fetched (limits, private addresses); DEFAULT_IMAGE_FETCH_OPTIONS by default. */
  fetch?: Partial<ImageFetchOptions>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type VideoWorker = ReturnType<typeof createVideoWorker>;

export function createVideoWorker(options: VideoWorkerOptions) {
  const { jobs, dataDir, log } = options;
  const concurrency = options.concurrency ?? 2;
  const running = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  const images = createImageFetcher({ ...DEFAULT_IMAGE_FETCH_OPTIONS, ...options.fetch });

  function pump(): void {
    if (stopping.signal.aborted) return;
    for (const job of jobs.waiting()) {
      if (running.size >= concurrency) return;
      if (running.has(job.id)) continue;
      if (job.attempts >= MAX_RENDER_ATTEMPTS) {
        jobs.errored(job.id, VIDEO_ERROR_CODES.renderFailed, `rendering was interrupted ${job.attempts} times; the job was given up`);
        continue;
      }
      const work = process(job).finally(() => {
        running.delete(job.id);
        pump();
      });
      running.set(job.id, work);
    }
  }

  async function process(job: StoredJob): Promise<void> {
    jobs.startAttempt(job.id);
    const relativeDir = path.join("videos", job.id);
    const dir = path.join(dataDir, relativeDir);
    try {
      const image = await images.fetch(job.url, stopping.signal);
      await fs.mkdir(dir, { recursive: true });
      const input = path.join(dir, `source.${image.format}`);
      await fs.writeFile(input, image.bytes);
      await renderVideo(input, path.join(dir, "video.mp4"), job.duration, job.model, stopping.signal);
      await fs.rm(input, { force: true });
      jobs.ready(job.id, path.join(relativeDir, "video.mp4"));
    } catch (error) {
      // Stopped by a shutdown: the job stays queued and resumes at the next start.
      if (stopping.signal.aborted) return;
      if (error instanceof VideoJobFailure) {
        // The caller sees the neutral message; the operator's log keeps the cause.
        log.warn({ jobId: job.id, code: error.code, cause: String((error.cause as Error | undefined)?.message ?? error.cause ?? "") }, `video job errored: ${error.message}`);
        jobs.errored(job.id, error.code, error.message);
      } else if (job.attempts + 1 >= MAX_RENDER_ATTEMPTS) {
        log.error({ err: error, jobId: job.id }, "video render failed; job errored");
        jobs.errored(job.id, VIDEO_ERROR_CODES.renderFailed, `the video could not be rendered: ${(error as Error).message}`);
      } else {
        log.warn({ err: error, jobId: job.id }, "video render failed; retrying once");
      }
    }
  }

  return {
    /** Looks for work: call at start and after each new job. */
    pump,
    /** Stops taking jobs and interrupts the running ones, which resume at the next start. */
    async stop(): Promise<void> {
      stopping.abort();
      await Promise.allSettled(running.values());
      await images.close();
    },
  };
}
