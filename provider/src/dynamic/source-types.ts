// The TypeScript face of the Source resource: its arguments and outputs, derived from the sdk's
// deployment types with camelCase keys. `deployment` is a union discriminated by `type`, so an
// editor completes each type's fields and rejects another type's.
import type * as pulumi from "@pulumi/pulumi";
import type { DeploymentInputOf, Simplify, SourceCreateAttributes, SourceType } from "@asset-delivery/sdk";
import type { CamelKeys } from "../pulumi-names/rename";
import type { ProviderOptionsInput } from "../core";
import type { SourceReadOnlyValues } from "../pulumi-names/source-types";

export type {
  SourceDeployment,
  SourceDeploymentOf,
  SourceDeploymentSecretsOf,
  SourceReadOnlyValues,
  WriteOnlyKeyOf,
} from "../pulumi-names/source-types";

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

/** The provider's own inputs (see provider-options.ts), each a Pulumi input. */
export type SourceOptionArgs = {
  [K in keyof ProviderOptionsInput]?: pulumi.Input<NonNullable<ProviderOptionsInput[K]>>;
};

export interface SourceArgs extends SourceOptionArgs {
  /** Display name; does not affect how assets are served. */
  name: pulumi.Input<SourceCreateAttributes["name"]>;
  /** Whether the Source serves traffic; a disabled one answers 410 Gone for assets not cached. Default true. */
  enabled?: pulumi.Input<NonNullable<SourceCreateAttributes["enabled"]>>;
  /** Where the images come from and how they are served. Its write-only secrets are always stored as secrets. */
  deployment: SourceDeploymentArgs;
}

/** The same fields as outputs of the Source resource. */
export type SourceReadOnlyOutputs = { readonly [K in keyof SourceReadOnlyValues]-?: pulumi.Output<SourceReadOnlyValues[K]> };
