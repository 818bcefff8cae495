// Warnings from inside a provider. The dynamic provider's process has no `pulumi.log` connection
// (its stderr shows up as plain info lines), so warnings go straight to the engine's Log RPC, at
// the address the engine gives the provider process, and appear as real warnings.
import type * as engineGrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { Info, Warn } from "../core";
import { engineAddress, engineGuard } from "./engine-guard";
import { engineProtos, grpcRuntime } from "./grpc";

export { engineAddress };

/**
 * Warnings to the engine at `address` (its client made on the first warning, owned by the returned
 * function); to stderr outside a Pulumi engine or when the engine does not take them.
 */
export function engineWarnings(address: string | undefined): Warn {
  return engineLog(address, "WARNING");
}

/** Progress messages (info) to the engine at `address`, as engineWarnings sends warnings. */
export function engineInfo(address: string | undefined): Info {
  return engineLog(address, "INFO");
}

/** A provider process's log: warnings and progress messages to the engine whose address it was given last. */
export function providerProcessLog(argv: readonly string[] = process.argv): { warn: Warn; info: Info } {
  const address = engineAddress(argv);
  return { warn: engineWarnings(address), info: engineInfo(address) };
}

function engineLog(address: string | undefined, severity: "WARNING" | "INFO"): Warn {
  let engine: engineGrpc.EngineClient | undefined;
  return async (message) => {
    if (address !== undefined) {
      const { engine: pb, engineGrpc: service } = engineProtos();
      engine ??= new service.EngineClient(address, grpcRuntime().credentials.createInsecure());
      const request = new pb.LogRequest().setSeverity(pb.LogSeverity[severity]).setMessage(message);
      const delivered = await new Promise<boolean>((resolve) => engine!.log(request, (error) => resolve(!error)));
      if (delivered) return;
      // The engine may be gone: then stderr is closed too, and nobody is left to warn.
      engineGuard()?.hint();
    }
    console.warn(`${severity.toLowerCase()}: ${message}`);
  };
}
