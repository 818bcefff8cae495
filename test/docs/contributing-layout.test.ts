// docs/contributing.md's "How the parts fit" table lists the folders that exist: every folder it
// names is there, and every top-level folder, and every folder of provider/src/ and server/src/,
// is named in it. A folder named in a row's "holds" cell is written from the repository's root
// (`provider/src/core/`), from its part (`src/commands/`) or from its part's src/ (`accounts/`).
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");

interface Row {
  parts: string[];
  folders: string[];
}

function rows(): Row[] {
  const text = fs.readFileSync(path.join(ROOT, "docs", "contributing.md"), "utf8");
  const section = text.slice(text.indexOf("## How the parts fit"), text.indexOf("\n## ", text.indexOf("## How the parts fit") + 1));
  const folders = (cell: string) => [...cell.matchAll(/`([^`\s]+\/)`/g)].map((match) => match[1]!);
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, parts = "", , holds = ""] = line.split("|");
      return { parts: folders(parts), folders: folders(holds) };
    });
}

/** The folders of the repository inside `folder` (tracked by git: a local build's output, which git ignores, is not one). */
const directories = (folder: string) => {
  const tracked = execFileSync("git", ["ls-files", "--", folder], { cwd: ROOT, encoding: "utf8" }).split("\n");
  const prefix = folder === "." ? "" : folder;
  const folders = tracked.filter((file) => file.startsWith(prefix) && file.slice(prefix.length).includes("/"));
  return [...new Set(folders.map((file) => `${file.slice(prefix.length).split("/")[0]}/`))].filter((name) => !name.startsWith("."));
};

/** Where a folder named in a row is: from the root when it starts with a top-level folder, from the part (`src/...`), else under the part's src/. */
function located(row: Row, folder: string): string {
  if (directories(".").some((top) => folder.startsWith(top))) return folder;
  return folder.startsWith("src/") ? `${row.parts[0]}${folder}` : `${row.parts[0]}src/${folder}`;
}

describe("docs/contributing.md's layout", () => {
  it("names only folders that exist", () => {
    const missing = rows().flatMap((row) =>
      [...row.parts, ...row.folders.map((folder) => located(row, folder))].filter((folder) => !fs.existsSync(path.join(ROOT, folder))),
    );
    expect(missing).toEqual([]);
  });

  it("names every top-level folder as a part, and every folder of provider/src/ and server/src/", () => {
    const named = new Set(rows().flatMap((row) => [...row.parts, ...row.folders.map((folder) => located(row, folder))]));
    const expected = [
      ...directories("."),
      ...["provider/src/", "server/src/"].flatMap((src) => directories(src).map((dir) => `${src}${dir}`)),
    ];
    expect(expected.filter((folder) => !named.has(folder))).toEqual([]);
  });
});
