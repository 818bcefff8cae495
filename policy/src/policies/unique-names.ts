// sources-unique-names (a stack policy): no two Sources of a stack share a display name, so that
// reports, dashboards and reviewers can tell them apart. Names are compared as people read them:
// case-insensitively, white space around them ignored.
import type { StackValidationPolicy } from "@pulumi/policy";
import { UNKNOWN } from "../known";
import { sourceViewOf } from "../shapes";
import { violationMessage } from "../source-policy";
import type { SourceView } from "../source-view";

export const sourcesUniqueNames: StackValidationPolicy = {
  name: "sources-unique-names",
  description: "No two Sources of the stack share a display name (name), compared case-insensitively.",
  enforcementLevel: "advisory",
  validateStack: (args, reportViolation) => {
    const byName = new Map<string, SourceView[]>();
    for (const resource of args.resources) {
      const source = sourceViewOf(resource);
      const name = source?.displayName;
      if (source === undefined || name === undefined || name === UNKNOWN) continue;
      const key = name.trim().toLowerCase();
      byName.set(key, [...(byName.get(key) ?? []), source]);
    }
    for (const sharing of byName.values()) {
      if (sharing.length < 2) continue;
      for (const source of sharing) {
        const others = sharing.filter((other) => other !== source).map((other) => `"${other.resource.name}"`);
        const finding = {
          path: "name",
          problem: `is the display name of Source ${others.join(", ")} too`,
          fix: "give each Source of the stack a display name of its own",
        };
        reportViolation(violationMessage(source.resource.name, finding), source.resource.urn);
      }
    }
  },
};
