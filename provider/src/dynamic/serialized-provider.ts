// How a Source reaches the Pulumi engine's dynamic-provider host (the `pulumi-nodejs` provider
// plugin, @pulumi/pulumi's cmd/dynamic-provider): as a resource of a `pulumi-nodejs:dynamic/...`
// type whose `__provider` input is the text of a CommonJS module. The host loads that text
// (require-from-string, resolved from the program's folder), calls its `handler()` and uses the
// provider it returns for every operation on the resource, `destroy` included, from the outputs
// that the state keeps.
//
// `pulumi.dynamic.Resource` would make that text by serializing a provider object: seven wrapped
// functions, about 2 KB, stored twice per resource (inputs and outputs), so that every checkpoint
// of a 100-Source stack carried 400 KB of it. The module below is the same thing written once: a
// require of the installed runtime, nothing captured (no client, no credential, no copied code),
// so the state stays small and every operation runs today's code.

/**
 * The type token of `new Source(...)`: a dynamic resource of module `assetdelivery`. A literal, as
 * 0.1.0 declared it (its type widens to `string` where a program stores it); the sdk's
 * `DYNAMIC_SOURCE_TYPE`, which the policy pack reads, is held equal to it by test/policy/shapes.test.ts.
 */
export const SOURCE_RESOURCE_TYPE = "pulumi-nodejs:dynamic/assetdelivery:Source";

/** The input the dynamic-provider host reads the provider from. */
export const PROVIDER_KEY = "__provider";

/**
 * The module text stored as `__provider`: a require of the package's stable `./runtime` export.
 * States written before that export existed name `@asset-delivery/provider/dist/runtime`; package.json keeps
 * that path exported for good, because `read` and `destroy` load whatever text a state holds.
 */
export const SERIALIZED_PROVIDER = 'exports.handler = () => require("@asset-delivery/provider/runtime").sourceProvider;\n';
