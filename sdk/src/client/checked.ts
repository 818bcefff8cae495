// Caller input is checked before anything is sent; a failure names the field and the rule.
import type { z } from "zod";
import { fieldIssues } from "../api";
import { RequestValidationError } from "./errors";

/** `path` names a value that is not an object of fields, e.g. `["label"]` for a function argument. */
export function checked<S extends z.ZodType>(schema: S, value: unknown, what: string, path: readonly string[] = []): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RequestValidationError(what, fieldIssues(parsed.error, path));
  return parsed.data;
}
