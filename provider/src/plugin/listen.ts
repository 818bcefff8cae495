// How a plugin serves the engine: a ResourceProvider implementation on a gRPC server bound to a
// loopback port, the port printed on stdout. Apart from server.ts (which decodes each request,
// hands it to NativeProvider and encodes the answer), so that bench/echo-plugin, the floor the
// plugin's CPU is measured against, serves its empty handlers on this very server.
import type * as grpcTypes from "@grpc/grpc-js";
import { grpcRuntime, providerProtos } from "../engine/grpc";

/** Serves `service` as Pulumi's ResourceProvider on 127.0.0.1 and prints the port, as the engine expects of a plugin. */
export async function serveResourceProvider(service: grpcTypes.UntypedServiceImplementation): Promise<grpcTypes.Server> {
  const grpc = grpcRuntime();
  const server = new grpc.Server({
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
    // No channelz (gRPC's introspection service, which nothing here serves or asks): it tracks every
    // call and its stream's events, a share of each Read's CPU.
    "grpc.enable_channelz": 0,
  });
  server.addService(providerProtos().providerGrpc.ResourceProviderService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  process.stdout.write(`${port}\n`);
  return server;
}
