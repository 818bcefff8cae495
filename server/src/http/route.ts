// Routes as data: each one names its entry of the sdk's API_ROUTES (method, path, rate-limit
// class) and declares its permission, request and response schemas
// (the sdk's zod schemas) and a thin handler. defineRoute registers it with Fastify and records it
// in the app's route registry, from which the 405 answers and the OpenAPI document are derived.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { z } from "zod";
import {
  fieldIssues,
  JSONAPI_MEDIA_TYPE,
  parseListQuery,
  type ApiRoute,
  type EndpointClass,
  type HttpMethod,
  type ListSpec,
  type ParsedListQuery,
  type Permission,
} from "@asset-delivery/sdk";
import type { AuthContext } from "./auth";
import { HttpError, ERROR_TITLES, invalidParameters, validationFailed } from "./errors";
import { documentSerializer } from "./serialization";

export interface RouteContext<Body> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The authenticated key: always present, the auth hook has run. */
  auth: AuthContext;
  params: Record<string, string>;
  /** The request body parsed with the route's `body` schema. */
  body: Body;
  /** The list parameters parsed with the route's `list` spec (page, sort, filters, fields). */
  list: ParsedListQuery;
}

export interface RouteDefinition<B extends z.ZodType | undefined = z.ZodType | undefined> {
  /** Method, path and rate-limit class: an entry of the sdk's API_ROUTES. */
  route: ApiRoute;
  /** What the key must grant; "any" = any valid key. Every API route must declare one. */
  permission: Permission | "any";
  body?: B;
  /** Makes the route a list: fields, page, sort and filter parameters per this spec. */
  list?: ListSpec;
  /** On a single-object route: accepts `fields[<type>]` of this spec (in `list.fields`). */
  fields?: ListSpec;
  /**
   * Error statuses the handler answers beyond those every route of its kind can (400 for a body
   * or list, 401, 403 for a permission, 404 for a path parameter, 429, 500): for the OpenAPI document.
   */
  errors?: readonly number[];
  /** Schema of the success document (validated when the app's `validateResponses` is on). */
  response: z.ZodType;
  /** On a list or fields route: the success document when `fields[<type>]` selects attributes (for OpenAPI). */
  selectedResponse?: z.ZodType;
  status: number;
  summary: string;
  /** Media type of the success response; JSON:API by default. */
  mediaType?: string;
  handler: (context: RouteContext<B extends z.ZodType ? z.output<B> : undefined>) => unknown;
}

export type RegisteredRoute = Omit<RouteDefinition, "handler" | "route"> & {
  method: HttpMethod;
  /** Fastify syntax, e.g. `/api/v1/sources/:id`. */
  url: string;
  endpointClass: EndpointClass;
};

declare module "fastify" {
  interface FastifyInstance {
    /** Every route defined with defineRoute, in registration order. Shared by all contexts. */
    routeRegistry: RegisteredRoute[];
  }
  interface FastifyContextConfig {
    permission?: Permission | "any";
    /** The rate-limit class of the matched route; none on routes without a key. */
    endpointClass?: EndpointClass;
    /** A route that needs no key (the 405 answers, health, the OpenAPI document). */
    public?: boolean;
  }
}

/** The app's route registry, which defineRoute fills: modules that define routes depend on it. */
export const routeRegistryPlugin = fp(
  async function routeRegistry(app: FastifyInstance) {
    app.decorate("routeRegistry", []);
  },
  { name: "route-registry" },
);

const NO_LIST: ParsedListQuery = Object.freeze({ all: [], any: [], sort: [], fields: null, page: { number: 0, size: 0 } });

export function defineRoute<B extends z.ZodType | undefined = undefined>(app: FastifyInstance, definition: RouteDefinition<B>): void {
  const { handler, route, ...rest } = definition;
  const registered: RegisteredRoute = { ...rest, method: route.method, url: fastifyPath(route.path), endpointClass: route.endpointClass };
  app.routeRegistry.push(registered);
  const mediaType = definition.mediaType ?? JSONAPI_MEDIA_TYPE;
  const validateResponses = app.appOptions.validateResponses === true;
  // Compiled once: whole objects and sparse fieldsets alike. Setting the reply's serializer also
  // keeps Fastify from appending "; charset=utf-8" to the media type, which JSON:API forbids.
  const serialize = documentSerializer(
    definition.selectedResponse ? z.union([definition.response, definition.selectedResponse]) : definition.response,
  );

  app.route({
    method: registered.method,
    url: registered.url,
    config: { permission: definition.permission, endpointClass: registered.endpointClass },
    // Not async: a handler that needs no waiting (most) answers without a promise and a tick.
    handler(request, reply) {
      const list = definition.list
        ? parseList(definition.list, request)
        : definition.fields
          ? parseFields(definition.fields, request)
          : NO_LIST;
      const body = definition.body ? parseBody(definition.body, request.body) : undefined;
      const result = handler({
        request,
        reply,
        auth: request.auth!,
        params: request.params as Record<string, string>,
        body: body as never,
        list,
      });
      const finish = (document: unknown) => {
        // A sparse fieldset leaves out attributes on purpose: only whole objects are checked.
        if (validateResponses && list.fields === null) assertResponse(registered, document);
        reply.code(definition.status).type(mediaType).serializer(serialize);
        return document;
      };
      return result instanceof Promise ? result.then(finish) : finish(result);
    },
  });
}

/** `/api/v1/sources/{id}` → `/api/v1/sources/:id`. */
function fastifyPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ":$1");
}

function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null) {
    throw new HttpError(400, ERROR_TITLES[400]!, `The request has no body: send a JSON document with Content-Type ${JSONAPI_MEDIA_TYPE}.`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationFailed(fieldIssues(parsed.error));
  return parsed.data;
}

function parseList(spec: ListSpec, request: FastifyRequest): ParsedListQuery {
  const parsed = parseListQuery(spec, request.query as Record<string, string | string[] | undefined>);
  if (!parsed.ok) throw invalidParameters(parsed.issues);
  return parsed.query;
}

/** Only `fields[<type>]`: a single object has no paging, sorting or filtering to check. */
function parseFields(spec: ListSpec, request: FastifyRequest): ParsedListQuery {
  const name = `fields[${spec.type}]`;
  const value = (request.query as Record<string, string | string[] | undefined>)[name];
  if (value === undefined) return NO_LIST; // the usual case, on every GET of one object
  const parsed = parseListQuery(spec, { [name]: value });
  if (!parsed.ok) throw invalidParameters(parsed.issues);
  return parsed.query;
}

/** A response that breaks its own schema is a server bug: a 500, with the issues in the log. */
function assertResponse(definition: RegisteredRoute, result: unknown): void {
  const parsed = definition.response.safeParse(result);
  if (!parsed.success) {
    throw new Error(`response of ${definition.method} ${definition.url} breaks its schema: ${JSON.stringify(parsed.error.issues)}`);
  }
}
