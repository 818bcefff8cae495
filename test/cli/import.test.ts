// The parts of `asset-delivery import` that need no server: filters as the API has them, checked
// before any request; resource names that are unique and stable; the TypeScript module and the
// stack configuration it writes.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseFilters } from "../../cli/src/sources/filters";
import { baseName, uniqueName } from "../../cli/src/import/names";
import { renderModule } from "../../cli/src/import";
import { addDeclarations, configSizeProblem, stackConfigFile } from "../../cli/src/import/stack-config";
import { declarationOf } from "@asset-delivery/provider";
import { sourceResource } from "../support/api-documents";

describe("--filter", () => {
  it("reads plain and or: filters, booleans and exact values as the API has them", () => {
    expect(parseFilters(["deployment.type=s3", "enabled=false", "or:name=shop", "or:name=blog"].slice(0, 3))).toEqual({
      filter: { "deployment.type": "s3", enabled: false },
      or: { name: "shop" },
    });
    expect(parseFilters([])).toEqual({});
  });

  it("refuses what the API would ignore or reject, naming the filter and the rule", () => {
    expect(() => parseFilters(["nmae=shop"])).toThrow(/"nmae" is not a Source filter; filter by .*deployment\.type/);
    expect(() => parseFilters(["deployment.type=s4"])).toThrow(
      '--filter "deployment.type=s4": must be one of azure, gcs, s3, webfolder, webproxy, s3_compatible',
    );
    expect(() => parseFilters(["enabled=yes"])).toThrow("must be true or false");
    expect(() => parseFilters(["name"])).toThrow("must be FIELD=VALUE or or:FIELD=VALUE");
    expect(() => parseFilters(["or:name=a", "or:name=b"])).toThrow("or:name is given twice");
  });
});

describe("resource names", () => {
  it("derive from the Source's name and stay unique against every name in use", () => {
    expect(baseName("Shop images (EU) — Ünïcode")).toBe("shop-images-eu-unicode");
    expect(baseName("2024 campaign")).toBe("source-2024-campaign");
    expect(baseName("***")).toBe("source");
    const taken = new Set(["shop", "shop-2"]);
    expect(["shop", "shop", "blog"].map((name) => uniqueName(baseName(name), taken))).toEqual(["shop-3", "shop-4", "blog"]);
  });
});

describe("the TypeScript module", () => {
  it("declares one new Source per Source, adopting it by id, and notes the secrets it holds", () => {
    const source = sourceResource({
      name: "Shop",
      deployment: {
        type: "webfolder",
        service_subdomains: ["shop"],
        webfolder_base_url: "https://o.example.com/",
        default_params: { "txt-font": "x" },
      },
    });
    (source.attributes.deployment as Record<string, unknown>).password_set = true;
    const text = renderModule([{ name: "shop", declaration: declarationOf(source), type: "webfolder" }], "dev", true);
    expect(text).toContain('import { Source } from "@asset-delivery/provider";');
    expect(text).toContain(`// Source ${source.id} (webfolder). Holds write-only password (kept as stored unless declared).`);
    expect(text).toContain(
      [
        'new Source("shop", {',
        '  name: "Shop",',
        "  deployment: {",
        '    type: "webfolder",',
        '    serviceSubdomains: ["shop"],',
        "    defaultParams: {",
        '      "txt-font": "x",',
        "    },",
        '    webfolderBaseUrl: "https://o.example.com/",',
        "  },",
        `  adoptSourceId: "${source.id}",`,
        "});",
      ].join("\n"),
    );
    expect(renderModule([{ name: "shop", declaration: declarationOf(source), type: "webfolder" }], "dev", false)).not.toContain("import");
  });
});

describe("the stack's configuration file", () => {
  it("gains the declarations under <project>:sources, keeping comments, other values and earlier declarations", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-import-"));
    try {
      const file = stackConfigFile(dir, "org/proj/dev", undefined);
      expect(file).toBe(path.join(dir, "Pulumi.dev.yaml"));
      fs.writeFileSync(
        file,
        "# team settings\nencryptionsalt: v1:abc\nconfig:\n  shop:region: eu # keep me\n  shop:sources:\n    old:\n      name: Old\n",
      );
      addDeclarations(file, "shop:sources", {
        fresh: {
          name: "2024",
          deployment: { type: "webproxy", serviceSubdomains: ["f"], cacheTtlError: 60 },
          adoptSourceId: "a".repeat(24),
        },
      });
      const text = fs.readFileSync(file, "utf8");
      expect(text).toContain("# team settings");
      expect(text).toContain("shop:region: eu # keep me");
      expect(parse(text)).toEqual({
        encryptionsalt: "v1:abc",
        config: {
          "shop:region": "eu",
          "shop:sources": {
            old: { name: "Old" },
            fresh: {
              name: "2024",
              deployment: { type: "webproxy", serviceSubdomains: ["f"], cacheTtlError: 60 },
              adoptSourceId: "a".repeat(24),
            },
          },
        },
      });
      const empty = path.join(dir, "Pulumi.new.yaml");
      addDeclarations(empty, "shop:sources", { a: { name: "A" } });
      expect(parse(fs.readFileSync(empty, "utf8"))).toEqual({ config: { "shop:sources": { a: { name: "A" } } } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file that is not YAML, or a key that is not a map, and changes nothing", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-import-"));
    try {
      const file = path.join(dir, "Pulumi.dev.yaml");
      fs.writeFileSync(file, "config:\n  shop:sources: [1, 2]\n");
      expect(() => addDeclarations(file, "shop:sources", { a: { name: "A" } })).toThrow(
        "config.shop:sources is not a map of name → Source arguments",
      );
      expect(fs.readFileSync(file, "utf8")).toBe("config:\n  shop:sources: [1, 2]\n");
      fs.writeFileSync(file, "config: [\n");
      expect(() => addDeclarations(file, "shop:sources", { a: { name: "A" } })).toThrow("is not valid YAML");
      expect(fs.readFileSync(file, "utf8")).toBe("config: [\n");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the size of the stack's configuration", () => {
  it("refuses declarations that Pulumi could not hand to the program (128 KiB in one environment variable)", () => {
    const declarations = (count: number) =>
      Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `s${i}`,
          { name: `Source ${i}`, deployment: { type: "webproxy", serviceSubdomains: [`s-${i}`] }, adoptSourceId: "a".repeat(24) },
        ]),
      );
    const problem = (n: number) =>
      configSizeProblem(
        { "p:region": "eu", "p:sources": JSON.stringify(declarations(n)) },
        `${n} Sources' declarations`,
        "import them as code with --format typescript --out FILE",
      );
    expect(problem(100)).toBeUndefined();
    expect(problem(1000)).toMatch(
      /^1000 Sources' declarations would make the stack's configuration \d+ KiB, and Pulumi cannot start a Node\.js program whose configuration passes 120 KiB .*--format typescript --out FILE/,
    );
  });
});
