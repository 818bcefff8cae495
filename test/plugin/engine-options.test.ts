// The options and flags Pulumi drives a Source with, on the native plugin from a Pulumi YAML
// program (engine-options-suite.ts has the steps).
import { engineOptionsSuite, type Declared } from "../provider/e2e/engine-options-suite";
import { yamlStack, type YamlProgram } from "./yaml-stack";

function program(sources: Record<string, Declared>, urnOf: (name: string) => string): YamlProgram {
  const config: Record<string, unknown> = {};
  const resources: Record<string, unknown> = {};
  for (const [name, { args, secrets = {}, options = {} }] of Object.entries(sources)) {
    for (const key of Object.values(secrets)) config[key] = { type: "string", secret: true };
    const deployment = { ...args.deployment, ...Object.fromEntries(Object.entries(secrets).map(([field, key]) => [field, `\${${key}}`])) };
    const { dependsOn, aliases, ...rest } = options;
    // Pulumi YAML takes an alias as a URN only.
    const yamlOptions = {
      ...rest,
      ...(dependsOn && { dependsOn: dependsOn.map((other) => `\${${other}}`) }),
      ...(aliases && { aliases: aliases.map(urnOf) }),
    };
    resources[name] = {
      type: "assetdelivery:index:Source",
      properties: { ...args, deployment },
      ...(Object.keys(yamlOptions).length > 0 && { options: yamlOptions }),
    };
  }
  return { config, resources };
}

engineOptionsSuite({
  label: "native plugin, YAML",
  type: "assetdelivery:index:Source",
  createStack: (project, credentials) => yamlStack(project, "e2e", {}, { credentials }),
  write: (stack, sources, urnOf) => stack.write(program(sources, urnOf)),
  native: true,
});
