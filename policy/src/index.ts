// The public surface of @asset-delivery/policy: the pack's seven policies (each also on its own, to
// compose a pack of one's own), the pack itself, and the one view of a Source the rules read.
import { PolicyPack, type EnforcementLevel, type Policies } from "@pulumi/policy";
import { sourceAllowedTypes } from "./policies/allowed-types";
import { sourceCacheTtlBounds } from "./policies/cache-ttl-bounds";
import { sourceCustomDomainSuffixes } from "./policies/custom-domain-suffixes";
import { sourceHttpsOrigins } from "./policies/https-origins";
import { sourceSecureUrls } from "./policies/secure-urls";
import { sourcesUniqueNames } from "./policies/unique-names";
import { sourceWebproxySigned } from "./policies/webproxy-signed";

export { sourceAllowedTypes, type AllowedTypesConfig } from "./policies/allowed-types";
export { sourceCacheTtlBounds, type CacheTtlBoundsConfig } from "./policies/cache-ttl-bounds";
export { sourceCustomDomainSuffixes, isUnderSuffix, type CustomDomainSuffixesConfig } from "./policies/custom-domain-suffixes";
export { sourceHttpsOrigins, urlFields, URL_FIELDS } from "./policies/https-origins";
export { sourceSecureUrls } from "./policies/secure-urls";
export { sourcesUniqueNames } from "./policies/unique-names";
export { sourceWebproxySigned } from "./policies/webproxy-signed";
export { sourceViewOf, SOURCE_RESOURCE_TYPES, DYNAMIC_SOURCE_TYPE, NATIVE_SOURCE_TYPE, type AnalyzedResource } from "./shapes";
export { SourceView, deploymentPath, type DeclaredSource, type DeploymentField, type ResourceRef, type SourceShape } from "./source-view";
export { UNKNOWN, type Known, type Unknown, type Value } from "./known";
export { violationMessage, type Finding } from "./source-policy";

/** The pack's policies, by the names users configure them with. */
export const policies: Policies = [
  sourceHttpsOrigins,
  sourceSecureUrls,
  sourceWebproxySigned,
  sourceAllowedTypes,
  sourceCacheTtlBounds,
  sourceCustomDomainSuffixes,
  sourcesUniqueNames,
];

/** The name the pack is served under (and shown in Pulumi's output) unless another is given. */
export const POLICY_PACK_NAME = "asset-delivery";

/**
 * Serves the pack: the body of a policy pack's program (its folder holds a PulumiPolicy.yaml and a
 * package.json with the pack's version). `pack/` in this package is such a folder.
 */
export function servePolicyPack(options: { name?: string; enforcementLevel?: EnforcementLevel } = {}): PolicyPack {
  return new PolicyPack(options.name ?? POLICY_PACK_NAME, {
    policies,
    description:
      "Guardrails for Asset Delivery Sources: HTTPS origins, signed URLs, no open proxy, allowed types, TTL bounds, company domains, unique names.",
    ...(options.enforcementLevel && { enforcementLevel: options.enforcementLevel }),
  });
}
