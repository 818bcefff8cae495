// The TypeScript face of the Source resource: its arguments and outputs, derived from the sdk's
// deployment types with camelCase keys. `deployment` is a union discriminated by `type`, so an
// editor completes each type's fields and rejects another type's.
import type * as pulumi from "@pulumi/pulumi";
import type { DeploymentInputOf, DeploymentOf, Simplify, SourceCreateAttributes, SourceType } from "@asset-delivery/sdk";
import type { CamelCase, CamelKeys } from "./core/names";
import type { ProviderOptionsInput } from "./core/provider-options";

/** A field as a Pulumi input; a list may hold inputs too. */
type InputField<V> = [V] extends [readonly (infer E)[] | undefined]
  ? pulumi.Input<pulumi.Input<E>[]> | Extract<V, undefined>
  : pulumi.Input<V>;

/**
 * The deployment of a type-`T` Source as declared in a program. `type` is a plain value (not an
 * input): it decides which fields exist, so it must be known when the program is written.
 */
export type SourceDeploymentArgsOf<T extends SourceType> = Simplify<
  { type: T } & { [K in keyof Omit<CamelKeys<DeploymentInputOf<T>>, "type">]: InputField<Omit<CamelKeys<DeploymentInputOf<T>>, "type">[K]> }
>;
export type SourceDeploymentArgs = { [T in SourceType]: SourceDeploymentArgsOf<T> }[SourceType];

/** The provider's own inputs (see provider-options.ts), each a Pulumi input; the URN is the resource's own. */
export type SourceOptionArgs = {
  [K in Exclude<keyof ProviderOptionsInput, "resourceUrn">]?: pulumi.Input<NonNullable<ProviderOptionsInput[K]>>;
};

export interface SourceArgs extends SourceOptionArgs {
  /** Display name; does not affect how assets are served. */
  name: pulumi.Input<SourceCreateAttributes["name"]>;
  /** Whether the Source serves traffic. Default true. */
  enabled?: pulumi.Input<NonNullable<SourceCreateAttributes["enabled"]>>;
  /** Where the images come from and how they are served. Its write-only secrets are always stored as secrets. */
  deployment: SourceDeploymentArgs;
}

// Write-only fields are those one can send but never read back; read-only the reverse.
export type WriteOnlyKeyOf<T extends SourceType> = Exclude<keyof DeploymentInputOf<T>, keyof DeploymentOf<T>> & string;
type ReadOnlyKeyOf<T extends SourceType> = Exclude<keyof DeploymentOf<T>, keyof DeploymentInputOf<T>> & string;

/**
 * A type-`T` deployment as the API returns it (secrets never included), with camelCase keys; its
 * read-only fields are outputs of their own (SourceReadOnlyOutputs).
 */
export type SourceDeploymentOf<T extends SourceType> = Simplify<CamelKeys<Omit<DeploymentOf<T>, ReadOnlyKeyOf<T>>>>;
export type SourceDeployment = { [T in SourceType]: SourceDeploymentOf<T> }[SourceType];

/** The write-only values declared for a type-`T` deployment, as kept (secret) in the state. */
export type SourceDeploymentSecretsOf<T extends SourceType> = Simplify<CamelKeys<Pick<DeploymentInputOf<T>, WriteOnlyKeyOf<T>>>>;

type ReadOnlyValue<K extends string> = {
  [T in SourceType]: K extends ReadOnlyKeyOf<T> & keyof DeploymentOf<T> ? DeploymentOf<T>[K] : never;
}[SourceType];
type AnyReadOnlyKey = { [T in SourceType]: ReadOnlyKeyOf<T> }[SourceType];

/** The deployment's read-only fields (`allowsUpload`, `passwordSet`, ...); absent where the type has none. */
export type SourceReadOnlyValues = { readonly [K in AnyReadOnlyKey as CamelCase<K>]?: ReadOnlyValue<K> };

/** The same fields as outputs of the Source resource. */
export type SourceReadOnlyOutputs = { readonly [K in keyof SourceReadOnlyValues]-?: pulumi.Output<SourceReadOnlyValues[K]> };
