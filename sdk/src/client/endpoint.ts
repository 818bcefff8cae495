// Endpoints as data: each is a small spec, and `callEndpoint` is the one function that fills the
// path, checks the caller's input, sends, and validates the response with the sdk's schemas.
import { z } from "zod";
import { fieldIssue, fieldIssues, JSONAPI_MEDIA_TYPE, type ApiRoute, type EndpointClass, type HttpMethod } from "../api";
import { checked } from "./checked";
import { RequestValidationError, ResponseValidationError } from "./errors";
import { readText, type Send } from "./transport";

// Any zod schema: ZodType's output and input default to unknown, which every schema satisfies.
type AnySchema = z.ZodType;

export interface EndpointSpec<InputSchema extends AnySchema = AnySchema, ResponseSchema extends AnySchema = AnySchema> {
  /** Method, path template and rate-limit class, from the API's route table. */
  route: ApiRoute;
  /** `jsonapi` documents (Management API) or plain `json` (video generation). */
  format: "jsonapi" | "json";
  /** Checks the caller's input; the parsed value is wrapped by `document` as the request body. */
  input?: { schema: InputSchema; describe: string; document: (value: z.output<InputSchema>, params: Record<string, string>) => unknown };
  response: ResponseSchema;
}

export interface Endpoint<InputSchema extends AnySchema = AnySchema, ResponseSchema extends AnySchema = AnySchema> extends EndpointSpec<
  InputSchema,
  ResponseSchema
> {
  method: HttpMethod;
  path: string;
  endpointClass: EndpointClass;
  /** The path template split once: literal text at even indexes, parameter names at odd ones. */
  pathParts: readonly string[];
  /** Checks a response document against `response`. */
  parseResponse(json: unknown): z.ZodSafeParseResult<z.output<ResponseSchema>>;
}

/** Without `input`, the endpoint takes no body (its input type is `undefined`). */
export function endpoint<InputSchema extends AnySchema = z.ZodUndefined, ResponseSchema extends AnySchema = AnySchema>(
  spec: EndpointSpec<InputSchema, ResponseSchema>,
): Endpoint<InputSchema, ResponseSchema> {
  const { method, path, endpointClass } = spec.route;
  // zod's compiled parser checks a Source in a third of the time (bench sdk); a bad document falls
  // back to the regular parser, so the issues are the same. Compiled at first use, because
  // compiling takes up to ~30 ms a schema, which a process that never calls the endpoint should not pay.
  let compiled: ResponseSchema | undefined;
  return {
    ...spec,
    method,
    path,
    endpointClass,
    pathParts: path.split(/\{(\w+)\}/),
    parseResponse: (json) => (compiled ??= z.compile(spec.response)).safeParse(json),
  };
}

export interface CallArgs<E extends Endpoint> {
  params?: Record<string, string>;
  query?: URLSearchParams;
  input?: E extends Endpoint<infer S> ? z.input<S> : never;
  /** Instead of `input`: a value the endpoint's input schema already parsed, sent as it is (not parsed a second time). */
  parsed?: E extends Endpoint<infer S> ? z.output<S> : never;
}

export type ResponseOf<E extends Endpoint> = z.output<E["response"]>;

const MEDIA_TYPES = { jsonapi: JSONAPI_MEDIA_TYPE, json: "application/json" } as const;

export async function callEndpoint<E extends Endpoint>(send: Send, ep: E, args: CallArgs<E> = {}): Promise<ResponseOf<E>> {
  const params = args.params ?? {};
  const search = args.query?.toString();
  const target = fillPath(ep.pathParts, params) + (search ? `?${search}` : "");
  const mediaType = MEDIA_TYPES[ep.format];
  let body: { contentType: string; text: string } | undefined;
  if (ep.input) {
    const value = args.parsed !== undefined ? args.parsed : checked(ep.input.schema, args.input, ep.input.describe);
    body = { contentType: mediaType, text: JSON.stringify(ep.input.document(value, params)) };
  }
  const response = await send({ method: ep.method, target, endpointClass: ep.endpointClass, accept: mediaType, body, read: readText });
  return decode(ep, target, response.body);
}

function fillPath(parts: readonly string[], params: Record<string, string>): string {
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = params[name];
    if (value === undefined || value === "") throw new RequestValidationError("request", [fieldIssue([name], "is required")]);
    path += encodeURIComponent(value) + parts[i + 1]!;
  }
  return path;
}

function decode<E extends Endpoint>(ep: E, target: string, body: string): ResponseOf<E> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ResponseValidationError(ep.method, target, [fieldIssue([], "must be a JSON document")]);
  }
  const result = ep.parseResponse(json);
  if (!result.success) throw new ResponseValidationError(ep.method, target, fieldIssues(result.error));
  return result.data as ResponseOf<E>;
}
