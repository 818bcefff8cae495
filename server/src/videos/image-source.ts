// Downloads a job's source image: bounded in time and size, and checked to be an image.
import type { Dispatcher } from "undici";
import { VIDEO_ERROR_CODES, VideoJobFailure } from "./failures";
import { IMAGE_FORMATS, sniffImageFormat, type ImageFormat } from "./image-format";

export interface ImageFetchLimits {
  /** Whole download, connection included. */
  timeoutMs: number;
  maxBytes: number;
}

export const DEFAULT_IMAGE_FETCH_LIMITS: ImageFetchLimits = { timeoutMs: 15_000, maxBytes: 20 * 1024 * 1024 };

const MAX_REDIRECTS = 5;

// Loaded on the first download: most processes importing the server (the CLI) never fetch an image.
let dispatcher: Dispatcher | undefined;
async function client(): Promise<{ request: typeof import("undici").request; dispatcher: Dispatcher }> {
  const undici = await import("undici");
  dispatcher ??= new undici.Agent().compose(undici.interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  return { request: undici.request, dispatcher };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `cancel` aborts the download (server shutdown); the time limit applies regardless. */
export async function fetchSourceImage(
  url: string,
  limits: ImageFetchLimits = DEFAULT_IMAGE_FETCH_LIMITS,
  cancel?: AbortSignal,
): Promise<{ bytes: Buffer; format: ImageFormat }> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  const { request, dispatcher } = await client();
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, { dispatcher, signal, headers: { accept: "image/*" } });
  } catch (error) {
    throw new VideoJobFailure(VIDEO_ERROR_CODES.unreachable, `the image URL could not be reached: ${reasonOf(error, limits)}`);
  }
  const { statusCode, headers, body } = response;
  if (statusCode < 200 || statusCode > 299) {
    body.dump().catch(() => undefined);
    throw new VideoJobFailure(VIDEO_ERROR_CODES.httpError, `the image URL answered HTTP ${statusCode} instead of an image`);
  }
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    body.dump().catch(() => undefined);
    throw new VideoJobFailure(VIDEO_ERROR_CODES.tooLarge, `the image is ${megabytes(declared)}; at most ${megabytes(limits.maxBytes)} is accepted`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxBytes) {
        body.destroy();
        throw new VideoJobFailure(VIDEO_ERROR_CODES.tooLarge, `the image is larger than ${megabytes(limits.maxBytes)}, the most that is accepted`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof VideoJobFailure) throw error;
    throw new VideoJobFailure(VIDEO_ERROR_CODES.unreachable, `the image download failed: ${reasonOf(error, limits)}`);
  }
  const bytes = Buffer.concat(chunks);
  const contentType = String(headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const format = sniffImageFormat(bytes);
  if (!format) {
    throw new VideoJobFailure(
      VIDEO_ERROR_CODES.notAnImage,
      `the URL did not return an image (content type "${contentType || "none"}"; expected ${IMAGE_FORMATS.join(", ")})`,
    );
  }
  if (contentType && !contentType.startsWith("image/") && contentType !== "application/octet-stream") {
    throw new VideoJobFailure(VIDEO_ERROR_CODES.notAnImage, `the URL returned content type "${contentType}", not an image`);
  }
  return { bytes, format };
}

function reasonOf(error: unknown, limits: ImageFetchLimits): string {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError" || err.name === "AbortError") return `no complete answer within ${limits.timeoutMs / 1000} s`;
  return err.cause?.code ?? err.code ?? err.cause?.message ?? err.message ?? String(error);
}
