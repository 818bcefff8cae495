// The native plugin's process: serve the ResourceProvider protocol until the engine goes away.
// bin/pulumi-resource-assetdelivery checks the Node version before loading this.
import { beforeEngineShutdown, guardProviderProcess } from "../engine/engine-guard";
import { NativeProvider } from "./provider";
import { serve } from "./server";

/**
 * The package's version: the plugin's and the schema's too (one number). A `require` of the
 * manifest, not a read of the file beside the code, so that the bundle of the single executable
 * (tools/bundle-plugin.mjs), which has no files beside it, carries it.
 */
export function packageVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: a bundler inlines it
  const manifest = require("../../package.json") as { version: string };
  return manifest.version;
}

export async function main(): Promise<void> {
  // Ends this process once its engine is gone, whatever killed it (engine/engine-guard.ts).
  guardProviderProcess();
  const provider = new NativeProvider();
  // The preview's estimate of the time its writes take at the hourly limits (core/write-budget.ts).
  beforeEngineShutdown(() => provider.finalEstimate());
  const server = await serve(packageVersion(), provider);
  // The engine may also close the plugin's stdin (before its SIGINT): stop serving then.
  process.stdin.on("end", () => server.forceShutdown());
  process.stdin.resume();
}
