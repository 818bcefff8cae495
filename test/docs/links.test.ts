// Every relative link of the README, the docs/ pages and the packages' READMEs leads somewhere: the
// file or folder exists, and a `#fragment` names a heading of the target page (GitHub's anchors).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ORDER_HINT, RENAME_HINT } from "../../provider/src/engine/rename-hint";
import { REPOSITORY } from "../../provider/src/repository";

const ROOT = path.resolve(__dirname, "..", "..");
const PAGES = [
  "README.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
  ...["sdk", "server", "provider", "cli"].map((part) => `${part}/README.md`).filter((page) => fs.existsSync(path.join(ROOT, page))),
];

/** The text outside fenced code blocks and code spans, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "``");
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens; a repeat gets -1, -2, ... */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The links of `page` (a path under `root`) that lead nowhere. */
function brokenLinks(page: string, root = ROOT): string[] {
  const text = fs.readFileSync(path.join(root, page), "utf8");
  const broken: string[] = [];
  for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
    const [file, fragment] = target!.split("#") as [string, string | undefined];
    const resolved = file === "" ? path.join(root, page) : path.resolve(path.dirname(path.join(root, page)), decodeURI(file));
    if (!fs.existsSync(resolved)) {
      broken.push(`${page}: ${target} (no ${path.relative(root, resolved)})`);
      continue;
    }
    if (fragment !== undefined && !anchorsOf(fs.readFileSync(resolved, "utf8")).has(fragment)) {
      broken.push(`${page}: ${target} (no heading #${fragment} in ${path.relative(root, resolved)})`);
    }
  }
  return broken;
}

describe("documentation links", () => {
  it("anchors are GitHub's", () => {
    const anchors = anchorsOf("# The local server (`@asset-delivery/server`, `asset-delivery serve`)\n## Rate limits\n## Rate limits\n");
    expect([...anchors]).toEqual(["the-local-server-asset-deliveryserver-asset-delivery-serve", "rate-limits", "rate-limits-1"]);
  });

  it("finds a broken link", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-links-"));
    try {
      fs.mkdirSync(path.join(root, "docs"));
      fs.writeFileSync(path.join(root, "README.md"), "# Title\n\n## Quick start\n");
      const links = "[gone](nowhere.md) [no anchor](../README.md#no-such-heading) [fine](../README.md#quick-start) `[code](x.md)`";
      fs.writeFileSync(path.join(root, "docs", "page.md"), `${links}\n\n\`\`\`\n[in a block](y.md)\n\`\`\`\n`);
      expect(brokenLinks("docs/page.md", root)).toEqual([
        "docs/page.md: nowhere.md (no docs/nowhere.md)",
        "docs/page.md: ../README.md#no-such-heading (no heading #no-such-heading in README.md)",
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it.each(PAGES)("%s links only to files and headings that exist", (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it("the README stays short, and links every page of docs/", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme.split("\n").length).toBeLessThanOrEqual(200);
    for (const page of PAGES.filter((p) => p.startsWith("docs/"))) expect(readme).toContain(`](${page})`);
  });

  it("the provider's messages that cite the docs name the page online, at a heading it has (the packages ship no docs)", () => {
    for (const message of [RENAME_HINT, ORDER_HINT]) {
      expect(message).not.toMatch(/docs\/[a-z-]+\.md(?!#)/);
      const [, page, anchor] = /\/blob\/main\/(docs\/[a-z-]+\.md)#([a-z0-9-]+)/.exec(message) ?? [];
      expect(message).toContain(`${REPOSITORY}/blob/main/${page}#${anchor}`);
      expect([...anchorsOf(fs.readFileSync(path.join(ROOT, page!), "utf8"))]).toContain(anchor);
    }
  });
});
