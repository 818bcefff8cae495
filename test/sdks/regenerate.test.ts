// The SDKs in sdks/ are what Pulumi's generators make of the plugin's schema as it is now: each
// committed language folder is regenerated (tools/generate-sdks.sh --out, the real CLI and language
// hosts) into a scratch folder and compared file by file. A schema change without a regeneration, or
// a generated file edited by hand, fails here with the file named.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";

const root = repoRoot();
const SDKS = path.join(root, "sdks");
const LANGUAGES = ["nodejs", "python", "go", "java"] as const;
const committed = LANGUAGES.filter((lang) => fs.existsSync(path.join(SDKS, lang)));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "regenerate-sdks-"));

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The folder's files that git keeps (tracked, or new and not ignored: never a build's output), by relative path. */
function keptFiles(dir: string): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", dir], { cwd: root, encoding: "utf8" });
  return out
    .split("\0")
    .filter((file) => file !== "" && fs.existsSync(path.join(root, file))) // a tracked file deleted in the working tree is a difference too
    .map((file) => path.relative(dir, path.join(root, file)))
    .sort();
}

function allFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => fs.statSync(path.join(dir, file)).isFile())
    .sort();
}

describe("generated SDKs", () => {
  it("sdks/ holds at least the Node.js SDK, at the provider's version", () => {
    expect(committed).toContain("nodejs");
    const version = (file: string) => (JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as { version: string }).version;
    expect(version("sdks/nodejs/package.json")).toBe(version("provider/package.json"));
  });

  it(
    `regenerating ${committed.join(", ")} from the schema gives exactly what is committed`,
    () => {
      execFileSync("bash", [path.join(root, "tools", "generate-sdks.sh"), "--out", scratch, ...committed], {
        cwd: root,
        stdio: ["ignore", "inherit", "inherit"],
        timeout: 240_000,
      });
      for (const lang of committed) {
        const have = path.join(SDKS, lang);
        const fresh = path.join(scratch, lang);
        const expected = allFiles(fresh);
        expect(keptFiles(have), `the files of sdks/${lang} (run: bash tools/generate-sdks.sh ${lang})`).toEqual(expected);
        for (const file of expected) {
          const differs = !fs.readFileSync(path.join(have, file)).equals(fs.readFileSync(path.join(fresh, file)));
          expect(differs, `sdks/${lang}/${file} differs from what the schema generates (run: bash tools/generate-sdks.sh ${lang})`).toBe(
            false,
          );
        }
      }
    },
    300_000,
  );
});
