// The provider's settings (the API's address and key, pacing, delivery domain) and the one way to
// find them, used by every caller: the Source resource's provider, the data-source functions, the
// native plugin, and the CLI's drift, import and purge. Each comes from the configuration, read by
// the setting's name (`baseUrl`, `apiKey`, `pacing`, `deliveryDomain`, `allowInsecureHttp`,
// `maxWait`: the caller knows where its configuration keeps them, a CLI maps its flags to them),
// else the environment (`ASSET_DELIVERY_*`). A message names a setting as the caller's
// `Instructions` say (instructions.ts). Read when needed, never captured into the serialized
// provider. An http:// address other than loopback is refused here, by the sdk's rule, before
// anything is sent: unless allowed, the key would travel in clear text.
import { domainNameSchema, insecureBaseUrlProblem, parseDuration, type ClientOptions, type PacingOptions } from "@asset-delivery/sdk";
import { PLAIN_INSTRUCTIONS, type Instructions } from "./instructions";
import { ENV_VARS, type ConfigReader, type SettingName } from "./config-names";

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
function setting(config: ConfigReader, env: NodeJS.ProcessEnv, name: SettingName): string | undefined {
  return nonEmpty(config(name)) ?? nonEmpty(env[ENV_VARS[name]]);
}

/** A setting that is set but bad, by name: its message names it as the caller's instructions do. */
export class SettingError extends Error {
  override readonly name = "SettingError";
  constructor(
    readonly setting: SettingName,
    readonly rule: string,
    instructions: Instructions,
  ) {
    super(`${instructions.settingName(setting)} (or ${ENV_VARS[setting]}): ${rule}`);
  }
}

/** The settings; `instructions` say how to set a missing one (core/instructions.ts). */
export function resolveSettings(
  config: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
  instructions: Instructions = PLAIN_INSTRUCTIONS,
): ProviderSettings {
  const pick = (name: SettingName) => setting(config, env, name);
  const baseUrl = pick("baseUrl");
  const apiKey = pick("apiKey");
  const pacing = pick("pacing");
  const deliveryDomain = pick("deliveryDomain");
  const maxWait = pick("maxWait");
  const missing = [
    baseUrl === undefined &&
      `the API address (${instructions.setSetting("baseUrl", { secret: false, placeholder: "<url>" })} or ${ENV_VARS.baseUrl})`,
    apiKey === undefined &&
      `the API key (${instructions.setSetting("apiKey", { secret: true, placeholder: "<key>" })} or ${ENV_VARS.apiKey})`,
  ].filter(Boolean);
  if (baseUrl === undefined || apiKey === undefined) {
    const names = [...(baseUrl === undefined ? ["baseUrl" as const] : []), ...(apiKey === undefined ? ["apiKey" as const] : [])];
    throw new MissingSettingsError(`Asset Delivery credentials missing: set ${missing.join(" and ")}`, names);
  }
  const allowed = refuseInsecureBaseUrl(config, env, instructions);
  return {
    baseUrl,
    apiKey,
    ...(allowed && { allowInsecureHttp: true }),
    ...(pacing !== undefined && { pacing: parsePacing(pacing, instructions) }),
    ...(deliveryDomain !== undefined && { deliveryDomain: parseDeliveryDomain(deliveryDomain, instructions) }),
    ...(maxWait !== undefined && { maxWait: parseMaxWait(maxWait, instructions) }),
  };
}

/**
 * Throws when the configured baseUrl is http:// on a host other than loopback and that is not
 * allowed (the sdk's rule); returns whether it is allowed. Needs no API key, so that a check at
 * preview can refuse it before anything else happens.
 */
export function refuseInsecureBaseUrl(
  config: ConfigReader,
  env: NodeJS.ProcessEnv = process.env,
  instructions: Instructions = PLAIN_INSTRUCTIONS,
): boolean {
  const pick = (name: SettingName) => setting(config, env, name);
  const baseUrl = pick("baseUrl");
  const allowInsecureHttp = pick("allowInsecureHttp");
  const allowed = allowInsecureHttp !== undefined && parseAllowInsecureHttp(allowInsecureHttp, instructions);
  const insecure = baseUrl !== undefined && insecureBaseUrlProblem(baseUrl, allowed);
  if (insecure) {
    const allow = `${instructions.settingName("allowInsecureHttp")} to true (or ${ENV_VARS.allowInsecureHttp}=true)`;
    throw new SettingError("baseUrl", `${insecure}. Use https://, or to send it anyway set ${allow}`, instructions);
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
function parseMaxWait(text: string, instructions: Instructions): number {
  const ms = parseDuration(text);
  if (ms !== undefined) return ms;
  throw new SettingError("maxWait", `must be a duration such as 90s, 10m or 2h, not "${text}"`, instructions);
}

/** Checked here, once, with the sdk's domain rule: a bad one would otherwise surface as refused purges. */
function parseDeliveryDomain(text: string, instructions: Instructions): string {
  const parsed = domainNameSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  throw new SettingError("deliveryDomain", `${parsed.error.issues[0]!.message}, not "${text}"`, instructions);
}

function parseAllowInsecureHttp(text: string, instructions: Instructions): boolean {
  if (text === "true" || text === "false") return text === "true";
  throw new SettingError("allowInsecureHttp", `must be true or false, not "${text}"`, instructions);
}

/** The pacing setting is JSON; its members are checked by the client, which names a bad one. */
function parsePacing(text: string, instructions: Instructions): boolean | PacingOptions {
  try {
    return JSON.parse(text) as boolean | PacingOptions;
  } catch {
    throw new SettingError("pacing", `must be JSON: false, true or {"limits": {...}}`, instructions);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
