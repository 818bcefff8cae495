// The public surface of @asset-delivery/sdk: the API's schemas and rules, the rendering-parameter
// list, the typed client, the resource types a Pulumi program declares a Source with, and how a
// value from the server is printed.
export * from "./api";
export * from "./rendering-parameters";
export * from "./client";
export * from "./source-resource";
export { isPlainObject, pick, withoutUndefined, type Simplify } from "./objects";
export { printable } from "./printable";
