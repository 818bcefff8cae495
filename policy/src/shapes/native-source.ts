// The native resource `assetdelivery:index:Source` (the plugin pulumi-resource-assetdelivery): the
// same camelCase properties as the dynamic `Source`, except that its write-only fields (secrets)
// stay inside `deployment`, marked secret there, instead of a separate `deploymentSecrets` input.
import { NATIVE_SOURCE_TYPE } from "@asset-delivery/sdk";
import { memberOf } from "../known";
import type { DeclaredSource } from "../source-view";

export { NATIVE_SOURCE_TYPE };

export function nativeSource(props: unknown): DeclaredSource {
  return { shape: "native", name: memberOf(props, "name"), deployment: memberOf(props, "deployment") };
}
