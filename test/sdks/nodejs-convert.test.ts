// `pulumi convert --language typescript` through our Node.js language host (GenerateProject, then
// Link): a PCL program on the native plugin becomes a TypeScript project on `@asset-delivery/pulumi`.
// No server: the plugin only serves its schema.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pulumiEnv, pulumiWorkDir } from "../support/pulumi";
import { PLUGIN_BIN_DIR, runCli } from "../plugin/yaml-stack";

const workDir = pulumiWorkDir("nodejs-convert-");
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

const PCL = `resource photos "assetdelivery:index:Source" {
  name = "Photos"
  deployment = {
    type = "webproxy"
    serviceSubdomains = ["photos"]
    cacheTtlValue = 7200
  }
}

output status {
  value = photos.deploymentStatus
}
`;

describe("pulumi convert --language typescript", () => {
  it(
    "writes a TypeScript project declaring the Source on the generated SDK",
    async () => {
      const source = path.join(workDir, "pcl");
      const out = path.join(workDir, "ts");
      fs.mkdirSync(source);
      fs.writeFileSync(path.join(source, "main.pp"), PCL);
      const env = { ...pulumiEnv({ stateDir: path.join(workDir, ".state") }), PATH: `${PLUGIN_BIN_DIR}${path.delimiter}${pulumiEnv().PATH}` };
      const result = await runCli(["convert", "--from", "pcl", "--language", "typescript", "--out", out, "--generate-only"], source, env);
      expect(result.code, result.stdout + result.stderr).toBe(0);

      const program = fs.readFileSync(path.join(out, "index.ts"), "utf8");
      expect(program).toContain('import * as assetdelivery from "@asset-delivery/pulumi";');
      expect(program).toMatch(/new assetdelivery\.Source\("photos", \{\s+name: "Photos",\s+deployment: \{\s+type: "webproxy",/);
      expect(program).toContain("cacheTtlValue: 7200");
      expect(program).toContain("export const status = photos.deploymentStatus;");
      const manifest = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      expect(manifest.dependencies["@asset-delivery/pulumi"]).toBe(
        (JSON.parse(fs.readFileSync(path.join(PLUGIN_BIN_DIR, "..", "package.json"), "utf8")) as { version: string }).version,
      );
      expect(fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toContain("runtime: nodejs");
    },
    120_000,
  );
});
