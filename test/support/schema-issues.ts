// Schema test helper: what a schema says about a value, as the "path: rule" lines users see.
import { fieldIssues } from "@asset-delivery/sdk";
import type { z } from "zod";

/** `[]` when the value passes; else one "path: rule" line per issue. */
export function issuesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : fieldIssues(result.error).map((issue) => `${issue.path}: ${issue.rule}`);
}
