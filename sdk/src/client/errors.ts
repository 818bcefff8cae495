// Every failure the client raises: one base class, an API error chosen by status, and wrappers
// for network, timeout and response-shape failures. No error ever carries the API key: messages
// name the method and path only, and headers are never copied. A message holds what the server
// said (titles, details, statuses, ids), so it is made printable (../printable.ts) once, here.
import { describeIssues, type EndpointClass, type ErrorObject, type FieldIssue } from "../api";
import { printable } from "../printable";

export class AssetDeliveryError extends Error {
  override readonly name: string = "AssetDeliveryError";

  // `{ cause }`, not lib.es2022's ErrorOptions: this signature is in the package's types, which
  // projects with Pulumi's ts-node defaults (an older lib) type-check.
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message === undefined ? undefined : printable(message), options);
  }
}

export interface ApiErrorInit {
  status: number;
  method: string;
  path: string;
  errors: ErrorObject[];
  /** Used when the body is not a JSON:API error document. */
  fallbackDetail?: string;
  requestId?: string;
  /** Raw `Retry-After` header, kept for the retry layer. */
  retryAfter?: string;
}

/** The API answered with an error status. */
export class ApiError extends AssetDeliveryError {
  override readonly name: string = "ApiError";
  readonly status: number;
  readonly method: string;
  /** The request path (with query), relative to the base URL. */
  readonly path: string;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string | undefined;
  /** Every JSON:API error object of the response (empty when the body was not an error document). */
  readonly errors: readonly ErrorObject[];
  readonly retryAfter: string | undefined;

  constructor(init: ApiErrorInit) {
    const first = init.errors[0];
    const title = first?.title ?? `HTTP ${init.status}`;
    const detail = init.errors.length > 0 ? init.errors.map((e) => e.detail).join("; ") : (init.fallbackDetail ?? "");
    super(`${init.method} ${init.path} failed with ${init.status} ${title}${detail ? `: ${detail}` : ""}`);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.title = title;
    this.detail = detail;
    this.requestId = first?.id ?? init.requestId;
    this.errors = init.errors;
    this.retryAfter = init.retryAfter;
  }
}

export class BadRequestError extends ApiError {
  override readonly name = "BadRequestError";
}
export class AuthenticationError extends ApiError {
  override readonly name = "AuthenticationError";
}
export class PermissionError extends ApiError {
  override readonly name = "PermissionError";
}
export class NotFoundError extends ApiError {
  override readonly name = "NotFoundError";
}
export class MethodNotAllowedError extends ApiError {
  override readonly name = "MethodNotAllowedError";
}
/** 409: the request conflicts with one in progress (a purge of the same URL within 10 seconds). */
export class ConflictError extends ApiError {
  override readonly name = "ConflictError";
}
export class RateLimitError extends ApiError {
  override readonly name = "RateLimitError";
}
/**
 * A request the client did not send: its class's rate budget would only allow it after the
 * client's `maxWaitMs` ran out. Nothing reached the server.
 */
export class RateBudgetError extends AssetDeliveryError {
  override readonly name = "RateBudgetError";
  readonly endpointClass: EndpointClass;
  readonly method: string;
  readonly path: string;
  /** When the budget would have allowed it (milliseconds since the epoch). */
  readonly sendableAt: number;
  /** When the client's `maxWaitMs` ran out. */
  readonly deadline: number;
  /** When `count` requests could go at once, after those queued ahead of this one (at most the bucket's size). */
  readonly readyAt: (count: number) => number;

  constructor(init: Pick<RateBudgetError, "endpointClass" | "method" | "path" | "sendableAt" | "deadline" | "readyAt">) {
    super(
      `${init.method} ${init.path} not sent: the ${init.endpointClass} rate budget allows it at ${new Date(init.sendableAt).toISOString()}, ` +
        `after the client's maxWaitMs ran out (${new Date(init.deadline).toISOString()})`,
    );
    this.endpointClass = init.endpointClass;
    this.method = init.method;
    this.path = init.path;
    this.sendableAt = init.sendableAt;
    this.deadline = init.deadline;
    this.readyAt = init.readyAt;
  }
}

export class ServerError extends ApiError {
  override readonly name = "ServerError";
}

