// zod schemas as the JSON Schema (2020-12) that OpenAPI 3.1 embeds, via zod 4's z.toJSONSchema.
// Request bodies are described as accepted (input), responses as produced (output); the sdk's
// writeOnly/readOnly metadata is carried over as the JSON Schema keywords of the same name.
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    // Transforms of ignored read-only input accept anything: their input side is documented.
    unrepresentable: "any",
    override(ctx) {
      // A member that must be absent (e.g. `id` in a create request) accepts no value at all.
      if (ctx.zodSchema instanceof z.ZodUndefined) {
        for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
        ctx.jsonSchema.not = {};
      }
    },
  }) as JsonSchema;
  return json;
}
