// `asset-delivery drift` on a Python stack of native Sources on the generated SDK
// (pulumi_assetdelivery), through this repo's Python language host (native-drift-suite.ts).
import { installPythonVenv, pythonStack, type PythonStack } from "../sdks/python-project";
import { nativeDriftSuite, type Declaration } from "./native-drift-suite";

const IMPORTS = ["import pulumi", "import pulumi_assetdelivery as assetdelivery"];

/** A JSON value as a Python literal. */
function python(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return `[${value.map(python).join(", ")}]`;
  if (typeof value === "object")
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${python(item)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

const snake = (camel: string) => camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function program(sources: Record<string, Declaration>, replaced?: { name: string; code: string }): string {
  const statements = Object.entries(sources)
    .filter(([name]) => name !== replaced?.name)
    .map(([name, { args, secrets = {} }]) => {
      const { type, ...fields } = args.deployment as { type: string };
      const kwargs = [
        `type=${python(type)}`,
        ...Object.entries(fields).map(([field, value]) => `${snake(field)}=${python(value)}`),
        ...Object.entries(secrets).map(([field, key]) => `${snake(field)}=settings.require_secret(${JSON.stringify(key)})`),
      ];
      const argsClass = `${type.charAt(0).toUpperCase()}${type.slice(1)}DeploymentArgs`;
      return `${name} = assetdelivery.Source(${JSON.stringify(name)}, name=${python(args.name)}, deployment=assetdelivery.${argsClass}(${kwargs.join(", ")}))`;
    });
  const generated = replaced ? replaced.code.split("\n").filter((line) => !IMPORTS.includes(line.trim())) : [];
  return [...IMPORTS, "", "settings = pulumi.Config()", ...statements, ...generated, ""].join("\n");
}

nativeDriftSuite({
  runtime: "python",
  passesSecrets: true,
  async createStack(name, credentials) {
    installPythonVenv();
    return pythonStack(name, "e2e", program({}), credentials);
  },
  write: (stack, sources, replaced) => (stack as PythonStack).writeMain(program(sources, replaced)),
});
