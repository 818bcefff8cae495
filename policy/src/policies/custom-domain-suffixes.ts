// source-custom-domain-suffixes: custom domains only under the company's domains. A domain
// complies when it is one of the suffixes or ends with "." and one of them, compared
// case-insensitively as DNS names are: "example.com" allows images.example.com and example.com,
// not badexample.com. No config: any domain.
import { sourcePolicy, type Finding } from "../source-policy";
import { deploymentPath } from "../source-view";

export interface CustomDomainSuffixesConfig {
  /** Domain suffixes allowed, e.g. "example.com"; absent: any domain. */
  suffixes?: string[];
}

const PATH = deploymentPath("custom_domains");

/** Whether `domain` is `suffix` or a name under it. */
export function isUnderSuffix(domain: string, suffix: string): boolean {
  const name = domain.toLowerCase().replace(/\.$/, "");
  const under = suffix.toLowerCase().replace(/^\.|\.$/g, "");
  return name === under || name.endsWith(`.${under}`);
}

export const sourceCustomDomainSuffixes = sourcePolicy<CustomDomainSuffixesConfig>({
  name: "source-custom-domain-suffixes",
  description: "Every custom domain is under one of the stack's domain suffixes (config `suffixes`; without it, any domain).",
  enforcementLevel: "mandatory",
  configSchema: {
    properties: {
      suffixes: {
        type: "array",
        items: { type: "string", minLength: 1, pattern: "^\\.?[A-Za-z0-9.-]+$" },
        minItems: 1,
        description: 'Domain suffixes allowed, e.g. "example.com" (allows images.example.com). Without it, any domain is.',
      },
    },
  },
  check(source, { suffixes }) {
    const domains = source.field("custom_domains");
    if (suffixes === undefined || !Array.isArray(domains)) return [];
    return domains.flatMap((domain: string, index): Finding[] =>
      suffixes.some((suffix) => isUnderSuffix(domain, suffix))
        ? []
        : [
            {
              path: `${PATH}[${index}]`,
              problem: `is not under ${suffixes.join(", ")}`,
              fix: `use a domain under ${suffixes.join(" or ")}, or add its suffix to the suffixes of source-custom-domain-suffixes in the stack's policy config`,
            },
          ],
    );
  },
});
