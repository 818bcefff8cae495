// source-webproxy-signed: a web proxy Source fetches whatever URL a request names; without a
// request signing key, anyone can fetch any URL through it.
import { sourcePolicy } from "../source-policy";
import { deploymentPath } from "../source-view";

export const sourceWebproxySigned = sourcePolicy({
  name: "source-webproxy-signed",
  description: "A webproxy Source sets requestSigningKey: otherwise anyone can fetch any URL through it.",
  enforcementLevel: "advisory",
  check(source) {
    if (source.type !== "webproxy") return [];
    // A secret: only whether it is set is looked at, never its value.
    const key = source.field("request_signing_key");
    if (key !== null && key !== undefined) return [];
    return [
      {
        path: deploymentPath("request_signing_key"),
        problem: "is not set on a webproxy Source",
        fix: `set ${deploymentPath("request_signing_key")} to a secret of 32 characters (e.g. config.requireSecret("proxySigningKey")) and sign the proxied URLs with it`,
      },
    ];
  },
});
