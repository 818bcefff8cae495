// `asset-delivery serve`: runs the Management API server on a local database until SIGINT/SIGTERM.
import { parseArgs } from "node:util";
import { DEFAULT_DELIVERY_DOMAIN, formatDuration } from "@asset-delivery/sdk";
import {
  DEFAULT_DEPLOY_DELAY_MS,
  DEFAULT_DEPLOY_LAG_MS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SESSION_LIFETIME_HOURS,
  parseTrustProxy,
  PROFILES,
  startServer,
  trustProxyProblem,
  type TrustProxy,
} from "@asset-delivery/server";
import {
  databasePath,
  domainSetting,
  durationSetting,
  fractionSetting,
  integerSetting,
  oneOfSetting,
  UsageError,
  type Command,
} from "../command";

/** The number of proxies in front, or their addresses and CIDR ranges; never "any" (the server's rule). */
function trustProxySetting(value: string | undefined): TrustProxy | undefined {
  if (value === undefined || value.trim() === "" || value === "false") return undefined;
  const setting = parseTrustProxy(value);
  const problem = trustProxyProblem(setting);
  if (problem) throw new UsageError(`trust-proxy: ${problem} (got "${value}")`);
  return setting;
}

export const serveCommand: Command = {
  summary: "Run the Management API server (the local emulator)",
  usage: `asset-delivery serve [--host HOST] [--port PORT] [--db PATH] [--rate-limits spec|off] [--rate-limit-hour DURATION]
                      [--deploy-delay-ms N]
                      [--deploy-lag-ms N] [--profile full|minimal] [--faults RATE [--faults-seed N]]
                      [--public-url URL] [--delivery-domain DOMAIN] [--allow-private-image-urls]
                      [--session-lifetime-hours N] [--trust-proxy HOPS|ADDRESSES]

  --host             address to listen on (env ASSET_DELIVERY_HOST, default ${DEFAULT_HOST})
  --port             port, 0 for any free one (env ASSET_DELIVERY_PORT, default ${DEFAULT_PORT})
  --db               SQLite database file (env ASSET_DELIVERY_DB, default .data/asset-delivery.db);
                     its encryption key is kept in <db>.key unless ASSET_DELIVERY_SECRET_KEY is set
  --rate-limits      "spec" enforces the spec's limits per account, "off" none (env ASSET_DELIVERY_RATE_LIMITS, default spec)
  --rate-limit-hour  count the hourly limits (60 Source creates, 60 updates) per this duration instead of an
                     hour, e.g. 60s: the same counts on a shorter window, for tests and demos of long
                     changes (env ASSET_DELIVERY_RATE_LIMIT_HOUR, default 1h)
  --deploy-delay-ms  how long a deployment takes (env ASSET_DELIVERY_DEPLOY_DELAY_MS, default ${DEFAULT_DEPLOY_DELAY_MS})
  --deploy-lag-ms    how long after a change its deployment starts; until then reads still show the deployment
                     before it, as the real service's do (env ASSET_DELIVERY_DEPLOY_LAG_MS, default ${DEFAULT_DEPLOY_LAG_MS})
  --profile          "full" answers with more than the spec promises (error source pointers, Retry-After,
                     X-Request-Id, ...); "minimal" only what the spec names (env ASSET_DELIVERY_PROFILE, default full)
  --faults           share of API requests (0 to 1) that fail on purpose: 500, 429, or the connection dropped
                     before or after the write commits; for resilience runs (env ASSET_DELIVERY_FAULTS, default 0)
  --faults-seed      seed of which requests fail (env ASSET_DELIVERY_FAULTS_SEED, default 1)
  --public-url       the address clients reach the server at, for the links it returns (report files,
                     video results); default: the request's scheme and Host (env ASSET_DELIVERY_PUBLIC_URL)
  --delivery-domain  the domain service subdomains are on (<label>.DOMAIN): a purge's URL must be on one of
                     them or on a Source's custom domain (env ASSET_DELIVERY_DELIVERY_DOMAIN, default ${DEFAULT_DELIVERY_DOMAIN})
  --allow-private-image-urls
                     local development only: video jobs may fetch images from loopback, private and
                     link-local addresses (env ASSET_DELIVERY_ALLOW_PRIVATE_IMAGE_URLS=1); off by default,
                     since with it any API key can make the server read its own network
  --session-lifetime-hours
                     how long a dashboard sign-in lasts, however busy the session (env
                     ASSET_DELIVERY_SESSION_LIFETIME_HOURS, default ${DEFAULT_SESSION_LIFETIME_HOURS})
  --trust-proxy      behind a proxy that terminates TLS: the number of proxies in front of the server (1 for
                     one; believed only from a loopback or private peer), or a comma-separated list of
                     their addresses and CIDR ranges of at least /8 ("true", any proxy, is refused: a
                     client could choose its own address); then X-Forwarded-Proto makes the
                     dashboard's cookie Secure and X-Forwarded-For gives the client address the sign-in
                     throttle and the dashboard's limits count by (env ASSET_DELIVERY_TRUST_PROXY;
                     default: neither header believed, and the first request carrying one is logged)`,

  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        db: { type: "string" },
        "rate-limits": { type: "string" },
        "rate-limit-hour": { type: "string" },
        "deploy-delay-ms": { type: "string" },
        "deploy-lag-ms": { type: "string" },
        profile: { type: "string" },
        faults: { type: "string" },
        "faults-seed": { type: "string" },
        "allow-private-image-urls": { type: "boolean" },
        "public-url": { type: "string" },
        "delivery-domain": { type: "string" },
        "session-lifetime-hours": { type: "string" },
        "trust-proxy": { type: "string" },
      },
      strict: true,
    });
    const env = process.env;
    const faultRate = fractionSetting(values.faults ?? env.ASSET_DELIVERY_FAULTS, "faults", 0, { min: 0, max: 1 });
    const faultSeed = integerSetting(values["faults-seed"] ?? env.ASSET_DELIVERY_FAULTS_SEED, "faults-seed", 1, {
      min: 0,
      max: 2 ** 32 - 1,
    });
    const rateLimitHourMs = durationSetting(values["rate-limit-hour"] ?? env.ASSET_DELIVERY_RATE_LIMIT_HOUR, "rate-limit-hour");
    const server = await startServer({
      host: values.host ?? env.ASSET_DELIVERY_HOST ?? DEFAULT_HOST,
      port: integerSetting(values.port ?? env.ASSET_DELIVERY_PORT, "port", DEFAULT_PORT, { min: 0, max: 65535 }),
      dbPath: databasePath(values.db),
      rateLimits: oneOfSetting(values["rate-limits"] ?? env.ASSET_DELIVERY_RATE_LIMITS, "rate-limits", ["spec", "off"] as const, "spec"),
      ...(rateLimitHourMs !== undefined && { rateLimitHourMs }),
      deployDelayMs: integerSetting(
        values["deploy-delay-ms"] ?? env.ASSET_DELIVERY_DEPLOY_DELAY_MS,
        "deploy-delay-ms",
        DEFAULT_DEPLOY_DELAY_MS,
        {
          min: 0,
          max: 3_600_000,
        },
      ),
      publicBaseUrl: values["public-url"] ?? env.ASSET_DELIVERY_PUBLIC_URL,
      deliveryDomain: domainSetting(values["delivery-domain"] ?? env.ASSET_DELIVERY_DELIVERY_DOMAIN, "delivery-domain"),
      allowPrivateImageAddresses: values["allow-private-image-urls"] ?? env.ASSET_DELIVERY_ALLOW_PRIVATE_IMAGE_URLS === "1",
      deployLagMs: integerSetting(values["deploy-lag-ms"] ?? env.ASSET_DELIVERY_DEPLOY_LAG_MS, "deploy-lag-ms", DEFAULT_DEPLOY_LAG_MS, {
        min: 0,
        max: 3_600_000,
      }),
      profile: oneOfSetting(values.profile ?? env.ASSET_DELIVERY_PROFILE, "profile", PROFILES, "full"),
      sessionLifetimeHours: integerSetting(
        values["session-lifetime-hours"] ?? env.ASSET_DELIVERY_SESSION_LIFETIME_HOURS,
        "session-lifetime-hours",
        DEFAULT_SESSION_LIFETIME_HOURS,
        { min: 1, max: 24 * 30 },
      ),
      trustProxy: trustProxySetting(values["trust-proxy"] ?? env.ASSET_DELIVERY_TRUST_PROXY),
      // Request logging costs throughput; only failures and warnings (an unbelieved proxy) are logged.
      logger: { level: "warn" },
      ...(faultRate > 0 && { faults: { rate: faultRate, seed: faultSeed } }),
    });
    process.stdout.write(`Asset Delivery Management API listening on ${server.url}\n`);
    process.stdout.write(`Account dashboard at ${server.url}/dashboard (add a user: asset-delivery users create --help)\n`);
    if (rateLimitHourMs !== undefined)
      process.stdout.write(`Hourly rate limits counted per ${formatDuration(rateLimitHourMs)} (--rate-limit-hour)\n`);
    if (faultRate > 0) process.stdout.write(`Injecting faults into ${faultRate * 100}% of API requests (seed ${faultSeed})\n`);

    return new Promise<number>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        process.stderr.write(`${signal}: finishing in-flight requests and closing the database\n`);
        server.close().then(
          () => resolve(0),
          (error: unknown) => {
            process.stderr.write(`shutdown failed: ${String(error)}\n`);
            resolve(1);
          },
        );
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
  },
};
