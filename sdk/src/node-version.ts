// The Node.js check every entry point runs before it loads anything else (the `asset-delivery`
// command, the server, the provider's runtime, the plugin). Under Node 20, better-sqlite3 13 dies
// with a segmentation fault instead of an error, so the check must come before the first module
// that loads native code. This module requires nothing, so a bin can load it first; it is exported
// alone as `@asset-delivery/sdk/node-version` so that loading it does not load the whole sdk.

/** The oldest major release of Node.js these packages run on (the `engines` field of every package.json). */
export const MINIMUM_NODE_MAJOR = 22;

/** Why this Node cannot run `program`, or undefined when it can; `version` is a `process.versions.node`. */
export function unsupportedNodeMessage(program: string, version: string = process.versions.node): string | undefined {
  const major = Number(version.split(".")[0]);
  if (Number.isInteger(major) && major >= MINIMUM_NODE_MAJOR) return undefined;
  return (
    `${program} needs Node.js ${MINIMUM_NODE_MAJOR} or newer, but this is Node.js v${version} (${process.execPath}).\n` +
    `Get Node.js ${MINIMUM_NODE_MAJOR} or newer from https://nodejs.org, or in a clone of asset-delivery-as-code run ` +
    "`bash tools/install-node.sh` and then `source tools/node-env.sh` (Node 24 into .tools/node, from the npm registry)."
  );
}

/** Thrown by `assertSupportedNode` (libraries: the caller decides how to end). */
export class UnsupportedNodeError extends Error {
  override name = "UnsupportedNodeError";
}

/** For a library's entry module: throws `UnsupportedNodeError` on an older Node.js. */
export function assertSupportedNode(program: string): void {
  const message = unsupportedNodeMessage(program);
  if (message !== undefined) throw new UnsupportedNodeError(message);
}

/** For a command's bin: prints why and exits with code 1 on an older Node.js. */
export function exitUnlessSupportedNode(program: string): void {
  const message = unsupportedNodeMessage(program);
  if (message === undefined) return;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
