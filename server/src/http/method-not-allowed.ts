// 405 with an `Allow` header for a method a known path does not support (the API has, e.g., no
// DELETE for Sources). Derived from the route registry, so it must be registered after all routes.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { HttpError, ERROR_TITLES } from "./errors";

export const methodNotAllowedPlugin = fp(
  async function methodNotAllowed(app: FastifyInstance) {
    // Every method Fastify routes (TRACE and QUERY too): any of them a path lacks is a 405, not a 404.
    const methods = app.supportedMethods;
    const allowedByUrl = new Map<string, Set<string>>();
    for (const route of app.routeRegistry) {
      const allowed = allowedByUrl.get(route.url) ?? new Set<string>();
      allowed.add(route.method);
      if (route.method === "GET") allowed.add("HEAD"); // Fastify answers HEAD for every GET route
      allowedByUrl.set(route.url, allowed);
    }
    for (const [url, allowed] of allowedByUrl) {
      const allow = methods.filter((method) => allowed.has(method)).join(", ");
      const refused = methods.filter((method) => !allowed.has(method));
      if (refused.length === 0) continue;
      app.route({
        method: refused,
        url,
        config: { public: true },
        // Refused before the body is read, so a bad body cannot mask the 405.
        onRequest(request, _reply, done) {
          done(
            new HttpError(405, ERROR_TITLES[405]!, `${request.method} is not allowed on ${url}; allowed: ${allow}.`, {
              headers: { allow },
            }),
          );
        },
        handler() {
          throw new Error("unreachable: the onRequest hook refuses every request");
        },
      });
    }
  },
  { name: "method-not-allowed", dependencies: ["route-registry"] },
);
