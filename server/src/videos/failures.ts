// Why a video job errored: the `error.code` values of a job (spec 2.5 leaves them "not shown").

export const VIDEO_ERROR_CODES = {
  /** The image URL could not be reached (DNS, connection refused, timeout). */
  unreachable: 4001,
  /** The image is larger than the service accepts. */
  tooLarge: 4002,
  /** The URL did not answer with an image the service can read. */
  notAnImage: 4003,
  /** The image URL answered with an HTTP status other than 2xx. */
  httpError: 4004,
  /** Rendering the video failed twice (or was interrupted twice by a restart). */
  renderFailed: 5001,
} as const;

/** A job's failure, reported as-is in its `error` attributes. */
export class VideoJobFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "VideoJobFailure";
  }
}
