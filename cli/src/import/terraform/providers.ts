// The two community Terraform providers teams come from, as their documented schemas and resource
// code shape the state (each repository's docs/resources/source.md; teamjourney/imgix
// imgix/resource_imgix_source.go, Instawork/imgixyz internal/resource_source.go):
//
//   teamjourney/imgix   imgix_source    SDKv2: `deployment` is a block list of one (a JSON array
//                                       in the state), `wait_for_deployed`, `timeouts` {create, update}
//   Instawork/imgixyz   imgixyz_source  Plugin Framework: `deployment` is a single nested block (a
//                                       JSON object), `enabled` required
//
// Both name the deployment's fields as the vendor's API does, which is ours but for one:
// `imgix_subdomains` is our `service_subdomains`. Whether a field is a secret is not said here: it
// is the sdk field table's write-only mark for the Source's type.
import { READ_ONLY_SOURCE_ATTRIBUTES, WRITABLE_SOURCE_ATTRIBUTES } from "@asset-delivery/sdk";

export interface TerraformSourceKind {
  /** The resource type in the state: `imgix_source`. */
  resourceType: string;
  /** The provider's registry address: `teamjourney/imgix`. */
  provider: string;
  /** How the state holds the deployment: a list of one block (SDKv2) or one object (Plugin Framework). */
  deploymentShape: "list-of-one" | "object";
}

export const TERRAFORM_SOURCE_KINDS: readonly TerraformSourceKind[] = [
  { resourceType: "imgix_source", provider: "teamjourney/imgix", deploymentShape: "list-of-one" },
  { resourceType: "imgixyz_source", provider: "Instawork/imgixyz", deploymentShape: "object" },
];

/** Deployment attributes the providers name otherwise than the API: theirs → ours. */
export const RENAMED_DEPLOYMENT_ATTRIBUTES: Readonly<Record<string, string>> = { imgix_subdomains: "service_subdomains" };

/**
 * Top-level attributes that need no carrying over: the id (the import's key), and every attribute of
 * a Source, the providers naming them as the API does (the sdk's field table: `name`, `enabled`,
 * `deployment_status`, `date_deployed`, `secure_url_token`): the live Source is read instead.
 * `deployment` is read from the server too, the state's copy serving only for secrets; `type` is the
 * API document's resource type (`sources` in teamjourney/imgix's state), no attribute of the Source.
 */
export const READ_FROM_SERVER: ReadonlySet<string> = new Set([
  "id",
  "type",
  "deployment",
  ...WRITABLE_SOURCE_ATTRIBUTES,
  ...READ_ONLY_SOURCE_ATTRIBUTES,
]);

/** Terraform settings of imgix_source that have a Pulumi counterpart (see settings.ts). */
export const CARRIED_SETTINGS: ReadonlySet<string> = new Set(["wait_for_deployed", "timeouts"]);
