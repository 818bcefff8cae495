// The provider's configuration in the schema: its config variables (`assetdelivery:baseUrl`, ...)
// and the explicit provider's inputs and outputs: each setting's description, and its secrecy
// (the core's).
import { ENV_VARS, SECRET_SETTINGS, SETTING_NAMES, type SettingName } from "../../core";
import type { PulumiProperty } from "./format";

/** What each setting is: the one statement of it, which the schema's config variables and provider inputs carry (and docs/reference.md from them). */
export const SETTING_DESCRIPTIONS: Readonly<Record<SettingName, string>> = {
  baseUrl: `The Management API's address, e.g. \`https://api.example.com\`. Or the environment variable \`${ENV_VARS.baseUrl}\`.`,
  apiKey: `An API key with the Sources permission (and Analytics for the reports functions). Or \`${ENV_VARS.apiKey}\`.`,
  deliveryDomain: `The service's delivery domain, for \`purgeAfterUpdate\` paths. Or \`${ENV_VARS.deliveryDomain}\`.`,
  maxWait: `How long a run may wait for the hourly create and update budgets, a duration such as \`90s\`, \`10m\` or \`2h\`: a write the budget would only allow later fails at once, saying how many remain and when to run again. Default unbounded. Or \`${ENV_VARS.maxWait}\`.`,
  allowInsecureHttp: `\`true\` lets \`baseUrl\` be \`http://\` on a host other than loopback (localhost, 127.0.0.0/8, ::1): the API key then travels in clear text. Default false: refused at preview. Or \`${ENV_VARS.allowInsecureHttp}\`.`,
  pacing: `The client's pacing to the rate limits, as JSON: \`false\` for none, or \`{"limits": {"createSource": {"limit": 600, "intervalMs": 3600000}}}\` for a plan with higher limits. Default the spec's limits. Or \`${ENV_VARS.pacing}\`.`,
};

function configVariables(): Record<string, PulumiProperty> {
  return Object.fromEntries(
    SETTING_NAMES.map((name) => [
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
      properties: Object.fromEntries(SETTING_NAMES.filter((name) => !SECRET_SETTINGS.has(name)).map((name) => [name, variables[name]])),
    },
  };
}
