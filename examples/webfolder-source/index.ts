// A webfolder Source: the service fetches originals from an existing web folder and serves them
// on <subdomain>.<delivery domain>, with cache lifetimes, error images and rendering defaults.
import * as pulumi from "@pulumi/pulumi";
import { Source } from "@asset-delivery/provider";

const config = new pulumi.Config();

const photos = new Source("photos", {
  name: "Photos",
  deployment: {
    type: "webfolder",
    serviceSubdomains: [config.get("subdomain") ?? "example-photos"],
    webfolderBaseUrl: "https://origin.example.com/images/",
    cacheTtlBehavior: "override_origin",
    cacheTtlValue: 86_400,
    imageError: "https://origin.example.com/images/error.png",
    imageMissing: "https://origin.example.com/images/missing.png",
    defaultParams: { auto: "format,compress", q: 75 },
  },
});

export const sourceId = photos.id;
export const status = photos.deploymentStatus;
export const deployment = photos.deployment;
