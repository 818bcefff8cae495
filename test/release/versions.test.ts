// One version everywhere (tools/set-version.sh sets it): the five npm packages and their pins of one
// another, the policy pack, the sdk's User-Agent, and what the generated SDKs record for the plugin
// (name, version, and where Pulumi downloads it: the schema's pluginDownloadURL).
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_USER_AGENT } from "../../sdk/src/client/options";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/src/plugin/schema";
import { repoRoot } from "../support/pulumi";

const root = repoRoot();
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as Record<string, any>;
const VERSION = json("provider/package.json").version as string;

describe("the release version", () => {
  it("is every package's, and every pin of one of ours names it", () => {
    for (const dir of ["sdk", "server", "provider", "cli", "policy", "policy/pack"]) {
      const manifest = json(`${dir}/package.json`);
      expect(manifest.version, `${dir}/package.json`).toBe(VERSION);
      for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
        for (const [name, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
          if (name.startsWith("@asset-delivery/")) expect(range, `${dir}/package.json ${field} ${name}`).toBe(VERSION);
        }
      }
    }
    expect(DEFAULT_USER_AGENT).toBe(`asset-delivery-sdk/${VERSION}`);
  });

  it("is what each generated SDK records for its plugin, with the schema's pluginDownloadURL", () => {
    expect(PLUGIN_DOWNLOAD_URL).toBe("github://api.github.com/asset-delivery/asset-delivery-as-code");
    const plugin = { resource: true, name: "assetdelivery", version: VERSION, server: PLUGIN_DOWNLOAD_URL };
    expect(json("sdks/nodejs/package.json")).toMatchObject({ version: VERSION, pulumi: plugin });
    expect(json("sdks/python/pulumi_assetdelivery/pulumi-plugin.json")).toEqual(plugin);
    expect(json("sdks/go/assetdelivery/pulumi-plugin.json")).toEqual(plugin);
    expect(fs.readFileSync(path.join(root, "sdks/python/pyproject.toml"), "utf8")).toContain(`version = "${VERSION}"`);
    const javaResources = "sdks/java/src/main/resources/com/github/assetdelivery/assetdelivery";
    expect(json(`${javaResources}/plugin.json`)).toEqual(plugin);
    expect(fs.readFileSync(path.join(root, javaResources, "version.txt"), "utf8")).toBe(VERSION);
    // The Java SDK's own coordinates, and examples/java's dependency on it.
    const sdkPom = fs.readFileSync(path.join(root, "sdks/java/pom.xml"), "utf8");
    expect(sdkPom).toContain(`<artifactId>assetdelivery</artifactId>\n  <version>${VERSION}</version>`);
    const examplePom = fs.readFileSync(path.join(root, "examples/java/pom.xml"), "utf8");
    expect(examplePom).toContain(`<artifactId>assetdelivery</artifactId>\n      <version>${VERSION}</version>`);
  });
});
