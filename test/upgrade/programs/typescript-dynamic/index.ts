// A team's TypeScript program on the dynamic Source (zero-install: the npm packages only), recorded
// by tools/record-upgrade-states.sh. Every storage type with its write-only secret, secure URLs on,
// a function call, and a Source that the recording retires and then adopts again (the lines between
// the markers are left out of the second `pulumi up`).
import * as pulumi from "@pulumi/pulumi";
import { getSourceOutput, Source } from "@asset-delivery/provider";

const config = new pulumi.Config();

const assets = new Source("assets", {
  name: "Upgrade assets (s3)",
  deployment: {
    type: "s3",
    serviceSubdomains: ["upgrade-ts-s3"],
    s3AccessKey: "AKIAUPGRADEEXAMPLE",
    s3Bucket: "upgrade-assets",
    s3Prefix: "public/",
    s3SecretKey: config.requireSecret("s3SecretKey"),
    secureUrlEnabled: true,
    cacheTtlBehavior: "enforce_minimum",
    cacheTtlValue: 86_400,
  },
});

const archive = new Source("archive", {
  name: "Upgrade archive (gcs)",
  deployment: {
    type: "gcs",
    serviceSubdomains: ["upgrade-ts-gcs"],
    gcsAccessKey: "GOOGUPGRADEEXAMPLE",
    gcsBucket: "upgrade-archive",
    gcsSecretKey: config.requireSecret("gcsSecretKey"),
    defaultParams: { auto: "format,compress" },
  },
});

const media = new Source("media", {
  name: "Upgrade media (azure)",
  deployment: {
    type: "azure",
    serviceSubdomains: ["upgrade-ts-azure"],
    azureAccount: "upgrademedia",
    azureBucket: "media",
    azureServiceType: "blob",
    azureSasString: config.requireSecret("azureSasString"),
  },
});

const spaces = new Source("spaces", {
  name: "Upgrade spaces (s3_compatible)",
  deployment: {
    type: "s3_compatible",
    serviceSubdomains: ["upgrade-ts-spaces"],
    accessKeyId: "DOUPGRADEEXAMPLE",
    bucketName: "upgrade-spaces",
    endpointUrl: "https://nyc3.digitaloceanspaces.com",
    region: "nyc3",
    storageProvider: "DigitalOcean",
    secretKey: config.requireSecret("spacesSecretKey"),
  },
});

// upgrade:retired-then-adopted:begin
const legacy = new Source("legacy", {
  name: "Upgrade legacy proxy",
  deployment: { type: "webproxy", serviceSubdomains: ["upgrade-ts-legacy"], robotsTxt: "disallow-all" },
});
export const legacyId = legacy.id;
// upgrade:retired-then-adopted:end

/** A function call: the s3 Source as the server has it. */
const live = getSourceOutput({ id: assets.id });

export const ids = { assets: assets.id, archive: archive.id, media: media.id, spaces: spaces.id };
export const assetsStatus = live.deploymentStatus;
