// The application is one Fastify plugin (appPlugin) made of module plugins, each declaring the
// decorators and plugins it needs; buildApp makes the Fastify instance, registers it (and fault
// injection when asked), without listening (listen.ts does that). Tests and the CLI build it with
// one options object.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from "fastify";
import fp from "fastify-plugin";
import { DEFAULT_DELIVERY_DOMAIN } from "@asset-delivery/sdk";
import { accountsPlugin } from "./accounts";
import { authPlugin } from "./http/auth";
import { dashboardPlugin, DASHBOARD_PREFIX } from "./dashboard";
import { checkPublicBaseUrl } from "./http/base-url";
import { contentTypesPlugin } from "./http/content-types";
import { errorHandlingPlugin } from "./http/error-handler";
import { faultsPlugin, type FaultOptions } from "./http/faults";
import { methodNotAllowedPlugin } from "./http/method-not-allowed";
import { profilePlugin, type Profile } from "./http/profile";
import { rateLimitsPlugin } from "./http/rate-limit";
import { routeRegistryPlugin } from "./http/route";
import { fastifyTrustProxy, trustProxyProblem, warnOfUnbelievedProxy, type TrustProxy } from "./http/trust-proxy";
import { allMigrations } from "./migrations";
import { openApiPlugin } from "./openapi";
import { purgesPlugin } from "./purges";
import { reportsPlugin } from "./reports";
import { sourcesPlugin } from "./sources";
import { migrate, type Database } from "./store/database";
import { newRequestId } from "./store/random";
import { videosPlugin } from "./videos";

export interface AppOptions {
  db: Database;
  /** Where modules keep files (report files); usually the database's folder. */
  dataDir: string;
  /** How long a deployment takes before its Source reports `deployed` (spec default of ours: 1500). */
  deployDelayMs: number;
  /**
   * How long after a change its deployment starts (default DEFAULT_DEPLOY_LAG_MS): until then
   * reads still show the deployment before it, `deployed`, as the real service's do. 0: at once.
   */
  deployLagMs?: number;
  /** Service subdomains are `<label>.<deliveryDomain>` (purge URLs); default the sdk's DEFAULT_DELIVERY_DOMAIN. */
  deliveryDomain?: string;
  /** "spec": the limits of spec section 8 per account; "off": none (tests, CI). */
  rateLimits: "spec" | "off";
  /**
   * The hourly limits (Source creates and updates) counted per this many milliseconds instead of per
   * hour, the same counts: hour-long budgets in minutes, for tests and demos. Default an hour.
   */
  rateLimitHourMs?: number;
  /** Clock in milliseconds, injectable for tests. */
  now?: () => number;
  /** 32 bytes: the AES-256-GCM key that encrypts write-only values at rest. */
  secretKey: Buffer;
  /** Fastify's logger: false (default) or pino options. The Authorization header is always redacted. */
  logger?: boolean | Record<string, unknown>;
  /** Split report files above this many bytes (default: the spec's 64 MB). */
  reportFileSizeLimit?: number;
  /** Check every success response against its route's schema (tests); costs time per request. */
  validateResponses?: boolean;
  /**
   * Local development only: let video jobs fetch images from loopback, private and link-local
   * addresses. Off by default: with it on, any API key can make the server read its own network.
   */
  allowPrivateImageAddresses?: boolean;
  /**
   * The address clients reach this server at (`https://api.example.test`, or with a path prefix),
   * for the absolute URLs it returns (report files, video results, the OpenAPI servers entry).
   * Unset: the request's scheme and Host header, which a client chooses.
   */
  publicBaseUrl?: string;
  /**
   * "full" (default): responses may carry more than the spec promises (error `source` pointers and
   * `meta`, `Retry-After`, `X-Request-Id`, ...); "minimal": only what the spec names, to prove that
   * clients rely on nothing else (server/src/http/profile.ts).
   */
  profile?: Profile;
  /** Fault injection for resilience runs (server/src/http/faults.ts); off when absent. */
  faults?: FaultOptions;
  /**
   * How long a dashboard session signs its user in after sign-in, however busy (default
   * DEFAULT_SESSION_LIFETIME_HOURS, 12); the idle timeout (8 h) ends unused sessions sooner.
   */
  sessionLifetimeHours?: number;
  /**
   * Behind a proxy that terminates TLS: which proxies to believe about the client, the number of
   * them in front of the server or their addresses and CIDR ranges, comma-separated; never any
   * (server/src/http/trust-proxy.ts). Then `X-Forwarded-Proto: https` makes the dashboard's cookie
   * `Secure`, and `X-Forwarded-For` gives the client address its limits count by. Unset: neither
   * header is believed (and the first request that carries one is logged, once).
   */
  trustProxy?: TrustProxy;
}

