// The gRPC runtime and Pulumi's generated protocol bindings, as @pulumi/pulumi ships them
// (`@pulumi/pulumi/proto`): the one loader of them in the provider (the plugin's server, the engine
// guard's health check, the engine log). gRPC and google-protobuf are @pulumi/pulumi's dependencies:
// the very copies its bindings were generated for are loaded, so the messages and the server agree
// (tools/bundle-plugin.mjs resolves each of these requires for the single executable).
// Loaded on first use (the dynamic resource's process needs them only to warn or to guard), then
// kept: each call of the plugin encodes its answer with them, and a `require` of a path through
// `createRequire` resolves the path again each time (a package.json lookup per module: in a
// refresh of 1,000 through the engine, about 4% of the plugin's CPU).
import { createRequire } from "node:module";
import type * as grpcModule from "@grpc/grpc-js";
import type * as anyPb from "google-protobuf/google/protobuf/any_pb";
import type * as emptyPb from "google-protobuf/google/protobuf/empty_pb";
import type * as structPb from "google-protobuf/google/protobuf/struct_pb";
import type * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import type * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
import type * as providerGrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as providerPb from "@pulumi/pulumi/proto/provider_pb";
import type * as errorsPb from "@pulumi/pulumi/proto/errors_pb";
import type * as statusPb from "@pulumi/pulumi/proto/status_pb";

const requireFromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));

/** @pulumi/pulumi's copy of @grpc/grpc-js. */
export function grpcRuntime(): typeof grpcModule {
  return requireFromPulumi("@grpc/grpc-js") as typeof grpcModule;
}

/** The engine's service (its Log call), for a provider process that talks to its engine. */
export function engineProtos(): { engine: typeof enginePb; engineGrpc: typeof engineGrpc } {
  return {
    engine: requireFromPulumi("@pulumi/pulumi/proto/engine_pb") as typeof enginePb,
    engineGrpc: requireFromPulumi("@pulumi/pulumi/proto/engine_grpc_pb") as typeof engineGrpc,
  };
}

type ProviderProtos = ReturnType<typeof loadProviderProtos>;
let providerProtosLoaded: ProviderProtos | undefined;

/** The ResourceProvider service and the messages it answers with, for the native plugin's server. */
export function providerProtos(): ProviderProtos {
  providerProtosLoaded ??= loadProviderProtos();
  return providerProtosLoaded;
}

function loadProviderProtos() {
  return {
    provider: requireFromPulumi("@pulumi/pulumi/proto/provider_pb") as typeof providerPb,
    providerGrpc: requireFromPulumi("@pulumi/pulumi/proto/provider_grpc_pb") as typeof providerGrpc,
    plugin: requireFromPulumi("@pulumi/pulumi/proto/plugin_pb") as typeof pluginPb,
    errors: requireFromPulumi("@pulumi/pulumi/proto/errors_pb") as typeof errorsPb,
    struct: requireFromPulumi("google-protobuf/google/protobuf/struct_pb") as typeof structPb,
    empty: requireFromPulumi("google-protobuf/google/protobuf/empty_pb") as typeof emptyPb,
    any: requireFromPulumi("google-protobuf/google/protobuf/any_pb") as typeof anyPb,
    // google.rpc.Status, for errors that carry details (a created Source that did not deploy).
    status: requireFromPulumi("@pulumi/pulumi/proto/status_pb") as typeof statusPb,
  };
}
