// Errors the API answers with. Handlers throw HttpError; the central error handler (error-handler.ts)
// turns it, and anything else, into a JSON:API error document (spec section 7).
import { dottedPath, type FieldIssue } from "@asset-delivery/sdk";

export interface ErrorSource {
  /** JSON pointer into the request document, e.g. `/data/attributes/deployment/cache_ttl_error`. */
  pointer?: string;
  /** The query parameter at fault, e.g. `page[size]`. */
  parameter?: string;
}

/** One error object of the response, less the parts the handler adds (id, status). */
export interface ErrorEntry {
  title: string;
  detail: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
}

export interface HttpErrorOptions {
  source?: ErrorSource;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Further error objects of the same response (e.g. one per invalid field). */
  more?: ErrorEntry[];
}

/**
 * Error titles: the spec names only `NotFound`; the others are ours, one per status, spelled the
 * same way (the HTTP reason phrase without spaces), plus `ValidationError` for invalid fields.
 */
export const ERROR_TITLES: Readonly<Record<number, string>> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  406: "NotAcceptable",
  409: "Conflict",
  410: "Gone",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
  429: "TooManyRequests",
  500: "InternalServerError",
  503: "ServiceUnavailable",
};
export const VALIDATION_ERROR = "ValidationError";

export function titleFor(status: number): string {
  return ERROR_TITLES[status] ?? (status >= 500 ? "InternalServerError" : "BadRequest");
}

export class HttpError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly headers: Record<string, string>;
  /** Every error object of the response: this one first. */
  readonly entries: ErrorEntry[];

  constructor(status: number, title: string, detail: string, options: HttpErrorOptions = {}) {
    const first: ErrorEntry = {
      title,
      detail,
      ...(options.source && { source: options.source }),
      ...(options.meta && { meta: options.meta }),
    };
    const entries = [first, ...(options.more ?? [])];
    super(entries.map((entry) => entry.detail).join("; "));
    this.name = "HttpError";
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.headers = options.headers ?? {};
    this.entries = entries;
  }
}

export function badRequest(detail: string, source?: ErrorSource): HttpError {
  return new HttpError(400, ERROR_TITLES[400]!, detail, { source });
}

/** 404 for an object that does not exist or belongs to another account (never 403: no leak). */
export function notFound(what: string, id: string): HttpError {
  return new HttpError(404, ERROR_TITLES[404]!, `${what} "${id}" was not found.`);
}

/** JSON pointer of a path (RFC 6901: `~` and `/` escaped). */
export function jsonPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

// Issues found by parsing a whole request document start with data.attributes; the detail names
// the field as the caller knows it (`deployment.cache_ttl_error`), the pointer keeps the full path.
const ATTRIBUTES_PREFIX = ["data", "attributes"];

function shownSegments(segments: readonly (string | number)[]): readonly (string | number)[] {
  const inAttributes = segments.length > ATTRIBUTES_PREFIX.length && ATTRIBUTES_PREFIX.every((name, i) => segments[i] === name);
  return inAttributes ? segments.slice(ATTRIBUTES_PREFIX.length) : segments;
}

/** 400 with one error object per issue, each naming the field and the rule, with a `source.pointer`. */
export function validationFailed(issues: readonly FieldIssue[], pointerPrefix = ""): HttpError {
  const entries: ErrorEntry[] = issues.map((issue) => ({
    title: VALIDATION_ERROR,
    detail: `${dottedPath(shownSegments(issue.segments))}: ${issue.rule}`,
    source: { pointer: pointerPrefix + jsonPointer(issue.segments) },
  }));
  return errorOfEntries(400, entries);
}

/** 400 for bad query parameters, one error object per parameter. */
export function invalidParameters(issues: readonly { parameter: string; message: string }[]): HttpError {
  const entries: ErrorEntry[] = issues.map((issue) => ({
    title: ERROR_TITLES[400]!,
    detail: `${issue.parameter}: ${issue.message}`,
    source: { parameter: issue.parameter },
  }));
  return errorOfEntries(400, entries);
}

function errorOfEntries(status: number, entries: readonly ErrorEntry[]): HttpError {
  const [first, ...more] = entries;
  if (!first) throw new Error("an error response needs at least one error object");
  return new HttpError(status, first.title, first.detail, { source: first.source, meta: first.meta, more });
}
