// The dynamic `Source` of @asset-delivery/provider (`new Source(...)` in a program): a custom
// resource of type `pulumi-nodejs:dynamic/assetdelivery:Source`, served by the engine's
// dynamic-provider host. That type token is how it is told apart from other dynamic resources (a
// plain `pulumi.dynamic.Resource` is `pulumi-nodejs:dynamic:Resource`); its `__provider` input,
// which names the provider's module, never reaches a policy, as the engine strips `__` keys before
// analysis. Its inputs are the ones the provider's check returned: camelCase, the API's defaults
// filled in, and the write-only fields (secrets) moved out of `deployment` into `deploymentSecrets`,
// merged back here by the sdk's rule (the token and the merge are the sdk's: see its source-resource.ts
// for why not the provider's).
import { deploymentWithSecrets, DYNAMIC_SECRETS_KEY, DYNAMIC_SOURCE_TYPE } from "@asset-delivery/sdk";
import { memberOf, UNKNOWN, type Value } from "../known";
import type { DeclaredSource } from "../source-view";

export { DYNAMIC_SOURCE_TYPE };

export function dynamicSource(props: unknown): DeclaredSource {
  const deployment = memberOf(props, "deployment");
  const secrets = memberOf(props, DYNAMIC_SECRETS_KEY);
  return {
    shape: "dynamic",
    name: memberOf(props, "name"),
    deployment: deploymentWithSecrets<Value | undefined>(deployment, secrets, UNKNOWN),
  };
}
