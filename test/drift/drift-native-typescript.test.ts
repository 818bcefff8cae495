// `asset-delivery drift` on a TypeScript stack of native Sources on the generated SDK
// (@asset-delivery/pulumi), with a dynamic Source beside them: a stack halfway through the
// migration, read whole (native-drift-suite.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { installNodeSdk } from "../sdks/node-sdk";
import { yamlStack } from "../plugin/yaml-stack";
import { nativeDriftSuite, type Declaration } from "./native-drift-suite";

const IMPORTS = ['import * as pulumi from "@pulumi/pulumi";', 'import * as assetdelivery from "@asset-delivery/pulumi";'];

function program(sources: Record<string, Declaration>, replaced?: { name: string; code: string }): string {
  const statements = Object.entries(sources)
    .filter(([name]) => name !== replaced?.name)
    .map(([name, { args, secrets = {} }]) => {
      const reads = Object.entries(secrets).map(([field, key]) => `${field}: settings.requireSecret(${JSON.stringify(key)})`);
      const deployment = `{ ...${JSON.stringify(args.deployment)}${reads.map((read) => `, ${read}`).join("")} }`;
      return `new assetdelivery.Source(${JSON.stringify(name)}, { ...${JSON.stringify({ name: args.name })}, deployment: ${deployment} });`;
    });
  const generated = replaced ? replaced.code.split("\n").filter((line) => !IMPORTS.includes(line.trim())) : [];
  return [
    ...IMPORTS,
    'import { Source } from "@asset-delivery/provider";',
    "",
    "const settings = new pulumi.Config();",
    ...statements,
    "// A dynamic Source beside the native ones.",
    `new Source("mixed", { name: "Mixed", deployment: { type: "webproxy", serviceSubdomains: ["drift-mixed"] } });`,
    ...generated,
    "",
  ].join("\n");
}

nativeDriftSuite({
  runtime: "nodejs",
  passesSecrets: true,
  others: 1,
  async createStack(name, credentials) {
    // Type checking is test/sdks/typescript-native's; here the program is only transpiled.
    const stack = await yamlStack(name, "e2e", {}, { runtime: "nodejs", credentials, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } });
    installNodeSdk(stack.workDir);
    return stack;
  },
  write: (stack, sources, replaced) => fs.writeFileSync(path.join(stack.workDir, "index.ts"), program(sources, replaced)),
});
