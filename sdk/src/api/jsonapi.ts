// JSON:API document envelopes (spec 2.1 and 7). Responses tolerate unknown members.
import { z } from "zod";
import { expected } from "./rules";

export const JSONAPI_MEDIA_TYPE = "application/vnd.api+json";

export const jsonapiObjectSchema = z.object({ version: z.literal("1.0") });

export const paginationSchema = z.object({
  currentPage: z.int().min(0),
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
  nextPage: z.int().min(0),
  pageSize: z.int().min(1),
  previousPage: z.int().min(0),
  totalPages: z.int().min(0),
  totalRecords: z.int().min(0),
});
export type Pagination = z.output<typeof paginationSchema>;

/** Which server answered: in `meta.server`, and beside `errors` in an error document (spec 7). */
export const serverInfoSchema = z.object({ name: z.string(), version: z.string() });

/** `meta` of every response: who was authenticated and which server answered ("not shown" by the spec). */
export const responseMetaSchema = z
  .object({
    authentication: z.object({ authorized: z.boolean(), key_id: z.string().nullable() }).optional(),
    server: serverInfoSchema.optional(),
  })
  .loose();

export function singleDocumentSchema<R extends z.ZodType>(resource: R) {
  return z.object({
    data: resource,
    included: z.array(z.unknown()),
    jsonapi: jsonapiObjectSchema,
    meta: responseMetaSchema,
  });
}

export function listDocumentSchema<R extends z.ZodType>(resource: R) {
  return z.object({
    data: z.array(resource),
    included: z.array(z.unknown()),
    jsonapi: jsonapiObjectSchema,
    meta: responseMetaSchema.and(z.object({ pagination: paginationSchema })),
  });
}

/** A create request: `data` with `type` and `attributes`, never an `id`. */
export function createDocumentSchema<T extends string, A extends z.ZodType>(type: T, attributes: A) {
  return z.strictObject(
    {
      data: z.strictObject(
        {
          type: z.literal(type, { error: `must be "${type}"` }),
          attributes,
          id: z.undefined({ error: "must not be sent: the service assigns the id" }).optional(),
        },
        expected("an object with type and attributes"),
      ),
      jsonapi: jsonapiObjectSchema.optional(),
    },
    expected("a JSON:API document with a data member"),
  );
}

/** An update request: `data` with `type`, `id` and the `attributes` to change. */
export function updateDocumentSchema<T extends string, A extends z.ZodType>(type: T, attributes: A) {
  return z.strictObject(
    {
      data: z.strictObject(
        {
          type: z.literal(type, { error: `must be "${type}"` }),
          id: z.string(expected("the id of the object being updated")),
          attributes: attributes.optional(),
        },
        expected("an object with type, id and attributes"),
      ),
      jsonapi: jsonapiObjectSchema.optional(),
    },
    expected("a JSON:API document with a data member"),
  );
}

export const errorObjectSchema = z.object({
  detail: z.string(),
  id: z.string(),
  meta: z.record(z.string(), z.unknown()),
  status: z.string().regex(/^[1-5][0-9]{2}$/),
  title: z.string(),
  /** Where the problem is in the request (JSON:API `source.pointer` / `source.parameter`). */
  source: z.object({ pointer: z.string().optional(), parameter: z.string().optional() }).optional(),
});
export type ErrorObject = z.output<typeof errorObjectSchema>;

export const errorDocumentSchema = z.object({
  errors: z.array(errorObjectSchema).min(1),
  jsonapi: jsonapiObjectSchema,
  meta: responseMetaSchema,
  server: serverInfoSchema.optional(),
});
export type ErrorDocument = z.output<typeof errorDocumentSchema>;
