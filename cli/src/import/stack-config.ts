// Writing the declarations into the stack's configuration file, Pulumi.<stack>.yaml, under
// <project>:sources. Edited as a YAML document (comments and every other value kept as written),
// not through `pulumi config set-all --json`: that takes the whole value as one command-line
// argument, and the declarations of a large account pass the kernel's 128 KiB limit per argument
// (about 500 Sources). The same limit caps what a stack can declare there at all (configSizeProblem).
import * as fs from "node:fs";
import * as path from "node:path";
import { Document, isMap, parseDocument } from "yaml";

/** The stack's configuration file: `Pulumi.<stack>.yaml`, in the project's stackConfigDir if it names one. */
export function stackConfigFile(workDir: string, stack: string, stackConfigDir: string | undefined): string {
  // A fully qualified stack name (org/project/stack) has its file named after the stack alone.
  return path.join(workDir, stackConfigDir ?? "", `Pulumi.${stack.split("/").pop()}.yaml`);
}

/** Adds `entries` (name → Source arguments) to the map at config.<key>, creating the file, section or key as needed. */
export function addDeclarations(file: string, key: string, entries: Record<string, unknown>): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const document: Document = text.trim() === "" ? new Document({}) : parseDocument(text);
  if (document.errors.length > 0) throw new Error(`${file} is not valid YAML: ${document.errors[0]!.message}`);
  const section = document.getIn(["config", key]);
  if (section !== undefined && !isMap(section)) throw new Error(`${file}: config.${key} is not a map of name → Source arguments`);
  for (const [name, args] of Object.entries(entries)) document.setIn(["config", key, name], document.createNode(args));
  fs.writeFileSync(file, document.toString());
}

// Pulumi hands a Node.js program its whole configuration as JSON in one environment variable
// (PULUMI_CONFIG), and the kernel refuses to start a process with a variable over 128 KiB
// ("argument list too long"): about 500 Sources' declarations. Kept a little under, for the rest.
const MAX_CONFIG_BYTES = 120 * 1024;

/** The size of the configuration Pulumi hands a program (full key → value as it reads it), when over what it can hand over; else undefined. */
export function configBytesOverLimit(config: Record<string, string>): number | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(config));
  return bytes <= MAX_CONFIG_BYTES ? undefined : bytes;
}

/** Why `what` would make the stack's configuration (`config` once written) too large to run its program, or undefined when it fits. */
export function configSizeProblem(config: Record<string, string>, what: string, advice: string): string | undefined {
  const bytes = configBytesOverLimit(config);
  if (bytes === undefined) return undefined;
  return (
    `${what} would make the stack's configuration ${Math.ceil(bytes / 1024)} KiB, and Pulumi ` +
    `cannot start a Node.js program whose configuration passes ${MAX_CONFIG_BYTES / 1024} KiB (it is handed over in one environment variable): ` +
    advice
  );
}
