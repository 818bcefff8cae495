// The generated Node.js SDK as a program's dependency: `npm run build` compiles sdks/nodejs into
// sdks/nodejs/bin, the package as published; a program's node_modules/@asset-delivery/pulumi
// points at it, as `npm install <repo>/sdks/nodejs/bin` would make it.
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../support/pulumi";

export const NODE_SDK_BUILD = path.join(repoRoot(), "sdks", "nodejs", "bin");

/** Makes `@asset-delivery/pulumi` resolve from the program in `workDir` to the built SDK. */
export function installNodeSdk(workDir: string): void {
  if (!fs.existsSync(path.join(NODE_SDK_BUILD, "index.js"))) throw new Error(`${NODE_SDK_BUILD} is not built: run npm run build`);
  const scope = path.join(workDir, "node_modules", "@asset-delivery");
  fs.mkdirSync(scope, { recursive: true });
  fs.symlinkSync(NODE_SDK_BUILD, path.join(scope, "pulumi"), "dir");
}
