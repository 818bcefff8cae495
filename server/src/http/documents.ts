// The JSON:API envelopes of every response (spec 2.1 and 7). `meta` carries who was authenticated
// and which server answered (the spec shows both objects but not their contents: ours follow
// the sdk's responseMetaSchema). Every object leaves with its keys in alphabetical order, as the
// real service's documented examples show: serialization.ts writes the members a schema names in
// that order, and the maps built here and in the views are built in it (inNameOrder).
import * as fs from "node:fs";
import * as path from "node:path";
import type { FastifyRequest } from "fastify";
import { paginationFor, type Pagination, isPlainObject } from "@asset-delivery/sdk";
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
 * them (section 7), the same object as `meta.server`. In the minimal profile an error object has
 * exactly the spec's five members, `meta` empty; the full one adds `source` and the entry's `meta`.
 */
export function errorDocument(request: FastifyRequest, status: number, entries: readonly ErrorEntry[]) {
  const minimal = request.server.appOptions.profile === "minimal";
  return {
    errors: entries.map((entry) => ({
      detail: entry.detail,
      id: request.id,
      meta: minimal || entry.meta === undefined ? {} : inNameOrder(entry.meta),
      status: String(status),
      title: entry.title,
      ...(!minimal && entry.source && { source: entry.source }),
    })),
    jsonapi: JSONAPI,
    meta: responseMeta(request),
    server: SERVER_INFO,
  };
}

/**
 * A map (an object whose member names are data, not schema: default_params, an error's meta) with
 * its members in name order, and so the objects inside it: the serializer writes a map's members
 * in the order they are held.
 */
export function inNameOrder<V>(map: Readonly<Record<string, V>>): Record<string, V> {
  const sorted: Record<string, V> = {};
  for (const name of Object.keys(map).sort()) {
    const value = map[name]!;
    sorted[name] = isPlainObject(value) ? (inNameOrder(value) as V) : value;
  }
  return sorted;
}
