// The provider's settings in a stack's configuration: each under the package's namespace,
// `assetdelivery:<name>` (`assetdelivery:apiKey`), where Pulumi keeps a provider's configuration.
// The core reads a setting by its name (core/settings.ts's ConfigReader); a caller that reads
// Pulumi's configuration maps the name to its key here, once.
import { PULUMI_PACKAGE_NAME } from "@asset-delivery/sdk";
import { type ConfigName, type ConfigReader, SETTING_NAMES, type SettingName, TRUSTED_SECRETS_NAME } from "../core";

/** A setting's key in a stack's configuration. */
export function configKey<N extends ConfigName>(name: N): `${typeof PULUMI_PACKAGE_NAME}:${N}` {
  return `${PULUMI_PACKAGE_NAME}:${name}`;
}

/** Each setting's key, by name. */
export const CONFIG_KEYS = Object.fromEntries(SETTING_NAMES.map((name) => [name, configKey(name)])) as {
  readonly [N in SettingName]: `${typeof PULUMI_PACKAGE_NAME}:${N}`;
};

/** The key of the secrets the server is trusted to hold (core/trusted-secrets.ts). */
export const TRUSTED_SECRETS_KEY = configKey(TRUSTED_SECRETS_NAME);

/** The core's reader of a configuration that `get` reads by key (a stack's, `pulumi.runtime.getConfig`). */
export function pulumiConfigReader(get: (key: string) => string | undefined): ConfigReader {
  return (name) => get(configKey(name));
}
