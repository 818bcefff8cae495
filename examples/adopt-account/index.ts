// Sources made by hand, brought under management: `asset-delivery import --stack NAME` declares
// each Source the stack does not manage yet in Pulumi.<stack>.yaml, as the server has it and with
// its id in `adoptSourceId`, and this program turns the declarations into Source resources. The
// first `pulumi up` adopts them without a change (see README.md).
//
//   adopt-account:sources        name -> Source arguments, as `new Source(...)` takes them
//   adopt-account:sourceSecrets  (secret) name -> write-only field -> value; import prints the
//                                `pulumi config set --secret --path ...` command for each one that exists
import * as pulumi from "@pulumi/pulumi";
import { Source, writeOnlyFieldNames, type SourceArgs } from "@asset-delivery/provider";

const config = new pulumi.Config();
// Empty until the first import.
const declared = config.getObject<Record<string, SourceArgs>>("sources") ?? {};
type SourceSecrets = Record<string, Record<string, string>>;
const sourceSecrets = config.getSecretObject<SourceSecrets>("sourceSecrets") ?? pulumi.secret<SourceSecrets>({});

const sources = Object.entries(declared).map(([name, args]) => {
  // A secret declared in sourceSecrets is managed from here on; one left out stays as stored.
  const secrets = Object.fromEntries(
    writeOnlyFieldNames(args.deployment.type)
      .filter((field) => !(field in args.deployment))
      .map((field) => [field, sourceSecrets.apply((all) => all[name]?.[field])]),
  );
  return [name, new Source(name, { ...args, deployment: { ...args.deployment, ...secrets } as SourceArgs["deployment"] })] as const;
});

/** Per Source: its id and deployment status. */
export const adopted = Object.fromEntries(sources.map(([name, source]) => [name, { id: source.id, status: source.deploymentStatus }]));
