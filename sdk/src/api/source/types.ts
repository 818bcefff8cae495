// The TypeScript types of a Source's documents, derived from their schemas (documents.ts), which
// the field table's deployment types (deployment-types.ts) type in turn.
import type { z } from "zod";
import type { ReadOnlySourceAttribute } from "./field-table";
import type {
  selectedSourceSchema,
  sourceAttributesSchema,
  sourceCreateAttributesSchema,
  sourcePatchAttributesSchema,
  sourceSchema,
} from "./documents";

export type SourceCreateAttributes = z.input<typeof sourceCreateAttributesSchema>;
/** Create attributes as the create schema parses them: defaults filled in, read-only attributes dropped. */
export type ParsedSourceCreateAttributes = Omit<z.output<typeof sourceCreateAttributesSchema>, ReadOnlySourceAttribute>;
export type SourcePatchAttributes = z.input<typeof sourcePatchAttributesSchema>;
export type SourceAttributes = z.output<typeof sourceAttributesSchema>;
export type Source = z.output<typeof sourceSchema>;
/** A Source limited by `fields[sources]`: any attribute may be absent, and any returned deployment field of any type. */
export type SelectedSource = z.output<typeof selectedSourceSchema>;
export type SelectedSourceAttributes = SelectedSource["attributes"];
