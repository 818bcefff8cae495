// Importing an existing Source: declare it as it should be, with `adoptSourceId` set to its id.
// The first `pulumi up` takes it over (no new Source) and changes it to the declared state in one
// PATCH; from then on it is managed like any other. Write-only secrets the program does not
// declare are kept as stored on the server.
//   pulumi config set sourceId <24-character Source id>    (e.g. from `getSource({ subdomain })`)
//   pulumi config set subdomain <its service subdomain>
// (Pulumi's own `import` option cannot work for dynamic providers: adoptSourceId replaces it.)
import * as pulumi from "@pulumi/pulumi";
import { Source } from "@asset-delivery/provider";

const config = new pulumi.Config();

const legacy = new Source("legacy", {
  adoptSourceId: config.require("sourceId"),
  name: "Legacy proxy (managed by Pulumi)",
  deployment: {
    type: "webproxy",
    serviceSubdomains: [config.require("subdomain")],
    robotsTxt: "disallow-all",
    cacheTtlError: 60,
  },
});

export const sourceId = legacy.id;
export const status = legacy.deploymentStatus;
