// The application as a Fastify instance: plugins, stores and routes, without listening (listen.ts
// does that). Tests and the CLI build it with one options object.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { DEFAULT_DELIVERY_DOMAIN } from "@asset-delivery/sdk";
import { createAccountStore, type AccountStore } from "./accounts/account-store";
import { createKeyStore, type KeyStore } from "./accounts/key-store";
import { registerAuth } from "./http/auth";
import { checkPublicBaseUrl } from "./http/base-url";
import { registerContentTypes } from "./http/content-types";
import { registerErrorHandling } from "./http/error-handler";
import { registerFaults, type FaultOptions } from "./http/faults";
import { registerProfile, type Profile } from "./http/profile";
import { methodNotAllowedPlugin } from "./http/method-not-allowed";
import { registerRateLimits } from "./http/rate-limit";
import { allMigrations } from "./migrations";
import { registerOpenApi } from "./openapi";
import { registerPurges } from "./purges";
import { registerReports } from "./reports";
import { registerSources } from "./sources/source-routes";
import { migrate, type Database } from "./store/database";
import { newRequestId } from "./store/random";
import { registerVideos } from "./videos";

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
    accounts: AccountStore;
    keys: KeyStore;
  }
}

function loggerOption(logger: AppOptions["logger"]): FastifyServerOptions["logger"] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  // The plaintext API key must never reach a log line.
  return { ...base, redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[redacted]" } };
}

export function buildApp(options: AppOptions): FastifyInstance {
  if (options.secretKey.length !== 32) throw new Error("secretKey must be 32 bytes (AES-256)");
  if (options.publicBaseUrl !== undefined) checkPublicBaseUrl(options.publicBaseUrl);
  const resolved: ResolvedAppOptions = {
    ...options,
    now: options.now ?? Date.now,
    deployLagMs: options.deployLagMs ?? DEFAULT_DEPLOY_LAG_MS,
    deliveryDomain: options.deliveryDomain ?? DEFAULT_DELIVERY_DOMAIN,
    profile: options.profile ?? "full",
  };
  migrate(options.db, allMigrations);

  const app = Fastify({
    logger: loggerOption(options.logger),
    // Requests log through the app's logger, not a child logger made for each request (~2 µs
    // apiece): only failures are logged, and the error handler writes their request id itself.
    childLoggerFactory: (logger) => logger,
    genReqId: newRequestId,
    // Ids come from us, never from the client, so they are unique for support.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  });

  app.decorate("appOptions", resolved);
  app.decorate("db", options.db);
  app.decorate("routeRegistry", []);
  app.decorate("accounts", createAccountStore(options.db, resolved.now));
  app.decorate("keys", createKeyStore(options.db, resolved.now));

  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
  registerProfile(app, resolved.profile);
  registerContentTypes(app);
  registerErrorHandling(app);
  registerAuth(app, app.keys);

  // Rate limits (spec 8): an onRequest hook after auth, keyed by request.auth.keyId.
  if (options.rateLimits === "spec") registerRateLimits(app, options.db, resolved.now);
  registerFaults(app, options.faults);

  // Modules: each defines its routes with defineRoute (server/src/http/route.ts).
  registerSources(app);
  registerReports(app);
  registerVideos(app);
  registerPurges(app);
  registerOpenApi(app);

  // Last: 405 answers for the methods a known path lacks, derived from the routes above.
  app.register(methodNotAllowedPlugin);
  return app;
}
