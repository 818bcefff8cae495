// The public surface of @asset-delivery/sdk: the API's schemas and rules, the rendering-parameter
// list, and the typed client.
export * from "./api";
export * from "./rendering-parameters";
export * from "./client";
export { isPlainObject, pick, withoutUndefined, type Simplify } from "./objects";
