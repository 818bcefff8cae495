// The options and flags Pulumi drives a Source with, on the dynamic `Source` from a TypeScript
// program (engine-options-suite.ts has the steps).
import * as fs from "node:fs";
import * as path from "node:path";
import { yamlStack } from "../../plugin/yaml-stack";
import { engineOptionsSuite, type Declared } from "./engine-options-suite";

/** index.ts declaring `sources` in order, each `dependsOn` naming a Source declared before it. */
function program(sources: Record<string, Declared>): string {
  const statements = Object.entries(sources).map(([name, { args, secrets = {}, options = {} }]) => {
    const reads = Object.entries(secrets).map(([field, key]) => `, ${field}: settings.requireSecret(${JSON.stringify(key)})`);
    const deployment = `{ ...${JSON.stringify(args.deployment)}${reads.join("")} }`;
    const { dependsOn = [], aliases, ...rest } = options;
    const after = dependsOn.map((other) => `sources[${JSON.stringify(other)}]`).join(", ");
    if (aliases) Object.assign(rest, { aliases: aliases.map((name) => ({ name })) });
    return `sources[${JSON.stringify(name)}] = new Source(${JSON.stringify(name)}, { ...${JSON.stringify(args)}, deployment: ${deployment} }, { ...${JSON.stringify(rest)}, dependsOn: [${after}] });`;
  });
  return [
    'import * as pulumi from "@pulumi/pulumi";',
    'import { Source } from "@asset-delivery/provider";',
    "",
    "const settings = new pulumi.Config();",
    "const sources: Record<string, Source> = {};",
    ...statements,
    "",
  ].join("\n");
}

engineOptionsSuite({
  label: "dynamic Source, TypeScript",
  type: "pulumi-nodejs:dynamic/assetdelivery:Source",
  createStack: (project, credentials) =>
    // Type checking is `tsc -p test`'s job for the repo's programs; this one is only transpiled.
    yamlStack(project, "e2e", {}, { runtime: "nodejs", credentials, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } }),
  write: (stack, sources) => fs.writeFileSync(path.join(stack.workDir, "index.ts"), program(sources)),
  native: false,
});
