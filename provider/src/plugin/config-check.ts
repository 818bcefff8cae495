// The native plugin's CheckConfig, DiffConfig and Configure: the provider's configuration given as
// values (an explicit provider's arguments, or the stack's `assetdelivery:*` config), every bad or
// missing setting named before the provider is configured, and which changed; the environment
// (`ASSET_DELIVERY_*`) fills what the values do not give. The dynamic provider reads its
// configuration when an operation needs it (core/settings.ts), without this check.
import deepEqual from "fast-deep-equal";
import { createClient, RequestValidationError } from "@asset-delivery/sdk";
import {
  clientOptionsOf,
  type ConfigReader,
  ENV_VARS,
  isUnknown,
  parseTrustedSecrets,
  type ProviderSettings,
  resolveSettings,
  SETTING_NAMES,
  SettingError,
  type SettingName,
  TRUSTED_SECRETS_NAME,
  TrustedSecretsError,
} from "../core";
import { PULUMI_INSTRUCTIONS } from "../pulumi-names/instructions";

export interface ConfigFailure {
  property: SettingName | typeof TRUSTED_SECRETS_NAME | "";
  reason: string;
}

/** A setting as text: pacing may be given as JSON text or (from a YAML program) as the value itself. */
function settingText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Reads each setting (and the trusted secrets) from the configuration's values, which are by name: the provider's view of it. */
export function settingsReader(values: Record<string, unknown>): ConfigReader {
  return (name) => settingText(values[name]);
}

/** A bad `trustedSecrets` value (core/trusted-secrets.ts), named as the settings' failures are. */
function trustedSecretsFailures(setting: unknown): ConfigFailure[] {
  if (isUnknown(setting)) return [];
  try {
    parseTrustedSecrets(setting, PULUMI_INSTRUCTIONS);
    return [];
  } catch (error) {
    if (!(error instanceof TrustedSecretsError)) throw error;
    return [{ property: TRUSTED_SECRETS_NAME, reason: error.message }];
  }
}

/**
 * The credentials, or every failure naming its setting. Values not known yet (a preview of a
 * provider configured from another resource's outputs) are not judged.
 */
export function checkProviderConfig(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): { settings?: ProviderSettings; failures: ConfigFailure[] } {
  const checked = checkSettings(values, env);
  const trusted = trustedSecretsFailures(values[TRUSTED_SECRETS_NAME]);
  return trusted.length === 0 ? checked : { failures: [...checked.failures, ...trusted] };
}

function checkSettings(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): { settings?: ProviderSettings; failures: ConfigFailure[] } {
  if (SETTING_NAMES.some((name) => isUnknown(values[name]))) return { failures: [] };
  let settings: ProviderSettings;
  try {
    settings = resolveSettings(settingsReader(values), env, PULUMI_INSTRUCTIONS);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { failures: [{ property: error instanceof SettingError ? error.setting : "", reason }] };
  }
  try {
    // The client checks the address, the key's form and the pacing's members, naming each.
    void createClient(clientOptionsOf(settings)).close();
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    return {
      failures: error.issues.map((issue) => {
        const name = SETTING_NAMES.find((candidate) => candidate === issue.segments[0]);
        const where = name ? `${PULUMI_INSTRUCTIONS.settingName(name)} (or ${ENV_VARS[name]})` : "provider configuration";
        return { property: name ?? "", reason: `${where}: ${issue.rule}` };
      }),
    };
  }
  return { settings, failures: [] };
}

/**
 * DiffConfig: the settings that changed. A new key, address or pacing changes how the provider
 * talks to the service, never which Sources exist: no replacement (which would replace every
 * Source of the provider).
 */
export function changedSettings(olds: Record<string, unknown>, news: Record<string, unknown>): { changes: boolean; diffs: string[] } {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  const diffs = [...keys].filter((key) => !deepEqual(olds[key], news[key]));
  return { changes: diffs.length > 0, diffs };
}
