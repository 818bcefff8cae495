// Warnings from inside the dynamic provider. The provider process has no `pulumi.log` connection
// (its stderr shows up as plain info lines), so warnings go straight to the engine's Log RPC,
// whose address the engine passes as the process's last argument, and appear as real warnings.
import { createRequire } from "node:module";
import type * as grpcModule from "@grpc/grpc-js";
import type * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as enginePb from "@pulumi/pulumi/proto/engine_pb";
import { engineAddressOf, engineGuard } from "./engine-guard";

// gRPC is @pulumi/pulumi's dependency: load the very copy it uses.
const requireFromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));

let engine: engineGrpc.EngineClient | null | undefined;

function engineClient(): engineGrpc.EngineClient | null {
  if (engine !== undefined) return engine;
  const address = engineAddressOf(process.argv.slice(2));
  if (!address) return (engine = null);
  const grpc = requireFromPulumi("@grpc/grpc-js") as typeof grpcModule;
  const { EngineClient } = requireFromPulumi("@pulumi/pulumi/proto/engine_grpc_pb") as typeof engineGrpc;
  return (engine = new EngineClient(address, grpc.credentials.createInsecure()));
}

/** Shows a warning in the Pulumi output; falls back to stderr outside a Pulumi engine. */
export async function warn(message: string): Promise<void> {
  const client = engineClient();
  if (client) {
    const pb = requireFromPulumi("@pulumi/pulumi/proto/engine_pb") as typeof enginePb;
    const request = new pb.LogRequest().setSeverity(pb.LogSeverity.WARNING).setMessage(message);
    const delivered = await new Promise<boolean>((resolve) => client.log(request, (error) => resolve(!error)));
    if (delivered) return;
    // The engine may be gone: then stderr is closed too, and nobody is left to warn.
    engineGuard()?.hint();
  }
  console.warn(`warning: ${message}`);
}
