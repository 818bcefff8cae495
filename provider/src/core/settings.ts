// The provider's settings (the API's address and key, pacing, delivery domain) and the one way to
// find them, used by every caller: the Source resource's provider, the data-source functions, the
// native plugin, and the CLI's drift, import and purge. Each comes from the configuration
// (`assetdelivery:baseUrl`, `assetdelivery:apiKey` set with --secret, `assetdelivery:pacing`,
// `assetdelivery:deliveryDomain`, `assetdelivery:allowInsecureHttp`, `assetdelivery:maxWait`; a CLI
// maps its flags to these keys), else the environment (`ASSET_DELIVERY_*`). Read when needed, never captured into the
// serialized provider. An http:// address other than loopback is refused here, by the sdk's rule,
// before anything is sent: unless allowed, the key would travel in clear text.
import { domainNameSchema, insecureBaseUrlProblem, parseDuration, type ClientOptions, type PacingOptions } from "@asset-delivery/sdk";
import { PLAIN_INSTRUCTIONS, type Instructions } from "./instructions";

export const CONFIG_KEYS = {
  baseUrl: "assetdelivery:baseUrl",
  apiKey: "assetdelivery:apiKey",
  pacing: "assetdelivery:pacing",
  deliveryDomain: "assetdelivery:deliveryDomain",
  allowInsecureHttp: "assetdelivery:allowInsecureHttp",
  maxWait: "assetdelivery:maxWait",
} as const;
export const ENV_VARS = {
  baseUrl: "ASSET_DELIVERY_BASE_URL",
  apiKey: "ASSET_DELIVERY_API_KEY",
  pacing: "ASSET_DELIVERY_PACING",
  deliveryDomain: "ASSET_DELIVERY_DELIVERY_DOMAIN",
  allowInsecureHttp: "ASSET_DELIVERY_ALLOW_INSECURE_HTTP",
  maxWait: "ASSET_DELIVERY_MAX_WAIT",
} as const;

/** The settings that are secret wherever a provider keeps or declares them (its state, its schema). */
export const SECRET_SETTINGS: ReadonlySet<keyof typeof CONFIG_KEYS> = new Set(["apiKey"] as const);

/** The settings as parsed: what each is, its default and its form as given are in SETTING_DESCRIPTIONS (plugin/schema/config.ts, the users' reference). */
export interface ProviderSettings {
  baseUrl: string;
  apiKey: string;
  /** The parsed JSON. */
  pacing?: boolean | PacingOptions;
  deliveryDomain?: string;
  allowInsecureHttp?: boolean;
  /** In milliseconds. */
  maxWait?: number;
}

/** Reads a full config key such as `assetdelivery:apiKey`. */
export type ConfigReader = (key: string) => string | undefined;

/** The settings without which no request can be made: which are missing, for a caller that names its own flags. */
export class MissingSettingsError extends Error {
  override readonly name = "MissingSettingsError";
  constructor(
    message: string,
    readonly missing: readonly ("baseUrl" | "apiKey")[],
  ) {
    super(message);
  }
}

/** One setting: the stack's config first, then the environment; blank counts as unset. */
function setting(config: ConfigReader, env: NodeJS.ProcessEnv, name: keyof typeof CONFIG_KEYS): string | undefined {
  return nonEmpty(config(CONFIG_KEYS[name])) ?? nonEmpty(env[ENV_VARS[name]]);
}

