// An S3 Source with its credentials in the stack configuration:
//   pulumi config set s3AccessKey AKIA...
//   pulumi config set --secret s3SecretKey <secret key>
//   pulumi config set s3Bucket my-bucket
// The secret key is write-only (the API never returns it): the resource keeps it in the
// `deploymentSecrets` secret, never in plain text in the state. With secure URLs on, the signing
// token is an output, secret too.
import * as pulumi from "@pulumi/pulumi";
import { Source } from "@asset-delivery/provider";

const config = new pulumi.Config();

const assets = new Source("assets", {
  name: "Assets",
  deployment: {
    type: "s3",
    serviceSubdomains: [config.get("subdomain") ?? "example-assets"],
    s3AccessKey: config.require("s3AccessKey"),
    s3SecretKey: config.requireSecret("s3SecretKey"),
    s3Bucket: config.require("s3Bucket"),
    s3Prefix: "public/",
    secureUrlEnabled: true,
  },
});

export const sourceId = assets.id;
export const allowsUpload = assets.allowsUpload;
export const secureUrlToken = assets.secureUrlToken;
