// Turns zod issues into messages that name the field and the rule, for the server's 400s and the
// provider's check failures alike.
import type { z } from "zod";

export interface FieldIssue {
  /** Dotted path of the offending field, e.g. `deployment.cache_ttl_error` or `deployment.custom_domains.1`. */
  path: string;
  /** The rule that was broken, e.g. "must be from 1 to 31536000 seconds". */
  rule: string;
  /**
   * The same path as segments (field names may contain dots, e.g. `robots.txt`), for building
   * a JSON pointer. Set by `fieldIssues`.
   */
  segments?: (string | number)[];
}

export function fieldIssues(error: z.ZodError, prefix: readonly (string | number)[] = []): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: [...path, key].join("."), rule: "is not a field of this object", segments: [...path, key] }));
    }
    return [{ path: path.join(".") || "(document)", rule: issue.message, segments: path }];
  });
}

/** One line per issue: `deployment.cache_ttl_error: must be from 1 to 31536000 seconds`. */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.rule}`).join("; ");
}
