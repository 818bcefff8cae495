// The address clients reached this server at, for the absolute URLs the API returns (report
// files, video results): the operator's `publicBaseUrl` when set, so a client cannot choose the
// host of the links it is given; else the request's scheme and Host (a local emulator's default).
import type { FastifyRequest } from "fastify";

export function baseUrlOf(request: FastifyRequest): string {
  return request.server.appOptions.publicBaseUrl?.replace(/\/+$/, "") ?? `${request.protocol}://${request.host}`;
}

/** Refuses at start-up a base URL that links could not be built on. */
export function checkPublicBaseUrl(value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash || url.username || url.password) {
    throw new Error(`publicBaseUrl must be an absolute http:// or https:// URL without query, fragment or credentials, got "${value}"`);
  }
}
