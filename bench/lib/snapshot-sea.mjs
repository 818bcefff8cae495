// Experimental builds of the plugin's single executable for bench/plugin-startup.mjs to measure
// beside the shipped one (tools/package-plugin.sh): one with a V8 start-up snapshot (Node's SEA
// `useSnapshot`), one with no code cache. Not release builds: docs/contributing.md ("Tests,
// benchmarks and CI") says why the snapshot is not shipped.
//
// Node's snapshot builder cannot hold the whole plugin: it stops on the handles that `http`, `http2`,
// `tls` and `net` make when loaded (`global handle not serialized: HTTPParser`), and gRPC and undici
// load them. So the snapshot holds what can be held: every module of the bundle (tools/bundle-plugin.mjs)
// whose imports, followed to the end in esbuild's metafile, reach no built-in module but those in
// SNAPSHOT_BUILTINS (zod and the sdk's schemas, google-protobuf and Pulumi's generated messages,
// most of our provider); the process loads the rest (gRPC, undici, what imports them) at start, then
// runs the plugin's main as the bundle's entry does.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** Built-in modules a snapshot may hold loaded: no handle, no native state made at load. */
const SNAPSHOT_BUILTINS = new Set(
  [
    "buffer",
    "events",
    "fs",
    "os",
    "path",
    "process",
    "querystring",
    "stream",
    "string_decoder",
    "url",
    "util",
    "util/types",
    "assert",
  ].flatMap((name) => [name, `node:${name}`]),
);
SNAPSHOT_BUILTINS.add("<runtime>");

/** The bundle's modules (their metafile paths) that the snapshot can hold loaded. */
function snapshotSafe(metafile) {
  const inputs = metafile.inputs;
  const safe = new Map();
  const visit = (file, seen) => {
    if (safe.has(file)) return safe.get(file);
    if (seen.has(file)) return true; // a cycle: decided by its other imports
    seen.add(file);
    const ok = inputs[file].imports.every((i) => (i.external ? SNAPSHOT_BUILTINS.has(i.path) : visit(i.path, seen)));
    safe.set(file, ok);
    return ok;
  };
  for (const file of Object.keys(inputs)) visit(file, new Set());
  return new Set([...safe].filter(([, ok]) => ok).map(([file]) => file));
}

const ENTRY = `require_node_version().exitUnlessSupportedNode("pulumi-resource-assetdelivery");
require_main().main().catch(function(error) {`;

/**
 * `bundle` (tools/bundle-plugin.mjs's output, its metafile beside it) rewritten as a snapshot's main
 * script: the safe modules loaded while the snapshot is built, the rest and the plugin's main at start.
 */
export function snapshotEntry(bundle, metafile) {
  const safe = snapshotSafe(metafile);
  const loaders = [...bundle.matchAll(/var (require_\w+) = __commonJS\(\{\n {2}"([^"]+)"/g)]
    .filter(([, , file]) => safe.has(file))
    .map(([, loader]) => loader);
  const at = bundle.lastIndexOf(ENTRY);
  if (at < 0 || loaders.length === 0) throw new Error("snapshot-sea.mjs: the bundle's entry is not the shape this expects");
  const entry = bundle.slice(at).trimEnd();
  return {
    loaders: loaders.length,
    script: `${bundle.slice(0, at)}${loaders.map((l) => `${l}();`).join("\n")}
require("v8").startupSnapshot.setDeserializeMainFunction(() => {
${entry}
});
`,
  };
}

/**
 * A linux-x64 single executable of the plugin built in `dir` from the shipped one's bundle, with a
 * snapshot (`snapshot: true`) or with neither snapshot nor code cache (`snapshot: false`: what the
 * shipped one's code cache is worth). `node` makes the blob (the Node the executable embeds: a
 * snapshot or a code cache is read only by the Node, and the platform, that made it); postject
 * injects it into a copy of `nodeBinary`.
 */
export function buildExperimentalSea({ root, dir, node, nodeBinary, snapshot }) {
  fs.mkdirSync(dir, { recursive: true });
  const bundle = path.join(dir, "plugin.js");
  execFileSync(node, [path.join(root, "tools", "bundle-plugin.mjs"), bundle], { stdio: "inherit" });
  let main = bundle;
  let loaders = 0;
  if (snapshot) {
    const entry = snapshotEntry(fs.readFileSync(bundle, "utf8"), JSON.parse(fs.readFileSync(path.join(dir, "plugin.meta.json"), "utf8")));
    main = path.join(dir, "snapshot-main.js");
    fs.writeFileSync(main, entry.script);
    loaders = entry.loaders;
  }
  const config = {
    main,
    output: path.join(dir, "sea.blob"),
    disableExperimentalSEAWarning: true,
    useSnapshot: snapshot,
    useCodeCache: false,
  };
  fs.writeFileSync(path.join(dir, "sea-config.json"), JSON.stringify(config));
  execFileSync(node, ["--experimental-sea-config", "sea-config.json"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  const exe = path.join(dir, "pulumi-resource-assetdelivery");
  fs.copyFileSync(nodeBinary, exe);
  fs.chmodSync(exe, 0o755);
  execFileSync(
    path.join(root, "node_modules", ".bin", "postject"),
    [exe, "NODE_SEA_BLOB", config.output, "--sentinel-fuse", "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2"],
    { stdio: "ignore" },
  );
  return { exe, loaders };
}
