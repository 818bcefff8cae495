// The JSON:API envelopes of every response (spec 2.1 and 7). `meta` carries who was authenticated
// and which server answered (the spec shows both objects but not their contents: ours follow
// the sdk's responseMetaSchema).
import * as fs from "node:fs";
import * as path from "node:path";
import type { FastifyRequest } from "fastify";
import { paginationFor, type Pagination } from "@asset-delivery/sdk";
import type { AuthContext } from "./auth";
import type { ErrorEntry } from "./errors";

const packageJson = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };

export const SERVER_INFO = Object.freeze({ name: "asset-delivery-server", version: packageJson.version });
const JSONAPI = Object.freeze({ version: "1.0" as const });

export interface ResponseMeta {
  authentication: { authorized: boolean; key_id: string | null };
  server: typeof SERVER_INFO;
}

export function responseMeta(request: FastifyRequest): ResponseMeta {
  const auth = request.auth;
  return { authentication: { authorized: auth !== null, key_id: auth?.keyId ?? null }, server: SERVER_INFO };
}

export function singleDocument<R>(request: FastifyRequest, data: R) {
  return { data, included: [] as unknown[], jsonapi: JSONAPI, meta: responseMeta(request) };
}

/** A list page; `pagination` comes from the sdk's paginationFor, so client and server agree. */
export function listDocument<R>(request: FastifyRequest, data: R[], page: { number: number; size: number }, totalRecords: number) {
  const pagination: Pagination = paginationFor(page, totalRecords);
  return { data, included: [] as unknown[], jsonapi: JSONAPI, meta: { ...responseMeta(request), pagination } };
}

/**
 * An error document: `errors`, `jsonapi`, `meta`, and the `server` member the spec lists beside
 * them (section 7), the same object as `meta.server`.
 */
export function errorDocument(request: FastifyRequest, status: number, entries: readonly ErrorEntry[]) {
  return {
    errors: entries.map((entry) => ({
      detail: entry.detail,
      id: request.id,
      meta: entry.meta ?? {},
      status: String(status),
      title: entry.title,
      ...(entry.source && { source: entry.source }),
    })),
    jsonapi: JSONAPI,
    meta: responseMeta(request),
    server: SERVER_INFO,
  };
}

/**
 * A success document already written as JSON text. The hot Source paths build their resources as
 * text straight from the stored JSON, instead of parsing it only to serialize it again.
 */
export class SerializedDocument {
  constructor(readonly json: string) {}
}

const JSONAPI_JSON = JSON.stringify(JSONAPI);

// The meta of a single document as JSON text, once per authenticated key: the key store hands out
// the same AuthContext for a key while it remembers the key.
const metaJsonByAuth = new WeakMap<AuthContext, string>();

function responseMetaJson(request: FastifyRequest): string {
  const auth = request.auth;
  if (auth === null) return JSON.stringify(responseMeta(request));
  let json = metaJsonByAuth.get(auth);
  if (json === undefined) {
    json = JSON.stringify(responseMeta(request));
    metaJsonByAuth.set(auth, json);
  }
  return json;
}

/** The same envelope as singleDocument, around a resource given as JSON text. */
export function singleDocumentJson(request: FastifyRequest, resourceJson: string): SerializedDocument {
  return new SerializedDocument(`{"data":${resourceJson},"included":[],"jsonapi":${JSONAPI_JSON},"meta":${responseMetaJson(request)}}`);
}

/** The same envelope as listDocument, around resources given as JSON text. */
export function listDocumentJson(request: FastifyRequest, resourcesJson: readonly string[], page: { number: number; size: number }, totalRecords: number) {
  const meta = { ...responseMeta(request), pagination: paginationFor(page, totalRecords) };
  return new SerializedDocument(`{"data":[${resourcesJson.join(",")}],"included":[],"jsonapi":${JSONAPI_JSON},"meta":${JSON.stringify(meta)}}`);
}

/**
 * Serializer for every response document. Setting one on the reply also stops Fastify from
 * appending "; charset=utf-8" to the media type, which JSON:API forbids (only ext and profile).
 */
export function serializeDocument(document: unknown): string {
  return document instanceof SerializedDocument ? document.json : JSON.stringify(document);
}