/** The ApiError subclass for a status. */
export function apiErrorFor(init: ApiErrorInit): ApiError {
  switch (init.status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionError(init);
    case 404:
      return new NotFoundError(init);
    case 405:
      return new MethodNotAllowedError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return new RateLimitError(init);
    default:
      return init.status >= 500 ? new ServerError(init) : new ApiError(init);
  }
}

/**
 * Whether the request can have reached the server: `before-send` failures (refused connection,
 * unknown host) are safe to repeat for any method; `after-send` ones may have been applied.
 */
export type FailurePhase = "before-send" | "after-send";

const PHASE_TEXT: Record<FailurePhase, string> = {
  "before-send": ": the API could not be reached and the request was not sent",
  "after-send": ": the connection was lost after the request was sent, which may have been applied",
};

/** The network failed; `phase` is set when it is knowable. */
export class ConnectionError extends AssetDeliveryError {
  override readonly name = "ConnectionError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly phase: FailurePhase | undefined,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`${method} ${path}: connection failed${code ? ` (${code})` : ""}${phase ? PHASE_TEXT[phase] : ""}`, options);
  }
}

/** No complete response within the time allowed. The request may have been applied. */
export class TimeoutError extends AssetDeliveryError {
  override readonly name = "TimeoutError";
  constructor(
    readonly method: string,
    readonly path: string,
    /** Which limit ran out: waiting for headers, between body chunks, or the whole request. */
    readonly limit: "headers" | "body" | "request",
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      `${method} ${path}: no ${limit === "body" ? "response body data" : "response"} within ${timeoutMs} ms (${limit} timeout)`,
      options,
    );
  }
}

/** The response does not match the API's schema; `issues` name the fields. */
export class ResponseValidationError extends AssetDeliveryError {
  override readonly name = "ResponseValidationError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly issues: readonly FieldIssue[],
  ) {
    super(`${method} ${path}: unexpected response: ${describeIssues(issues)}`);
  }
}

/** Input rejected by the client before sending; `issues` name the fields and rules. */
export class RequestValidationError extends AssetDeliveryError {
  override readonly name = "RequestValidationError";
  constructor(
    readonly what: string,
    readonly issues: readonly FieldIssue[],
  ) {
    super(`invalid ${what}: ${describeIssues(issues)}`);
  }
}

/** A Source did not reach its expected deployment status in time. */
export class DeploymentTimeoutError extends AssetDeliveryError {
  override readonly name = "DeploymentTimeoutError";
  constructor(
    readonly sourceId: string,
    readonly expected: "deployed" | "disabled",
    readonly lastStatus: string,
    readonly waitedMs: number,
    /** The last read said `deployed`, but by a deployment older than the change waited for. */
    readonly predatesChange = false,
  ) {
    const seen = predatesChange ? `"${lastStatus}" only by a deployment older than the change` : `"${lastStatus}"`;
    super(`Source ${sourceId} is still ${seen} after waiting ${waitedMs} ms for it to be ${expected}`);
  }
}

/** The Source being waited for was deleted. */
export class SourceDeletedError extends AssetDeliveryError {
  override readonly name = "SourceDeletedError";
  constructor(readonly sourceId: string) {
    super(`Source ${sourceId} was deleted while waiting for its deployment`);
  }
}

/** A video job ended in `errored` (or `failed`); carries the job's error code and message. */
export class VideoJobFailedError extends AssetDeliveryError {
  override readonly name = "VideoJobFailedError";
  constructor(
    readonly jobId: string,
    readonly code: number | undefined,
    readonly detail: string,
  ) {
    super(`video job ${jobId} failed${code !== undefined ? ` (error ${code})` : ""}: ${detail}`);
  }
}

/** A video job was not finished after the allowed number of polls. */
export class VideoJobTimeoutError extends AssetDeliveryError {
  override readonly name = "VideoJobTimeoutError";
  constructor(
    readonly jobId: string,
    readonly attempts: number,
    readonly waitedMs: number,
    readonly lastStatus: string,
  ) {
    super(`video job ${jobId} not finished after ${attempts} polls over ${Math.round(waitedMs / 1000)} s (last status "${lastStatus}")`);
  }
}

/** A report's content is not the CSV it should be; names where (a file, or the report) and the problem. */
export class ReportFormatError extends AssetDeliveryError {
  override readonly name = "ReportFormatError";
  constructor(
    /** `file <path>` or the report key. */
    readonly where: string,
    problem: string,
  ) {
    super(`report ${where}: ${problem}`);
  }
}
