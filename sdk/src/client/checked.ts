// Caller input is checked before anything is sent; a failure names the field and the rule.
import type { z } from "zod";
import { fieldIssues } from "../schemas";
import { RequestValidationError } from "./errors";

export function checked<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new RequestValidationError(what, fieldIssues(parsed.error));
  return parsed.data;
}
