// What drift review and import read from the stack, through the Automation API and the Pulumi CLI
// on PATH: the state (`pulumi stack export --show-secrets`), the configuration (`pulumi config
// --show-secrets`), with the stack's secrets provider or passphrase from the environment, and the
// project's settings (Pulumi.yaml). All only read: nothing is refreshed or updated.
import * as fs from "node:fs";
import * as path from "node:path";
import { CommandError, LocalWorkspace, StackNotFoundError, type ProjectSettings } from "@pulumi/pulumi/automation";
import { stackConfigFile } from "../import/stack-config";
import { DriftError } from "./failure";

export interface StackSnapshot {
  /** The exported deployment, secrets decrypted. */
  state: unknown;
  /** Every config value by full key (`assetdelivery:baseUrl`), secrets decrypted. */
  config: Record<string, string>;
  /** Pulumi.yaml: the project's name (the namespace of its own config keys) and runtime. */
  project: ProjectSettings;
  /** The stack's configuration file: `Pulumi.<stack>.yaml`, in the project's stackConfigDir if it names one. */
  configFile: string;
}

const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml", "Pulumi.json"];

export async function readStack(stackName: string, workDir: string): Promise<StackSnapshot> {
  if (!PROJECT_FILES.some((file) => fs.existsSync(path.join(workDir, file)))) {
    throw new DriftError(`no Pulumi project in ${workDir} (no Pulumi.yaml): run in the project's folder or pass --cwd`);
  }
  try {
    const workspace = await LocalWorkspace.create({ workDir });
    // Independent reads: run side by side.
    const [state, config, project] = await Promise.all([
      workspace.exportStack(stackName),
      workspace.getAllConfig(stackName),
      workspace.projectSettings(),
    ]);
    return {
      state,
      config: Object.fromEntries(Object.entries(config).map(([key, { value }]) => [key, value])),
      project,
      // Pulumi.yaml may keep the stacks' files in another folder (stackConfigDir, not in the SDK's type).
      configFile: stackConfigFile(
        workDir,
        stackName,
        "stackConfigDir" in project && typeof project.stackConfigDir === "string" ? project.stackConfigDir : undefined,
      ),
    };
  } catch (error) {
    throw new DriftError(stackFailure(error, stackName, workDir), { cause: error });
  }
}

function stackFailure(error: unknown, stackName: string, workDir: string): string {
  if (error instanceof StackNotFoundError)
    return `stack "${stackName}" not found for the project in ${workDir} (check the name and the backend: PULUMI_BACKEND_URL or pulumi login)`;
  if (error instanceof CommandError) return `pulumi failed to read stack "${stackName}": ${cliErrorLines(error.message)}`;
  if ((error as NodeJS.ErrnoException).code === "ENOENT") return "the Pulumi CLI was not found on PATH";
  return error instanceof Error ? error.message : String(error);
}

/**
 * The CLI's own `error:` lines, else its whole stderr. Never its stdout, which the error's message
 * also carries and which holds decrypted secrets when a `--show-secrets` command got that far.
 */
function cliErrorLines(message: string): string {
  const stderr = /\n stderr: ([\s\S]*?)\n err\?: /.exec(message)?.[1]?.trim() ?? "";
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("error:"));
  if (lines.length > 0) return lines.map((line) => line.slice("error:".length).trim()).join("; ");
  return stderr || "the Pulumi CLI failed without a message";
}
