// Authentication and authorization of every API call (spec section 5): `Authorization: Bearer <key>`,
// the key looked up by its hash, then the route's declared permission checked with the sdk's grants().
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { grants } from "@asset-delivery/sdk";
import type { AuthContext, KeyStore } from "../accounts/key-store";
import { HttpError, ERROR_TITLES } from "./errors";

export type { AuthContext } from "../accounts/key-store";

declare module "fastify" {
  interface FastifyRequest {
    /** The calling key; null until the auth hook ran, and on routes that need no key. */
    auth: AuthContext | null;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9]+) *$/i;
// Paths of the API: each route under them must declare a permission (or be marked public).
const API_PREFIXES = ["/api/", "/v1/"];

/** The real service's detail for every 401, missing, malformed or unknown key alike (a live-API capture). */
export const UNAUTHORIZED_DETAIL = "A valid API key is required and could not be determined.";

function unauthorized(invalidToken: boolean): HttpError {
  // RFC 6750: error="invalid_token" when a key was presented but is not valid.
  const challenge = invalidToken ? 'Bearer realm="asset-delivery", error="invalid_token"' : 'Bearer realm="asset-delivery"';
  return new HttpError(401, ERROR_TITLES[401]!, UNAUTHORIZED_DETAIL, { headers: { "www-authenticate": challenge } });
}

function authenticate(keys: KeyStore, request: FastifyRequest): AuthContext {
  const header = request.headers.authorization;
  if (header === undefined || header === "") throw unauthorized(false);
  const match = BEARER.exec(header);
  if (!match) throw unauthorized(false);
  const auth = keys.authenticate(match[1]!);
  if (!auth) throw unauthorized(true);
  return auth;
}

/**
 * The auth hook, and the refusal (at startup) of any API route that does not declare its
 * permission: register it before the modules that define routes.
 */
export const authPlugin = fp(
  async function auth(app: FastifyInstance) {
    const keys = app.keys;
    app.decorateRequest("auth", null);

    app.addHook("onRoute", (route) => {
      const config = route.config ?? {};
      if (API_PREFIXES.some((prefix) => route.url.startsWith(prefix)) && config.permission === undefined && config.public !== true) {
        throw new Error(`route ${String(route.method)} ${route.url} declares no permission: every API route must`);
      }
    });

    // A callback hook, not an async one: it runs on every request and never waits for anything.
    app.addHook("onRequest", (request, _reply, done) => {
      const needed = request.routeOptions.config.permission;
      if (needed === undefined) return done();
      try {
        const auth = authenticate(keys, request);
        request.auth = auth;
        if (needed !== "any" && !grants(auth.permissions, needed)) {
          throw new HttpError(
            403,
            ERROR_TITLES[403]!,
            `This API key lacks the "${needed}" permission (or "Account Admin"), which ${request.method} ${request.routeOptions.url} requires.`,
          );
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    });
  },
  { name: "auth", dependencies: ["accounts"] },
);
