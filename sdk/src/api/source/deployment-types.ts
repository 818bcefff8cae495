// The TypeScript types of a deployment, derived from the field table: what a deployment is at
// creation, in PATCH, as stored and as returned, for each type. The documents' schemas
// (documents.ts) are typed by these; the documents' attribute types (types.ts) derive from those.
import type { z } from "zod";
import type { Simplify } from "../../objects";
import type { ReadOnly, WriteOnly } from "../rules";
import type { FieldsOf, SourceType } from "./field-table";

type KeysBranded<S, B> = { [K in keyof S]: S[K] extends B ? K : never }[keyof S];
type ReadOnlyKeys<T extends SourceType> = KeysBranded<FieldsOf<T>, ReadOnly<z.ZodType>>;
type WriteOnlyKeys<T extends SourceType> = KeysBranded<FieldsOf<T>, WriteOnly<z.ZodType>>;
type Writable<T extends SourceType> = z.ZodObject<{ type: z.ZodLiteral<T> } & Omit<FieldsOf<T>, ReadOnlyKeys<T>>>;

/** What a caller sends as `deployment` at creation, for type T. */
export type DeploymentInputOf<T extends SourceType> = Simplify<z.input<Writable<T>>>;
export type DeploymentInput = { [T in SourceType]: DeploymentInputOf<T> }[SourceType];
/** In PATCH, the secrets may be omitted to keep the stored ones. */
export type DeploymentPatchInput = {
  [T in SourceType]: Simplify<
    Omit<DeploymentInputOf<T>, WriteOnlyKeys<T>> &
      Partial<Pick<DeploymentInputOf<T>, Extract<keyof DeploymentInputOf<T>, WriteOnlyKeys<T>>>>
  >;
}[SourceType];
/** A parsed deployment with defaults filled in and secrets included: what the server stores. */
export type DeploymentOutputOf<T extends SourceType> = Simplify<z.output<Writable<T>>>;
export type StoredDeployment = { [T in SourceType]: DeploymentOutputOf<T> }[SourceType];

/** A deployment as the API returns it, for type T. */
export type DeploymentOf<T extends SourceType> = Simplify<
  Omit<DeploymentOutputOf<T>, WriteOnlyKeys<T> | "annotation"> & { annotation: string } & {
    [K in ReadOnlyKeys<T>]: z.output<FieldsOf<T>[K]>;
  }
>;
export type Deployment = { [T in SourceType]: DeploymentOf<T> }[SourceType];
