// Where the provider and the data-source functions find the API's address and key: the stack's
// configuration (`assetdelivery:baseUrl`, `assetdelivery:apiKey` set with --secret), else the
// environment. Read when needed, never captured into the serialized provider.
export const CONFIG_KEYS = { baseUrl: "assetdelivery:baseUrl", apiKey: "assetdelivery:apiKey" } as const;
export const ENV_VARS = { baseUrl: "ASSET_DELIVERY_BASE_URL", apiKey: "ASSET_DELIVERY_API_KEY" } as const;

export interface Credentials {
  baseUrl: string;
  apiKey: string;
}

/** Reads a full config key such as `assetdelivery:apiKey`. */
export type ConfigReader = (key: string) => string | undefined;

export function resolveCredentials(config: ConfigReader, env: NodeJS.ProcessEnv = process.env): Credentials {
  const pick = (name: keyof Credentials) => nonEmpty(config(CONFIG_KEYS[name])) ?? nonEmpty(env[ENV_VARS[name]]);
  const baseUrl = pick("baseUrl");
  const apiKey = pick("apiKey");
  const missing = [
    baseUrl === undefined && `the API address (\`pulumi config set ${CONFIG_KEYS.baseUrl} <url>\` or ${ENV_VARS.baseUrl})`,
    apiKey === undefined && `the API key (\`pulumi config set --secret ${CONFIG_KEYS.apiKey} <key>\` or ${ENV_VARS.apiKey})`,
  ].filter(Boolean);
  if (baseUrl === undefined || apiKey === undefined) throw new Error(`Asset Delivery credentials missing: set ${missing.join(" and ")}`);
  return { baseUrl, apiKey };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
