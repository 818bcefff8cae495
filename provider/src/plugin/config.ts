// The native provider's configuration on the wire (the settings of core/settings.ts, by name:
// `baseUrl`, `apiKey`, `pacing`, ...). The engine hands them over as the provider's inputs: an
// explicit provider's arguments, or, for the default provider, the stack's `assetdelivery:*`
// config. config-check.ts checks and compares them; here: where Configure finds them, and the API
// key kept secret in the provider's state, however it was given. Besides the settings, the secrets
// the server is trusted to hold (core/trusted-secrets.ts), secret too.
import { SECRET_SETTINGS, SETTING_NAMES, TRUSTED_SECRETS_NAME } from "../core";
import { configKey } from "../pulumi-names/config-keys";
import type { PropertyPath } from "./wire";

/** The paths of the provider's state that are always secret. */
export const CONFIG_SECRET_PATHS: readonly PropertyPath[] = [...SECRET_SETTINGS, TRUSTED_SECRETS_NAME].map((name) => [name]);

/**
 * The provider's settings from a Configure request: its arguments, else the `variables` map the
 * engine also sends (`assetdelivery:config:baseUrl` in older engines, `assetdelivery:baseUrl`).
 */
export function configFromRequest(args: Record<string, unknown>, variables: ReadonlyMap<string, string>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const name of [...SETTING_NAMES, TRUSTED_SECRETS_NAME] as const) {
    const key = configKey(name);
    const value = args[name] ?? variables.get(key) ?? variables.get(key.replace(":", ":config:"));
    if (value !== undefined) settings[name] = value;
  }
  return settings;
}
