// Why a video job errored: the `error.code` values of a job (spec 2.5 leaves them "not shown").

export const VIDEO_ERROR_CODES = {
  /**
   * The image could not be fetched: any failure before a 2xx answer (a refused non-public address,
   * DNS, connection, timeout, a non-2xx status), with one message, so a caller cannot probe with it.
   */
  unreachable: 4001,
  /** The image is larger than the service accepts. */
  tooLarge: 4002,
  /** The URL did not answer with an image the service can read. */
  notAnImage: 4003,
  /** The image's width, height or pixel count is beyond what the renderer accepts. */
  tooManyPixels: 4005,
  /** Rendering the video failed twice (or was interrupted twice by a restart). */
  renderFailed: 5001,
} as const;

/** A job's failure, reported as-is in its `error` attributes; `cause` is for the operator's log only. */
export class VideoJobFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
    this.name = "VideoJobFailure";
  }
}
