// Sources made by hand, brought under management: `asset-delivery import --stack NAME` declares
// each Source the stack does not manage yet in Pulumi.<stack>.yaml, as the server has it and with
// its id in `adoptSourceId`, and this program turns the declarations into Source resources. The
// first `pulumi up` adopts them without a change (see README.md).
//
//   adopt-account:sources        name -> Source arguments, as `new Source(...)` takes them
//   adopt-account:sourceSecrets  (secret) name -> write-only field -> value; import prints the
//                                `pulumi config set --secret --path ...` command for each one that exists
import { sourcesFromConfig } from "@asset-delivery/provider";

// Empty until the first import. A secret declared in sourceSecrets is managed from here on; one
// left out stays as stored.
const sources = sourcesFromConfig();

/** Per Source: its id and deployment status. */
export const adopted = Object.fromEntries(
  Object.entries(sources).map(([name, source]) => [name, { id: source.id, status: source.deploymentStatus }]),
);
