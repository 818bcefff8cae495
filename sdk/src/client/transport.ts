// The request core: one HTTP exchange over undici, with the API key, the overall timeout, the
// hooks, and every failure turned into the client's errors. Pacing and retry wrap it.
import type * as Undici from "undici";
import type { Agent, Dispatcher } from "undici";
import { errorDocumentSchema, errorObjectSchema, type EndpointClass, type ErrorObject, type HttpMethod } from "../api";
import { apiErrorFor, ConnectionError, TimeoutError, type FailurePhase } from "./errors";

/** What a hook learns about a request: never headers, never the API key. */
export interface RequestInfo {
  method: string;
  /** Path and query relative to the base URL, or the full URL of a download on another origin. */
  path: string;
  endpointClass: EndpointClass;
  /** 0 for the first try, then 1, 2, ... for retries. */
  attempt: number;
}

export interface ResponseInfo extends RequestInfo {
  /** Absent when no response arrived. */
  status: number | undefined;
  durationMs: number;
  /** Error class name when no response arrived (`ConnectionError`, `TimeoutError`). */
  error?: string;
}

/** What one exchange needs of the client's options (options.ts resolves them). */
export interface TransportOptions {
  baseUrl: URL;
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  onRequest: ((info: RequestInfo) => void) | undefined;
  onResponse: ((info: ResponseInfo) => void) | undefined;
}

/** Reads the body of a 2xx response (within the request's deadline). */
export type ReadBody<T> = (body: Dispatcher.ResponseData["body"]) => Promise<T>;

/** API documents are read as text: undici decodes its buffer in place, where bytes would be a copy. */
export const readText: ReadBody<string> = (body) => body.text();
/** Files (report files, maybe gzipped) are read as bytes. */
export const readBytes: ReadBody<Buffer> = async (body) => Buffer.from(await body.arrayBuffer());

export interface HttpRequest<T> {
  method: HttpMethod;
  /** A path with query relative to the base URL (`/api/v1/sources?...`), or an absolute URL (report files). */
  target: string;
  endpointClass: EndpointClass;
  accept: string;
  body?: { contentType: string; text: string };
  /** Set by the retry layer: 0 for the first try. */
  attempt?: number;
  read: ReadBody<T>;
}

export interface HttpResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

/** Sends one request; resolves with a 2xx response, its body read by `read`; rejects with the client's errors. */
export type Send = <T>(request: HttpRequest<T>) => Promise<HttpResponse<T>>;

/**
 * The keep-alive connection pool a client owns when none is injected. undici loads here, with the
 * first client, not with the package: most processes that load the sdk never send a request (a
 * Pulumi program declaring dynamic Sources, the `serve` command), and undici takes 50-90 ms of
 * CPU to load, about a quarter of what loading the provider took with it.
 */
export function createAgent(timeoutMs: number): Agent {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: loaded on first use
  const { Agent } = require("undici") as typeof Undici;
  return new Agent({
    connections: 16,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: Math.min(timeoutMs, 10_000) },
  });
}

