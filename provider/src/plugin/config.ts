// The native provider's configuration on the wire (the settings of core/settings.ts's CONFIG_KEYS:
// `baseUrl`, `apiKey`, `pacing`, ...). The engine hands them over as the provider's inputs: an
// explicit provider's arguments, or, for the default provider, the stack's `assetdelivery:*`
// config. config-check.ts checks and compares them; here: where Configure finds them, and the API
// key kept secret in the provider's state, however it was given.
import { CONFIG_NAMES } from "./config-check";
import { CONFIG_KEYS, SECRET_SETTINGS } from "../core/settings";
import type { PropertyPath } from "./wire";

/** The paths of the provider's state that are always secret. */
export const CONFIG_SECRET_PATHS: readonly PropertyPath[] = [...SECRET_SETTINGS].map((name) => [name]);

/**
 * The provider's settings from a Configure request: its arguments, else the `variables` map the
 * engine also sends (`assetdelivery:config:baseUrl` in older engines, `assetdelivery:baseUrl`).
 */
export function configFromRequest(args: Record<string, unknown>, variables: ReadonlyMap<string, string>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const name of CONFIG_NAMES) {
    const value = args[name] ?? variables.get(CONFIG_KEYS[name]) ?? variables.get(CONFIG_KEYS[name].replace(":", ":config:"));
    if (value !== undefined) settings[name] = value;
  }
  return settings;
}
