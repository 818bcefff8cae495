// The stacks-per-environment example: one program, one stack per environment, and each stack's
// Sources declared in its configuration (Pulumi.dev.yaml, Pulumi.prod.yaml):
//
//   asset-delivery:sources        name -> Source arguments (camelCase, as in `new Source(...)`)
//   asset-delivery:sourceSecrets  (secret) name -> write-only field -> value, e.g.
//                                 pulumi config set --secret --path 'sourceSecrets.assets.s3SecretKey' <key>
//
// Credentials: `assetdelivery:baseUrl` and `assetdelivery:apiKey` (set with --secret), or the
// ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY environment variables.
import * as pulumi from "@pulumi/pulumi";
import { Source, writeOnlyFieldNames, type SourceArgs } from "@asset-delivery/provider";

const config = new pulumi.Config();
const declared = config.requireObject<Record<string, SourceArgs>>("sources");
type SourceSecrets = Record<string, Record<string, string>>;
const sourceSecrets = config.getSecretObject<SourceSecrets>("sourceSecrets") ?? pulumi.secret<SourceSecrets>({});

const sources = Object.entries(declared).map(([name, args]) => {
  // Each write-only field of the type may come from sourceSecrets; the resource keeps them secret.
  const secrets = Object.fromEntries(
    writeOnlyFieldNames(args.deployment.type)
      .filter((field) => !(field in args.deployment))
      .map((field) => [field, sourceSecrets.apply((all) => all[name]?.[field])]),
  );
  return [name, new Source(name, { ...args, deployment: { ...args.deployment, ...secrets } as SourceArgs["deployment"] })] as const;
});

/** Per Source: its id, deployment status and the hostnames it serves. */
export const summary = Object.fromEntries(
  sources.map(([name, source]) => [
    name,
    { id: source.id, status: source.deploymentStatus, subdomains: source.deployment.apply((d) => d.serviceSubdomains), customDomains: source.deployment.apply((d) => d.customDomains) },
  ]),
);
