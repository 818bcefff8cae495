// End-to-end test program of the policy pack: `mirror` fetches from an address made of `origin`'s
// id, which no preview knows before `origin` exists; `scheme` (config, default "https") is that
// address's scheme.
import * as pulumi from "@pulumi/pulumi";
import { Source } from "@asset-delivery/provider";

const scheme = new pulumi.Config().get("scheme") ?? "https";
const origin = new Source("origin", {
  name: "Derived origin",
  deployment: {
    type: "webfolder",
    serviceSubdomains: ["pol-derived-origin"],
    webfolderBaseUrl: "https://origin.example.com/",
    secureUrlEnabled: true,
  },
});
new Source("mirror", {
  name: "Derived mirror",
  deployment: {
    type: "webfolder",
    serviceSubdomains: ["pol-derived-mirror"],
    webfolderBaseUrl: pulumi.interpolate`${scheme}://mirror.example.com/${origin.id}/`,
    secureUrlEnabled: true,
  },
});
