// A Source's types as the resource names them (Pulumi's camelCase), derived from the sdk's deployment
// types: which fields are write-only (sent, never returned) and read-only (returned, never sent).
// The dynamic resource's argument and output types (dynamic/source-types.ts) are built on these.
import type { DeploymentInputOf, DeploymentOf, Simplify, SourceType } from "@asset-delivery/sdk";
import type { CamelCase, CamelKeys } from "./rename";

// Write-only fields are those one can send but never read back; read-only the reverse.
export type WriteOnlyKeyOf<T extends SourceType> = Exclude<keyof DeploymentInputOf<T>, keyof DeploymentOf<T>> & string;
export type ReadOnlyKeyOf<T extends SourceType> = Exclude<keyof DeploymentOf<T>, keyof DeploymentInputOf<T>> & string;

/**
 * A type-`T` deployment as the API returns it (secrets never included), with camelCase keys; its
 * read-only fields are outputs of their own (SourceReadOnlyValues).
 */
export type SourceDeploymentOf<T extends SourceType> = Simplify<CamelKeys<Omit<DeploymentOf<T>, ReadOnlyKeyOf<T>>>>;
export type SourceDeployment = { [T in SourceType]: SourceDeploymentOf<T> }[SourceType];

/** The write-only values declared for a type-`T` deployment, camelCase. */
export type SourceDeploymentSecretsOf<T extends SourceType> = Simplify<CamelKeys<Pick<DeploymentInputOf<T>, WriteOnlyKeyOf<T>>>>;

type ReadOnlyValue<K extends string> = {
  [T in SourceType]: K extends ReadOnlyKeyOf<T> & keyof DeploymentOf<T> ? DeploymentOf<T>[K] : never;
}[SourceType];
type AnyReadOnlyKey = { [T in SourceType]: ReadOnlyKeyOf<T> }[SourceType];

/** The deployment's read-only fields (`allowsUpload`, `passwordSet`, ...); absent where the type has none. */
export type SourceReadOnlyValues = { readonly [K in AnyReadOnlyKey as CamelCase<K>]?: ReadOnlyValue<K> };
