// Turns zod issues into messages that name the field and the rule, for the server's 400s and the
// provider's check failures alike.
import type { z } from "zod";

export interface FieldIssue {
  /**
   * Where the offending field is, as segments: field names may contain dots (`robots.txt`), so
   * this is the form every part reads (a JSON pointer is built from it).
   */
  segments: (string | number)[];
  /** The rule that was broken, e.g. "must be from 1 to 31536000 seconds". */
  rule: string;
  /** The segments for people, derived by `fieldIssue`: `deployment.cache_ttl_error`, `deployment.custom_domains.1`. */
  path: string;
}

/** An issue at `segments` (none: the whole document). */
export function fieldIssue(segments: readonly (string | number)[], rule: string): FieldIssue {
  return { segments: [...segments], rule, path: dottedPath(segments) };
}

/** `deployment.cache_ttl_error`; `(document)` for the document itself. For reading only: a name may hold a dot. */
export function dottedPath(segments: readonly (string | number)[]): string {
  return segments.join(".") || "(document)";
}

export function fieldIssues(error: z.ZodError, prefix: readonly (string | number)[] = []): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => fieldIssue([...path, key], "is not a field of this object"));
    return [fieldIssue(path, issue.message)];
  });
}

/** One line per issue: `deployment.cache_ttl_error: must be from 1 to 31536000 seconds`. */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.rule}`).join("; ");
}
