// The API's routes (spec section 4), each declared once: method, path template and the rate-limit
// class it counts against. The client's endpoints and the server's routes are both built from
// this table, so a limit follows the route a request matched, never the text of its URL.
import type { EndpointClass } from "./limits";

/** The methods the API's routes use. */
export type HttpMethod = "GET" | "POST" | "PATCH";

export interface ApiRoute {
  method: HttpMethod;
  /** Path template; parameters in braces, e.g. `/api/v1/sources/{id}`. */
  path: string;
  endpointClass: EndpointClass;
}

export const API_ROUTES = {
  listSources: { method: "GET", path: "/api/v1/sources", endpointClass: "default" },
  createSource: { method: "POST", path: "/api/v1/sources", endpointClass: "createSource" },
  getSource: { method: "GET", path: "/api/v1/sources/{id}", endpointClass: "default" },
  updateSource: { method: "PATCH", path: "/api/v1/sources/{id}", endpointClass: "updateSource" },
  listReports: { method: "GET", path: "/api/v1/reports", endpointClass: "default" },
  getReport: { method: "GET", path: "/api/v1/reports/{report_id}", endpointClass: "default" },
  getReportFile: { method: "GET", path: "/api/v1/reports/{report_id}/files/{file_number}", endpointClass: "default" },
  createVideo: { method: "POST", path: "/api/v1/generations/video", endpointClass: "default" },
  getVideo: { method: "GET", path: "/api/v1/generations/video/{job_id}", endpointClass: "default" },
  purge: { method: "POST", path: "/api/v1/purge", endpointClass: "purgeAsset" },
  getVideoResult: { method: "GET", path: "/api/v1/generations/video/{job_id}/result", endpointClass: "default" },
} as const satisfies Record<string, ApiRoute>;

/** The route's path with its parameters filled in (each URI-encoded), e.g. for a Location header. */
export function routePath(route: ApiRoute, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.method} ${route.path} needs its ${name} parameter`);
    return encodeURIComponent(value);
  });
}
