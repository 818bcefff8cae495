// The rule the packages' `exports` maps enforce at run time, checked on the files themselves: a
// module of one @asset-delivery package requires another (or itself, by name) only through a path
// that package exports. Node refuses the rest when it runs them; this finds them without running.
import * as fs from "node:fs";
import * as path from "node:path";

const SPECIFIER = /\b(?:require|import)\(\s*["'](@asset-delivery\/[\w-]+)(\/[^"']*)?["']\s*\)/g;

/** The folders of the packages by name (`@asset-delivery/provider` → its folder with package.json). */
export type PackageFolders = Readonly<Record<string, string>>;

/** Each `file: specifier` whose subpath is not in the named package's `exports` (or names a package not given). */
export function unexportedRequires(packages: PackageFolders): string[] {
  const exported = new Map(Object.entries(packages).map(([name, dir]) => [name, exportedSubpaths(dir)] as const));
  const found: string[] = [];
  for (const dir of Object.values(packages)) {
    for (const file of javascriptFiles(dir)) {
      for (const [, name, rest] of fs.readFileSync(file, "utf8").matchAll(SPECIFIER)) {
        const subpath = rest === undefined ? "." : `.${rest}`;
        if (!exported.get(name!)?.has(subpath)) found.push(`${path.relative(dir, file)}: ${name}${rest ?? ""}`);
      }
    }
  }
  return found;
}

/** The keys of a package's `exports` map (none of ours uses patterns or conditions on the keys). */
export function exportedSubpaths(dir: string): Set<string> {
  const { exports } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { exports?: Record<string, unknown> };
  if (exports === undefined) throw new Error(`${dir}/package.json declares no exports`);
  return new Set(Object.keys(exports));
}

function javascriptFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(c|m)?js$/.test(file) && !file.split(path.sep).includes("node_modules"))
    .map((file) => path.join(dir, file));
}
