// The native plugin's process: serve the ResourceProvider protocol until the engine goes away.
// bin/pulumi-resource-assetdelivery checks the Node version before loading this.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { guardProviderProcess } from "../core/engine-guard";
import { serve } from "./server";

/** The package's version: the plugin's and the schema's too (one number). */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
  return manifest.version;
}

export async function main(): Promise<void> {
  // Ends this process once its engine is gone, whatever killed it (core/engine-guard.ts).
  guardProviderProcess();
  const server = await serve(packageVersion());
  // The engine ends a plugin by closing its stdin or killing it: either way, stop serving.
  process.stdin.on("end", () => server.forceShutdown());
  process.stdin.resume();
}
