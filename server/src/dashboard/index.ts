// The account dashboard at /dashboard (issue 31): server-rendered pages for the users of an account
// (sign in, API keys, Sources, reports, video jobs) from the same app and stores as the API.
// Encapsulated: its cookies, session, CSRF protection, form bodies, templates and HTML errors
// apply to its routes only, never to the API's.
import { hkdfSync } from "node:crypto";
import * as path from "node:path";
import fastifyCookie, { Signer } from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import fastifySession from "@fastify/session";
import fastifyView from "@fastify/view";
import { Eta } from "eta";
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { clientAddress, clientNetworks } from "./client-key";
import { createDeviceCookies, DEVICE_COOKIE } from "./device-cookie";
import { useHostCookies } from "./host-cookies";
import { definePublicPage, mayAccess, PageError } from "./page";
import { defineKeyPages } from "./pages/keys";
import { definePasswordPages } from "./pages/password";
import { defineReportPages } from "./pages/reports";
import { defineSignInPages } from "./pages/sign-in";
import { defineSourcePages } from "./pages/sources";
import { defineVideoPages } from "./pages/videos";
import { ASSETS, FILES_DIR, renderPage } from "./render";
import { createRequestLimit } from "./request-limit";
import { createSessionRules, DEFAULT_SESSION_LIFETIME_HOURS } from "./session-rules";
import { createSessionStore } from "./session-store";
import { createSignInForms, SIGN_IN_FORM_COOKIE } from "./sign-in-form";
import { createSignInThrottle } from "./sign-in-throttle";
import { createHashingSlots } from "./users/hashing-slots";
import { createUserStore } from "./users/user-store";

export { dashboardMigrations } from "./migrations";

export const DASHBOARD_PREFIX = "/dashboard";
const SESSION_COOKIE = "asset_delivery_session";
const SESSION_HOURS = 8;
const FORM_BODY_LIMIT = 16 * 1024;

// Nothing but this origin's own files: an injected tag could neither run a script nor send data away.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** The cookie-signing secret, derived from the server's secret key (never the key itself). */
function sessionSecret(secretKey: Buffer): string {
  return Buffer.from(hkdfSync("sha256", secretKey, Buffer.alloc(0), "asset-delivery dashboard session cookie", 32)).toString("hex");
}

/** A form posted from another origin: refused by its Origin (or Fetch Metadata) before anything else. */
function isCrossOrigin(request: FastifyRequest): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== request.host;
  } catch {
    return true; // "null" (a sandboxed frame, a redirect chain) or garbage
  }
}

function errorMessage(error: FastifyError, status: number): string {
  if (error instanceof PageError) return error.message;
  if (error.code === "FST_CSRF_INVALID_TOKEN" || error.code === "FST_CSRF_MISSING_SECRET") {
    return "This form has expired or was not sent from this dashboard: reload the page and try again.";
  }
  if (status >= 500) return "The server failed to handle this request.";
  return error.message;
}

