// The stacks-per-environment example: one program, one stack per environment, and each stack's
// Sources declared in its configuration (Pulumi.dev.yaml, Pulumi.prod.yaml):
//
//   asset-delivery:sources        name -> Source arguments (camelCase, as in `new Source(...)`)
//   asset-delivery:sourceSecrets  (secret) name -> write-only field -> value, e.g.
//                                 pulumi config set --secret --path 'sourceSecrets.assets.s3SecretKey' <key>
//
// `sourcesFromConfig` (from @asset-delivery/provider) turns them into Source resources.
// Credentials: `assetdelivery:baseUrl` and `assetdelivery:apiKey` (set with --secret), or the
// ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY environment variables.
import { sourcesFromConfig } from "@asset-delivery/provider";

const sources = Object.entries(sourcesFromConfig(undefined, { required: true }));

/** Per Source: its id, deployment status and the hostnames it serves. */
export const summary = Object.fromEntries(
  sources.map(([name, source]) => [
    name,
    {
      id: source.id,
      status: source.deploymentStatus,
      subdomains: source.deployment.apply((d) => d.serviceSubdomains),
      customDomains: source.deployment.apply((d) => d.customDomains),
    },
  ]),
);
