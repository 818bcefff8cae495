// source-secure-urls: delivery URLs must be signed with the Source's secureUrlToken.
import { sourcePolicy } from "../source-policy";
import { deploymentPath } from "../source-view";

export const sourceSecureUrls = sourcePolicy({
  name: "source-secure-urls",
  description: "Delivery URLs are signed: secureUrlEnabled is true, so that only URLs signed with the Source's secureUrlToken are served.",
  enforcementLevel: "advisory",
  check(source) {
    // Not declared means the API's default (false), which the view gives.
    if (source.field("secure_url_enabled") !== false) return [];
    return [
      {
        path: deploymentPath("secure_url_enabled"),
        problem: "is false",
        fix: `set ${deploymentPath("secure_url_enabled")}: true and sign every delivery URL with the Source's secureUrlToken output`,
      },
    ];
  },
});
