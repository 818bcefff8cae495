// The dynamic `Source` of @asset-delivery/provider (`new Source(...)` in a program): a custom
// resource of type `pulumi-nodejs:dynamic/assetdelivery:Source`, served by the engine's
// dynamic-provider host. That type token is how it is told apart from other dynamic resources (a
// plain `pulumi.dynamic.Resource` is `pulumi-nodejs:dynamic:Resource`); its `__provider` input,
// which names the provider's module, never reaches a policy, as the engine strips `__` keys before
// analysis. Its inputs are the ones the provider's check returned: camelCase, the API's defaults
// filled in, and the write-only fields (secrets) moved out of `deployment` into `deploymentSecrets`,
// merged back here.
import { camelCase, SOURCE_TYPES, writeOnlyFields } from "@asset-delivery/sdk";
import { isRecord, memberOf, UNKNOWN, type Value } from "../known";
import type { DeclaredSource } from "../source-view";

export const DYNAMIC_SOURCE_TYPE = "pulumi-nodejs:dynamic/assetdelivery:Source";

export function dynamicSource(props: unknown): DeclaredSource {
  const deployment = memberOf(props, "deployment");
  const secrets = memberOf(props, "deploymentSecrets");
  return { shape: "dynamic", name: memberOf(props, "name"), deployment: withSecrets(deployment, secrets) };
}

function withSecrets(deployment: Value | undefined, secrets: Value | undefined): Value | undefined {
  if (!isRecord(deployment)) return deployment;
  if (isRecord(secrets)) return { ...deployment, ...secrets };
  if (secrets !== UNKNOWN) return deployment;
  // The secrets are one secret value: while it is not known, none of the type's secrets is.
  const type = SOURCE_TYPES.find((known) => known === deployment.type);
  if (type === undefined) return deployment;
  return { ...deployment, ...Object.fromEntries(writeOnlyFields(type).map((field) => [camelCase(field), UNKNOWN])) };
}