/** The settings; `instructions` say how to set a missing one (core/instructions.ts). */
export function resolveSettings(
  config: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
  instructions: Instructions = PLAIN_INSTRUCTIONS,
): ProviderSettings {
  const pick = (name: keyof typeof CONFIG_KEYS) => setting(config, env, name);
  const baseUrl = pick("baseUrl");
  const apiKey = pick("apiKey");
  const pacing = pick("pacing");
  const deliveryDomain = pick("deliveryDomain");
  const maxWait = pick("maxWait");
  const missing = [
    baseUrl === undefined &&
      `the API address (${instructions.setSetting(CONFIG_KEYS.baseUrl, { secret: false, placeholder: "<url>" })} or ${ENV_VARS.baseUrl})`,
    apiKey === undefined &&
      `the API key (${instructions.setSetting(CONFIG_KEYS.apiKey, { secret: true, placeholder: "<key>" })} or ${ENV_VARS.apiKey})`,
  ].filter(Boolean);
  if (baseUrl === undefined || apiKey === undefined) {
    const names = [...(baseUrl === undefined ? ["baseUrl" as const] : []), ...(apiKey === undefined ? ["apiKey" as const] : [])];
    throw new MissingSettingsError(`Asset Delivery credentials missing: set ${missing.join(" and ")}`, names);
  }
  const allowed = refuseInsecureBaseUrl(config, env);
  return {
    baseUrl,
    apiKey,
    ...(allowed && { allowInsecureHttp: true }),
    ...(pacing !== undefined && { pacing: parsePacing(pacing) }),
    ...(deliveryDomain !== undefined && { deliveryDomain: parseDeliveryDomain(deliveryDomain) }),
    ...(maxWait !== undefined && { maxWait: parseMaxWait(maxWait) }),
  };
}

/**
 * Throws when the configured baseUrl is http:// on a host other than loopback and that is not
 * allowed (the sdk's rule); returns whether it is allowed. Needs no API key, so that a check at
 * preview can refuse it before anything else happens.
 */
export function refuseInsecureBaseUrl(config: ConfigReader, env: NodeJS.ProcessEnv = process.env): boolean {
  const pick = (name: keyof typeof CONFIG_KEYS) => setting(config, env, name);
  const baseUrl = pick("baseUrl");
  const allowInsecureHttp = pick("allowInsecureHttp");
  const allowed = allowInsecureHttp !== undefined && parseAllowInsecureHttp(allowInsecureHttp);
  const insecure = baseUrl !== undefined && insecureBaseUrlProblem(baseUrl, allowed);
  if (insecure) {
    throw new Error(
      `${CONFIG_KEYS.baseUrl} (or ${ENV_VARS.baseUrl}): ${insecure}. Use https://, or to send it anyway set ${CONFIG_KEYS.allowInsecureHttp} to true (or ${ENV_VARS.allowInsecureHttp}=true)`,
    );
  }
  return allowed;
}

/** The client's options of the settings: `maxWait` is a member of pacing there. */
export function clientOptionsOf({ deliveryDomain: _notAClientOption, maxWait, ...options }: ProviderSettings): ClientOptions {
  if (maxWait === undefined) return options;
  if (options.pacing === false) return options; // no pacing, no wait
  return { ...options, pacing: { ...(typeof options.pacing === "object" ? options.pacing : {}), maxWaitMs: maxWait } };
}

/** A duration (the sdk's rule), checked here once, in milliseconds. */
function parseMaxWait(text: string): number {
  const ms = parseDuration(text);
  if (ms !== undefined) return ms;
  throw new Error(`${CONFIG_KEYS.maxWait} (or ${ENV_VARS.maxWait}): must be a duration such as 90s, 10m or 2h, not "${text}"`);
}

/** Checked here, once, with the sdk's domain rule: a bad one would otherwise surface as refused purges. */
function parseDeliveryDomain(text: string): string {
  const parsed = domainNameSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  throw new Error(`${CONFIG_KEYS.deliveryDomain} (or ${ENV_VARS.deliveryDomain}): ${parsed.error.issues[0]!.message}, not "${text}"`);
}

function parseAllowInsecureHttp(text: string): boolean {
  if (text === "true" || text === "false") return text === "true";
  throw new Error(`${CONFIG_KEYS.allowInsecureHttp} (or ${ENV_VARS.allowInsecureHttp}): must be true or false, not "${text}"`);
}

/** The pacing setting is JSON; its members are checked by the client, which names a bad one. */
function parsePacing(text: string): boolean | PacingOptions {
  try {
    return JSON.parse(text) as boolean | PacingOptions;
  } catch {
    throw new Error(`${CONFIG_KEYS.pacing} (or ${ENV_VARS.pacing}): must be JSON: false, true or {"limits": {...}}`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
