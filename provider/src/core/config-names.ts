// The names a configuration holds for the provider: its settings (settings.ts), each with its
// environment variable, and the record of secrets the server is trusted to hold
// (trusted-secrets.ts). A leaf: settings, instructions and trusted secrets all name them.

/** Each setting's environment variable; its keys are the settings' names. */
export const ENV_VARS = {
  baseUrl: "ASSET_DELIVERY_BASE_URL",
  apiKey: "ASSET_DELIVERY_API_KEY",
  pacing: "ASSET_DELIVERY_PACING",
  deliveryDomain: "ASSET_DELIVERY_DELIVERY_DOMAIN",
  allowInsecureHttp: "ASSET_DELIVERY_ALLOW_INSECURE_HTTP",
  maxWait: "ASSET_DELIVERY_MAX_WAIT",
} as const;

export type SettingName = keyof typeof ENV_VARS;
export const SETTING_NAMES = Object.keys(ENV_VARS) as SettingName[];

/** The settings that are secret wherever a provider keeps or declares them (its state, its schema). */
export const SECRET_SETTINGS: ReadonlySet<SettingName> = new Set(["apiKey"] as const);

/** The configuration's name of the record (trusted-secrets.ts), and of the native provider's input that carries it. */
export const TRUSTED_SECRETS_NAME = "trustedSecrets";

/** What a configuration may hold: the settings, and the secrets the server is trusted to hold (trusted-secrets.ts). */
export type ConfigName = SettingName | typeof TRUSTED_SECRETS_NAME;

/** Reads a configuration's value by name (`apiKey`), not by any key the configuration files it under. */
export type ConfigReader = (name: ConfigName) => string | undefined;
