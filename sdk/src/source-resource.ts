// How a Pulumi program declares a Source, for whoever reads a stack's resources without loading the
// provider: the policy pack, which a CI policy run installs beside programs in any language. The
// provider declares the same (its schema and plugin, its dynamic shell: test/policy/shapes.test.ts
// holds them equal); the pack does not depend on @asset-delivery/provider because that package
// ships the plugin's executable, which npm links into node_modules/.bin: a run through npm finds it
// on PATH, and Pulumi runs a plugin found on PATH in place of the version the program asked for.
import { camelCase, isSourceType, writeOnlyFields } from "./api/source/descriptors";
import { isPlainObject } from "./objects";

/** The Pulumi package of the native plugin (`pulumi-resource-assetdelivery`): its tokens and config namespace. */
export const PULUMI_PACKAGE_NAME = "assetdelivery";

/** The native plugin's Source (any language): `assetdelivery:index:Source`. */
export const NATIVE_SOURCE_TYPE = `${PULUMI_PACKAGE_NAME}:index:Source` as const;

/** The dynamic Source of @asset-delivery/provider (`new Source(...)` in TypeScript), as the engine's dynamic-provider host types it. */
export const DYNAMIC_SOURCE_TYPE = `pulumi-nodejs:dynamic/${PULUMI_PACKAGE_NAME}:Source` as const;

/** The dynamic Source's input holding its write-only fields, apart from `deployment` (see deploymentWithSecrets). */
export const DYNAMIC_SECRETS_KEY = "deploymentSecrets";

/**
 * A dynamic Source's deployment with its write-only fields merged back in: a dynamic resource can
 * mark only top-level values secret, so they lie apart in its `deploymentSecrets` input. Secrets not
 * known yet as a whole (a preview) make each write-only field of the deployment's type `unknown`,
 * the caller's marker of a value not known yet; a deployment that is not an object is given back.
 */
export function deploymentWithSecrets<V>(deployment: V, deploymentSecrets: V | undefined, unknown: V): V {
  if (!isPlainObject(deployment)) return deployment;
  if (isPlainObject(deploymentSecrets)) return { ...deployment, ...deploymentSecrets };
  if (deploymentSecrets !== unknown) return deployment;
  if (!isSourceType(deployment.type)) return deployment;
  return { ...deployment, ...Object.fromEntries(writeOnlyFields(deployment.type).map((field) => [camelCase(field), unknown])) };
}
