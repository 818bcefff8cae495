// Over HTTPS the dashboard's cookies are named with the `__Host-` prefix and scoped to Path=/: a
// browser keeps such a cookie only when this very host set it over HTTPS, Secure and without a
// Domain, so a sibling subdomain (or a plain-HTTP answer forged on the network) cannot plant a
// session or a sign-in form's cookie. Over plain HTTP (the emulator on a laptop) browsers would
// drop a prefixed cookie, so the names stay bare there. The rest of the dashboard names each cookie
// by its bare name: a request's `__Host-` cookie is read under it, and a reply over HTTPS sets it
// under the prefixed one. Done per reply because @fastify/session takes one cookie name when it is
// registered, not one per request.
//
// Upgrading: a browser may still hold a bare cookie (Path=/dashboard) set over HTTPS by an earlier
// release. A bare session or sign-in form cookie is not believed over HTTPS (it may be a planted
// one) and is cleared: the user signs in once more, a form opened before asks for a reload once. A
// bare device cookie is still read (it is signed for its user and signs nobody in: a planted one
// counts for nothing), and cleared when its prefixed successor is set, at the next sign-in.
import type { FastifyInstance } from "fastify";

export const HOST_PREFIX = "__Host-";

/** The path the bare cookies were set with. */
const BARE_PATH = "/dashboard";

/**
 * Renames the dashboard's cookies over HTTPS, for `names` (bare names). Register after
 * @fastify/cookie (which parses them) and before anything that reads one, @fastify/session included.
 * `stillRead`: the bare names whose cookie from an earlier release is still read over HTTPS.
 */
export function useHostCookies(app: FastifyInstance, names: readonly string[], stillRead: readonly string[]): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.protocol !== "https") return;
    const setCookie = reply.setCookie.bind(reply);
    const clearCookie = reply.clearCookie.bind(reply);
    const clearBare = (name: string) => clearCookie(name, { path: BARE_PATH });
    // Bare cookies still read, to clear once their successor is set.
    const bareKept = new Set<string>();
    for (const name of names) {
      const bare = request.cookies[name];
      const prefixed = request.cookies[HOST_PREFIX + name];
      if (bare !== undefined && stillRead.includes(name)) bareKept.add(name);
      else if (bare !== undefined) clearBare(name);
      if (prefixed !== undefined || !stillRead.includes(name)) request.cookies[name] = prefixed;
    }
    const ours = (name: string) => names.includes(name);
    const host = { path: "/", secure: true, domain: undefined };
    reply.setCookie = (name, value, options) => {
      if (!ours(name)) return setCookie(name, value, options);
      if (bareKept.delete(name)) clearBare(name);
      return setCookie(HOST_PREFIX + name, value, { ...options, ...host });
    };
    reply.clearCookie = (name, options) =>
      ours(name) ? clearCookie(HOST_PREFIX + name, { ...options, ...host }) : clearCookie(name, options);
  });
}
