// Renders queued video jobs in the server process, a few at a time: fetch the source image, check
// its size, render, mark the job ready or errored. The queue is the jobs table, so work survives a
// restart: a job left `preparing` is taken up again, unless its render was already started twice.
// Accounts take turns (fair-queue.ts), each with at most `perAccount` jobs in flight.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../store/private-files";
import { nextJob } from "./fair-queue";
import { VIDEO_ERROR_CODES, VideoJobFailure } from "./failures";
import { imageSize, type ImageFormat } from "./image-format";
import { createImageFetcher, DEFAULT_IMAGE_FETCH_OPTIONS, type ImageFetchOptions } from "./image-source";
import type { JobStore, StoredJob } from "./job-store";
import { MAX_IMAGE_SIZE, renderVideo } from "./render";

/** Renders started per job before it is given up (a crash or a stop mid-render counts as one). */
export const MAX_RENDER_ATTEMPTS = 2;

export interface VideoWorkerOptions {
  jobs: JobStore;
  /** Videos go to `<dataDir>/videos/<job id>/video.mp4`. */
  dataDir: string;
  /** Jobs in flight at once (default 2). */
  concurrency?: number;
  /** Jobs in flight at once for one account (default 1): another account's job always finds a worker. */
  perAccount?: number;
  /** How source images are fetched (limits, private addresses); DEFAULT_IMAGE_FETCH_OPTIONS by default. */
  fetch?: Partial<ImageFetchOptions>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type VideoWorker = ReturnType<typeof createVideoWorker>;

export function createVideoWorker(options: VideoWorkerOptions) {
  const { jobs, dataDir, log } = options;
  const concurrency = options.concurrency ?? 2;
  const perAccount = options.perAccount ?? 1;
  const running = new Map<string, Promise<void>>();
  const inFlight = new Map<string, number>();
  const lastStarted = new Map<string, number>();
  let starts = 0;
  const stopping = new AbortController();
  const images = createImageFetcher({ ...DEFAULT_IMAGE_FETCH_OPTIONS, ...options.fetch });

  function pump(): void {
    while (!stopping.signal.aborted && running.size < concurrency) {
      const job = nextJob(jobs.waiting(perAccount + concurrency), { running: new Set(running.keys()), inFlight, lastStarted, perAccount });
      if (!job) return;
      if (job.attempts >= MAX_RENDER_ATTEMPTS) {
        jobs.errored(job.id, VIDEO_ERROR_CODES.renderFailed, `rendering was interrupted ${job.attempts} times; the job was given up`);
        continue;
      }
      const account = job.accountId;
      inFlight.set(account, (inFlight.get(account) ?? 0) + 1);
      lastStarted.set(account, starts++);
      const work = process(job).finally(() => {
        running.delete(job.id);
        const left = inFlight.get(account)! - 1;
        if (left === 0) inFlight.delete(account);
        else inFlight.set(account, left);
        pump();
      });
      running.set(job.id, work);
    }
  }

  async function process(job: StoredJob): Promise<void> {
    jobs.startAttempt(job.id);
    const relativeDir = path.join("videos", job.id);
    const dir = path.join(dataDir, relativeDir);
    let input: string | undefined;
    try {
      const image = await images.fetch(job.url, stopping.signal);
      checkImageSize(image.bytes, image.format);
      await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      input = path.join(dir, `source.${image.format}`);
      await fs.writeFile(input, image.bytes, { mode: PRIVATE_FILE_MODE });
      await renderVideo(input, path.join(dir, "video.mp4"), job.duration, job.model, stopping.signal);
      await removeInput();
      jobs.ready(job.id, path.join(relativeDir, "video.mp4"));
    } catch (error) {
      // Stopped by a shutdown: the job stays queued and resumes at the next start.
      if (stopping.signal.aborted) return;
      // The downloaded image is only needed by this render, whatever its outcome (a retry fetches
      // again); an errored job's folder goes too, before its status says so.
      await removeInput();
      if (error instanceof VideoJobFailure) {
        // The caller sees the neutral message; the operator's log keeps the cause.
        log.warn(
          {
            jobId: job.id,
            code: error.code,
            cause: error.cause instanceof Error ? error.cause.message : typeof error.cause === "string" ? error.cause : "",
          },
          `video job errored: ${error.message}`,
        );
        await fs.rm(dir, { recursive: true, force: true });
        jobs.errored(job.id, error.code, error.message);
      } else if (job.attempts + 1 >= MAX_RENDER_ATTEMPTS) {
        log.error({ err: error, jobId: job.id }, "video render failed; job errored");
        await fs.rm(dir, { recursive: true, force: true });
        jobs.errored(job.id, VIDEO_ERROR_CODES.renderFailed, `the video could not be rendered: ${(error as Error).message}`);
      } else {
        log.warn({ err: error, jobId: job.id }, "video render failed; retrying once");
      }
    } finally {
      await removeInput();
    }

    async function removeInput(): Promise<void> {
      if (input === undefined) return;
      const file = input;
      input = undefined;
      await fs.rm(file, { force: true });
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

/** Refuses, before ffmpeg runs, an image whose header declares more pixels than the renderer takes. */
function checkImageSize(bytes: Buffer, format: ImageFormat): void {
  const size = imageSize(bytes, format);
  if (!size)
    throw new VideoJobFailure(
      VIDEO_ERROR_CODES.notAnImage,
      `the URL did not return a readable image (its ${format} header could not be read)`,
    );
  const { side, pixels } = MAX_IMAGE_SIZE;
  if (size.width > side || size.height > side || size.width * size.height > pixels) {
    throw new VideoJobFailure(
      VIDEO_ERROR_CODES.tooManyPixels,
      `the image is ${size.width}×${size.height} pixels; at most ${side} pixels a side and ${pixels / 1_000_000} megapixels are accepted`,
    );
  }
}
