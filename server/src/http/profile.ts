// Response profiles. "full" answers with more than the spec promises, to help people debugging
// (error `source` pointers and `meta`, `Retry-After`, `X-Request-Id`, `WWW-Authenticate`, ...).
// "minimal" sends only what the spec names, as far as public evidence shows the real service
// does: error objects with exactly `detail`, `id`, `meta` ({}), `status`, `title` (errorDocument)
// and none of the headers below. Clients must work against both.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export const PROFILES = ["full", "minimal"] as const;
export type Profile = (typeof PROFILES)[number];

/** Response headers of ours that the spec does not name: the minimal profile never sends them. */
export const HEADERS_BEYOND_SPEC = ["x-request-id", "retry-after", "www-authenticate", "location", "allow"] as const;

/** In the minimal profile, an onSend hook that removes the headers beyond the spec. */
export const profilePlugin = fp(
  async function profile(app: FastifyInstance) {
    if (app.appOptions.profile !== "minimal") return;
    app.addHook("onSend", (_request, reply, payload, done) => {
      for (const name of HEADERS_BEYOND_SPEC) reply.removeHeader(name);
      done(null, payload);
    });
  },
  { name: "profile", decorators: { fastify: ["appOptions"] } },
);
