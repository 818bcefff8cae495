// `asset-delivery drift` on a Pulumi YAML stack of native Sources (native-drift-suite.ts).
import { parse } from "yaml";
import { yamlStack, type YamlProgram } from "../plugin/yaml-stack";
import { nativeDriftSuite, type Declaration } from "./native-drift-suite";

function program(sources: Record<string, Declaration>, replaced?: { name: string; code: string }): YamlProgram {
  const config: Record<string, unknown> = {};
  const resources: Record<string, unknown> = {};
  for (const [name, { args, secrets = {} }] of Object.entries(sources)) {
    for (const key of Object.values(secrets)) config[key] = { type: "string", secret: true };
    const deployment = { ...args.deployment, ...Object.fromEntries(Object.entries(secrets).map(([field, key]) => [field, `\${${key}}`])) };
    resources[name] = { type: "assetdelivery:index:Source", properties: { ...args, deployment } };
  }
  if (replaced) {
    const generated = parse(replaced.code) as { config?: Record<string, unknown>; resources: Record<string, unknown> };
    Object.assign(config, generated.config);
    resources[replaced.name] = generated.resources[replaced.name];
  }
  return { config, resources };
}

nativeDriftSuite({
  runtime: "yaml",
  passesSecrets: false,
  createStack: (name, credentials) => yamlStack(name, "e2e", {}, { credentials }),
  write: (stack, sources, replaced) => stack.write(program(sources, replaced)),
});