export async function dashboardPlugin(app: FastifyInstance): Promise<void> {
  const { db, now, secretKey, sessionLifetimeHours = DEFAULT_SESSION_LIFETIME_HOURS } = app.appOptions;
  const users = createUserStore(db, now);
  const sessions = createSessionRules({ users, now, lifetimeMs: sessionLifetimeHours * 3_600_000 });
  const throttle = createSignInThrottle(now);
  const hashing = createHashingSlots();
  const devices = createDeviceCookies(secretKey, db, now);

  app.addHook("onRoute", (route) => {
    if (route.config?.dashboardAccess === undefined) {
      throw new Error(`dashboard route ${String(route.method)} ${route.url} declares no access: every dashboard route must`);
    }
  });

  await app.register(fastifyCookie);
  // Over HTTPS, `__Host-` names (host-cookies.ts): read under the bare names from here on.
  useHostCookies(app, [SESSION_COOKIE, SIGN_IN_FORM_COOKIE, DEVICE_COOKIE], [DEVICE_COOKIE]);
  // Before the session is read, so a refused request costs no database read or write: a session's
  // bucket is keyed by its id once the cookie's signature is checked (a made-up cookie counts only
  // in its address's buckets). The answer is plain text, without rendering a page.
  const sessionSigner = new Signer(sessionSecret(secretKey));
  const requestLimit = createRequestLimit();
  app.addHook("onRequest", async (request, reply) => {
    const cookie = request.cookies[SESSION_COOKIE];
    const session = cookie === undefined ? undefined : sessionSigner.unsign(cookie);
    const waitSeconds = requestLimit.admit(
      clientNetworks(clientAddress(request)),
      session?.valid ? (session.value ?? undefined) : undefined,
    );
    if (waitSeconds === 0) return;
    return reply
      .code(429)
      .header("retry-after", String(waitSeconds))
      .type("text/plain; charset=utf-8")
      .send(`Too many requests to the dashboard: try again in ${waitSeconds} s.\n`);
  });
  await app.register(fastifySession, {
    secret: sessionSigner,
    store: createSessionStore(db),
    cookieName: SESSION_COOKIE,
    // Secure is added per request when it came over HTTPS (below): @fastify/session's "auto"
    // would lower SameSite to Lax over HTTP.
    cookie: { path: DASHBOARD_PREFIX, httpOnly: true, sameSite: "strict", secure: false, maxAge: SESSION_HOURS * 3_600_000 },
    saveUninitialized: false,
  });
  await app.register(fastifyCsrf, { sessionPlugin: "@fastify/session" });
  // Forms only: the app's JSON and text parsers (1 MiB bodies) do not reach the dashboard's routes,
  // whose every POST is a form; another body type is refused (415) unread.
  app.removeAllContentTypeParsers();
  await app.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT });
  await app.register(fastifyView, {
    // Eta escapes every `<%= %>` value (autoEscape is on by default and stays on).
    engine: { eta: new Eta({ views: path.join(FILES_DIR, "views"), cache: true, autoEscape: true }) },
    templates: path.join(FILES_DIR, "views"),
    viewExt: "eta",
  });
  app.decorateRequest("dashboardUser", null);

  app.addHook("onRequest", async (request) => {
    if (request.protocol === "https") request.session.options({ secure: true });
    if (request.method !== "GET" && request.method !== "HEAD" && isCrossOrigin(request)) {
      throw new PageError(403, "Refused: this form was sent from another site.");
    }
  });

  // Who may see the matched route, from its declaration; then, on every form, the CSRF token.
  app.addHook("preHandler", async (request, reply) => {
    const access = request.routeOptions.config.dashboardAccess;
    if (access === undefined || access === "public") return;
    const user = sessions.userOf(request);
    const account = user && app.accounts.findById(user.accountId);
    if (!user || !account) {
      if (request.session.userId !== undefined) await request.session.destroy();
      if (request.method === "GET") return reply.redirect(`${DASHBOARD_PREFIX}/login?next=${encodeURIComponent(request.url)}`, 303);
      throw new PageError(401, "Your session has ended: sign in again.");
    }
    if (!mayAccess(user, access))
      throw new PageError(403, `Your user lacks the "${access}" permission (or "Account Admin"), which this page needs.`);
    request.dashboardUser = { user, account };
  });
  app.addHook("preHandler", (request, reply, done) => {
    if (request.method === "POST" && request.routeOptions.config.csrf !== "sign-in-form") app.csrfProtection(request, reply, done);
    else done();
  });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("content-security-policy", CONTENT_SECURITY_POLICY);
    reply.header("x-content-type-options", "nosniff");
    reply.header("x-frame-options", "DENY");
    reply.header("referrer-policy", "same-origin");
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error instanceof PageError ? error.status : (error.statusCode ?? 500) < 500 ? error.statusCode! : 500;
    if (status >= 500) request.log.error({ err: error, reqId: request.id }, "dashboard request failed");
    reply.code(status);
    return renderPage(
      reply,
      "error",
      { title: status === 404 ? "Not found" : "Refused", user: request.dashboardUser?.user },
      {
        status,
        message: errorMessage(error, status),
      },
    );
  });
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404);
    return renderPage(
      reply,
      "error",
      { title: "Not found" },
      { status: 404, message: `No page of the dashboard is at ${request.url.split("?")[0]}.` },
    );
  });

  for (const [name, asset] of Object.entries(ASSETS)) {
    definePublicPage(app, {
      method: "GET",
      url: `/assets/${name}`,
      handler: (_request, reply) => reply.header("cache-control", "public, max-age=300").type(asset.type).send(asset.body),
    });
  }
  defineSignInPages(app, { users, throttle, hashing, sessions, devices, forms: createSignInForms(secretKey) });
  definePasswordPages(app, { users, throttle, hashing, sessions, devices });
  defineKeyPages(app);
  defineSourcePages(app);
  defineReportPages(app);
  defineVideoPages(app);
}
