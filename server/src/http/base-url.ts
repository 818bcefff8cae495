// The address clients reached this server at, for the absolute URLs the API returns (report
// files, video results): scheme and Host of the request.
import type { FastifyRequest } from "fastify";

export function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
