// `--accept`'s edit of the stack's configuration file, alone: the live values written at their
// paths, every other value and comment kept, in either form Pulumi.<stack>.yaml holds declarations.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acceptIntoConfig } from "../../cli/src/drift/accept";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "accept-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function configFile(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(folder, "stack-")), "Pulumi.dev.yaml");
  fs.writeFileSync(file, text);
  return file;
}

const accepted = [
  {
    name: "docs",
    fields: [
      { path: ["enabled"], live: false },
      { path: ["deployment", "defaultParams", "w"], live: 800 },
      { path: ["deployment", "cacheTtlError"], live: undefined },
    ],
  },
];

describe("acceptIntoConfig", () => {
  it("writes into a YAML map of declarations (as import writes it), keeping comments and other values", () => {
    const file = configFile(
      [
        "config:",
        "  assetdelivery:baseUrl: https://api.example.com",
        "  site:sources:",
        "    # the docs site",
        "    docs:",
        "      name: Docs",
        "      deployment:",
        "        type: webproxy",
        "        cacheTtlError: 300",
        "    other:",
        "      name: Other",
        "",
      ].join("\n"),
    );
    acceptIntoConfig(file, "site:sources", accepted);
    expect(fs.readFileSync(file, "utf8").split("\n")).toEqual([
      "config:",
      "  assetdelivery:baseUrl: https://api.example.com",
      "  site:sources:",
      "    # the docs site",
      "    docs:",
      "      name: Docs",
      "      deployment:",
      "        type: webproxy",
      "        defaultParams:",
      "          w: 800",
      "      enabled: false",
      "    other:",
      "      name: Other",
      "",
    ]);
  });

  it("writes into a JSON string (as pulumi config set stores an object)", () => {
    const declarations = { docs: { name: "Docs", deployment: { type: "webproxy", cacheTtlError: 300 } } };
    const file = configFile(`config:\n  site:sources: '${JSON.stringify(declarations)}'\n`);
    acceptIntoConfig(file, "site:sources", accepted);
    const value = (fs.readFileSync(file, "utf8").match(/site:sources: '(.*)'/) ?? [])[1]!;
    expect(JSON.parse(value)).toEqual({
      docs: { name: "Docs", deployment: { type: "webproxy", defaultParams: { w: 800 } }, enabled: false },
    });
  });

  it("refuses a name the configuration does not declare, writing nothing", () => {
    const text = "config:\n  site:sources:\n    other:\n      name: Other\n";
    const file = configFile(text);
    expect(() => acceptIntoConfig(file, "site:sources", accepted)).toThrow(`docs is not declared in site:sources of ${file}`);
    expect(fs.readFileSync(file, "utf8")).toBe(text);
  });
});