export function createSender(options: TransportOptions, dispatcher: Dispatcher): Send {
  const api = { origin: options.baseUrl.origin, pathPrefix: options.baseUrl.pathname.replace(/\/+$/, "") };
  return async <T>(req: HttpRequest<T>): Promise<HttpResponse<T>> => {
    const { origin, path, shownPath } = resolveTarget(api, req.target);
    const info = { method: req.method, path: shownPath, endpointClass: req.endpointClass, attempt: req.attempt ?? 0 };
    const headers: Record<string, string> = { accept: req.accept, "user-agent": options.userAgent };
    // The key goes only to the API's own origin, never to a file host a report URL points at.
    if (origin === api.origin) headers.authorization = `Bearer ${options.apiKey}`;
    if (req.body) headers["content-type"] = req.body.contentType;

    // A timer cleared when the exchange ends, not AbortSignal.timeout: that one's timer stays armed
    // for the whole timeout after each request, and at thousands of GETs a second the pile of them
    // cost ~10 µs of CPU a call (bench sdk).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DOMException("The request timed out", "TimeoutError")), options.timeoutMs);
    const started = performance.now();
    options.onRequest?.(info);
    let res: Dispatcher.ResponseData;
    let read: { ok: true; body: T } | { ok: false; text: string };
    try {
      // The dispatcher's request API with origin and path: undici's top-level request(url) parses a URL we already know.
      res = await dispatcher.request({ origin, path, method: req.method, headers, body: req.body?.text, signal: deadline.signal });
      read = isSuccess(res.statusCode) ? { ok: true, body: await req.read(res.body) } : { ok: false, text: await res.body.text() };
    } catch (error) {
      const failure = deadline.signal.aborted
        ? new TimeoutError(req.method, shownPath, "request", options.timeoutMs, { cause: error })
        : networkFailure(error, req.method, shownPath, options.timeoutMs);
      options.onResponse?.({ ...info, status: undefined, durationMs: performance.now() - started, error: failure.name });
      throw failure;
    } finally {
      clearTimeout(timer);
    }
    options.onResponse?.({ ...info, status: res.statusCode, durationMs: performance.now() - started });
    if (read.ok) return { status: res.statusCode, headers: res.headers, body: read.body };
    throw apiErrorFor({
      status: res.statusCode,
      method: req.method,
      path: shownPath,
      ...errorsOf(read.text),
      requestId: headerValue(res.headers["x-request-id"]),
      retryAfter: headerValue(res.headers["retry-after"]),
    });
  };
}

interface ResolvedTarget {
  origin: string;
  /** Path and query as sent. */
  path: string;
  /** What errors and hooks show: absolute URLs (report files) may carry signed query strings, so those are shown without. */
  shownPath: string;
}

/** A relative target is appended to the base URL's path; an absolute one (a report file) is used as given. */
function resolveTarget(api: { origin: string; pathPrefix: string }, target: string): ResolvedTarget {
  if (!/^https?:\/\//i.test(target)) return { origin: api.origin, path: `${api.pathPrefix}${target}`, shownPath: target };
  const url = new URL(target);
  const shownPath = url.origin === api.origin ? url.pathname : `${url.origin}${url.pathname}`;
  return { origin: url.origin, path: `${url.pathname}${url.search}`, shownPath };
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The JSON:API error objects of an error body; any other body becomes a short detail text. */
function errorsOf(text: string): { errors: ErrorObject[]; fallbackDetail?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { errors: [], fallbackDetail: text.slice(0, 500) };
  }
  const document = errorDocumentSchema.safeParse(json);
  if (document.success) return { errors: document.data.errors };
  // A partly conforming document: keep whichever error objects are well formed.
  const list = (json as { errors?: unknown } | null)?.errors;
  const errors = Array.isArray(list) ? list.flatMap((e) => errorObjectSchema.safeParse(e).data ?? []) : [];
  return errors.length ? { errors } : { errors: [], fallbackDetail: text.slice(0, 500) };
}

// Failures before a connection exists cannot have reached the server.
const BEFORE_SEND_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
const AFTER_SEND_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

function networkFailure(error: unknown, method: string, path: string, timeoutMs: number): ConnectionError | TimeoutError {
  const code = errorCode(error);
  if (code === "UND_ERR_HEADERS_TIMEOUT") return new TimeoutError(method, path, "headers", timeoutMs, { cause: error });
  if (code === "UND_ERR_BODY_TIMEOUT") return new TimeoutError(method, path, "body", timeoutMs, { cause: error });
  const phase: FailurePhase | undefined =
    code && BEFORE_SEND_CODES.has(code) ? "before-send" : code && AFTER_SEND_CODES.has(code) ? "after-send" : undefined;
  return new ConnectionError(method, path, phase, code, { cause: error });
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    // Node wraps parallel connection attempts (IPv4 and IPv6) in an AggregateError.
    if (e instanceof AggregateError) return errorCode(e.errors[0]);
  }
  return undefined;
}
