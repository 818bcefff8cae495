// The provider's configuration in the schema: its config variables (`assetdelivery:baseUrl`, ...)
// and the explicit provider's inputs and outputs, from the core's settings (their descriptions and
// secrecy).
import { CONFIG_NAMES } from "../config-check";
import { SECRET_SETTINGS, SETTING_DESCRIPTIONS } from "../../core/settings";
import type { PulumiProperty } from "./format";

function configVariables(): Record<string, PulumiProperty> {
  return Object.fromEntries(
    CONFIG_NAMES.map((name) => [
      name,
      { type: "string", description: SETTING_DESCRIPTIONS[name], ...(SECRET_SETTINGS.has(name) && { secret: true }) },
    ]),
  );
}

/** The schema's `config` and `provider`. */
export function configuration() {
  const variables = configVariables();
  return {
    config: { variables },
    provider: {
      description: "The provider: one account of the service (an explicit provider per account).",
      inputProperties: variables,
      // A secret setting is an input only: the provider's outputs never hold it.
      properties: Object.fromEntries(CONFIG_NAMES.filter((name) => !SECRET_SETTINGS.has(name)).map((name) => [name, variables[name]])),
    },
  };
}
