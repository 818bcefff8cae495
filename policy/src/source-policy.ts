// What every policy of the pack shares: how a Source's findings become violations, and how a
// policy's config is read. A violation names the resource, the property path and the rule (the
// policy's name and description, which Pulumi prints with it) and says how to comply.
import type {
  EnforcementLevel,
  PolicyConfigSchema,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
} from "@pulumi/policy";
import { sourceViewOf } from "./shapes";
import type { SourceView } from "./source-view";

/** One way a Source breaks a rule. */
export interface Finding {
  /** The property as the program declares it: `deployment.webfolderBaseUrl`, `deployment.customDomains[1]`. */
  path: string;
  /**
   * What is wrong with it, e.g. `is an http:// URL`. Never the declared value: @pulumi/policy hands
   * policies values without their secret mark, so any of them may be one the program marked secret
   * (a whole native deployment in `fn::secret`, say); the path says which value it is.
   */
  problem: string;
  /** How to comply, e.g. `serve the origin over HTTPS and write its https:// address`. */
  fix: string;
}

/** The violation's text: the resource, the path, what is wrong and how to comply. */
export function violationMessage(resourceName: string, finding: Finding): string {
  return `Source "${resourceName}": ${finding.path} ${finding.problem}. To comply, ${finding.fix}.`;
}

/** A policy's config as the engine hands it over: the schema's defaults filled in, values checked against it. */
export function policyConfig<T extends object>(schema: PolicyConfigSchema | undefined, given: object): T {
  const defaults = Object.entries(schema?.properties ?? {}).flatMap(([key, property]) =>
    typeof property === "object" && property.default !== undefined ? [[key, property.default] as const] : [],
  );
  // The engine validated `given` against the schema (unit tests pass it directly); missing members get their defaults,
  // as the engine gives them.
  return { ...Object.fromEntries(defaults), ...given } as T;
}

export interface SourcePolicySpec<Config extends object> {
  name: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  configSchema?: PolicyConfigSchema;
  /** The findings of one Source under the policy's config. Values not known yet (UNKNOWN) are skipped. */
  check: (source: SourceView, config: Config) => Finding[];
}

/** A resource policy that applies to every Source (dynamic or native) and to nothing else. */
export function sourcePolicy<Config extends object = Record<string, never>>(spec: SourcePolicySpec<Config>): ResourceValidationPolicy {
  const { check, ...policy } = spec;
  return {
    ...policy,
    validateResource: (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
      const source = sourceViewOf(args);
      if (source === undefined) return;
      const config = policyConfig<Config>(spec.configSchema, args.getConfig<Config>());
      for (const finding of check(source, config)) reportViolation(violationMessage(source.resource.name, finding));
    },
  };
}