/** A short lag, as the real service has (a public provider waits 5 s before it polls). */
export const DEFAULT_DEPLOY_LAG_MS = 300;

export interface ResolvedAppOptions extends AppOptions {
  now: () => number;
  deployLagMs: number;
  deliveryDomain: string;
  profile: Profile;
}

declare module "fastify" {
  interface FastifyInstance {
    appOptions: ResolvedAppOptions;
    db: Database;
  }
}

function loggerOption(logger: AppOptions["logger"]): FastifyServerOptions["logger"] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  // The plaintext API key must never reach a log line.
  return { ...base, redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[redacted]" } };
}

function resolveOptions(options: AppOptions): ResolvedAppOptions {
  if (options.secretKey.length !== 32) throw new Error("secretKey must be 32 bytes (AES-256)");
  if (options.publicBaseUrl !== undefined) checkPublicBaseUrl(options.publicBaseUrl);
  const trustProblem = options.trustProxy === undefined ? undefined : trustProxyProblem(options.trustProxy);
  if (trustProblem) throw new Error(`trustProxy: ${trustProblem}`);
  return {
    ...options,
    now: options.now ?? Date.now,
    deployLagMs: options.deployLagMs ?? DEFAULT_DEPLOY_LAG_MS,
    deliveryDomain: options.deliveryDomain ?? DEFAULT_DELIVERY_DOMAIN,
    profile: options.profile ?? "full",
  };
}

/**
 * The Management API, as a plugin, on a migrated database. Plugins load in the order registered
 * and each declares what it needs: the HTTP pieces first (auth refuses any later API route without
 * a permission), then the modules, then the 405 answers derived from every route defined before.
 * Each is wrapped with fastify-plugin, so all routes share the app's context and hooks the caller
 * adds to the app afterwards (a test's request counter) reach them too.
 */
export const appPlugin = fp(
  async function assetDeliveryApp(app: FastifyInstance, options: ResolvedAppOptions) {
    app.decorate("appOptions", options);
    app.decorate("db", options.db);
    app.addHook("onRequest", (request, reply, done) => {
      reply.header("x-request-id", request.id);
      done();
    });
    void app.register(routeRegistryPlugin);
    void app.register(profilePlugin);
    void app.register(contentTypesPlugin);
    void app.register(errorHandlingPlugin);
    void app.register(accountsPlugin);
    void app.register(authPlugin);
    if (options.rateLimits === "spec") void app.register(rateLimitsPlugin);

    void app.register(sourcesPlugin);
    void app.register(reportsPlugin);
    void app.register(videosPlugin);
    void app.register(purgesPlugin);
    // Encapsulated (its session, CSRF and HTML errors stay under its prefix), on the stores above.
    void app.register(dashboardPlugin, { prefix: DASHBOARD_PREFIX });
    void app.register(openApiPlugin);
    void app.register(methodNotAllowedPlugin);
  },
  { name: "asset-delivery", fastify: "5.x" },
);

/** A Fastify instance with the app registered, ready to inject or listen; fault injection only when `faults` asks for it. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const resolved = resolveOptions(options);
  migrate(options.db, allMigrations);
  const app = Fastify({
    logger: loggerOption(options.logger),
    // With a logger, requests log through it, not through a child logger made for each request
    // (~2 µs apiece): only failures are logged, and the error handler writes their request id
    // itself. Without one, Fastify's own factory is cheaper still (it skips checking ours).
    ...(options.logger ? { childLoggerFactory: (logger: FastifyBaseLogger) => logger } : {}),
    genReqId: newRequestId,
    // Ids come from us, never from the client, so they are unique for support.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
    ...(options.trustProxy !== undefined && { trustProxy: fastifyTrustProxy(options.trustProxy) }),
  });
  try {
    if (options.trustProxy === undefined) warnOfUnbelievedProxy(app);
    await app.register(appPlugin, resolved);
    if (options.faults) await app.register(faultsPlugin, options.faults);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
