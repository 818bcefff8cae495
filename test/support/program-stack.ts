// A stack of a Pulumi program of this repo (a test program in test/provider/programs/, an example,
// the root project), run by the real Pulumi CLI through the Automation API on a local file
// backend (or another one: `env`), and the clean-up of a test that ran stacks against a test server. The program's files are copied into a fresh
// work folder under <repo>/.data (so that Node still finds the repo's node_modules and the stack's
// config files stay out of the source tree).
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import type { AssetDeliveryClient } from "@asset-delivery/sdk";
import { pulumiCommand, pulumiEnv, pulumiWorkDir, stackSecretsProvider } from "./pulumi";
import type { TestServer } from "./server";

export interface ProgramStack {
  stack: Stack;
  workDir: string;
  /** The environment the stack's commands run in (the CLI on PATH, the stack's file backend): for running the CLI directly. */
  env: Record<string, string>;
  /** Sets plain config values of the program (objects as JSON). */
  set(values: Record<string, unknown>): Promise<void>;
  /** Sets secret config values of the program (objects as JSON). */
  setSecret(values: Record<string, unknown>): Promise<void>;
  /** The stack's state file in the backend, as stored (secrets encrypted). */
  stateFile(): string;
  /** Removes the stack and the work folder. */
  remove(): Promise<void>;
}

export const TEST_PROGRAMS = path.join(__dirname, "..", "provider", "programs");

/**
 * `programDir`: the program's folder; `files`: only these of its files (default: all of them).
 * The stack's `Pulumi.<stack>.yaml`, if copied, is its starting configuration. `env`: more of the
 * environment its commands run in, over pulumiEnv's (another backend: `PULUMI_BACKEND_URL` and its credentials).
 * A stack given a passphrase there (`PULUMI_CONFIG_PASSPHRASE`) keeps its secrets with it, as a
 * user's; any other with the tests' Vault transit engine (StackSecrets in ./pulumi).
 */
export async function programStack(
  programDir: string,
  stackName: string,
  credentials: { baseUrl: string; apiKey: string },
  files?: readonly string[],
  env: Record<string, string> = {},
): Promise<ProgramStack> {
  const workDir = pulumiWorkDir(`${path.basename(programDir)}-`);
  for (const file of files ?? fs.readdirSync(programDir))
    fs.cpSync(path.join(programDir, file), path.join(workDir, file), { recursive: true });
  const stateDir = path.join(workDir, ".state");
  const envVars = {
    ...pulumiEnv({ stateDir }),
    // Type checking is the job of `tsc -p test`; at run time the program is only transpiled.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    ...env,
  };
  const secretsProvider = stackSecretsProvider(env.PULUMI_CONFIG_PASSPHRASE === undefined ? "vault" : "passphrase");
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir },
    { pulumiCommand: await pulumiCommand(), envVars, ...(secretsProvider && { secretsProvider }) },
  );
  await stack.setAllConfig({
    "assetdelivery:baseUrl": { value: credentials.baseUrl },
    "assetdelivery:apiKey": { value: credentials.apiKey, secret: true },
  });
  const encode = (values: Record<string, unknown>, secret: boolean) =>
    Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, { value: typeof value === "string" ? value : JSON.stringify(value), secret }]),
    );
  return {
    stack,
    workDir,
    env: envVars,
    set: (values) => stack.setAllConfig(encode(values, false)),
    setSecret: (values) => stack.setAllConfig(encode(values, true)),
    stateFile: () => {
      const stacks = path.join(stateDir, ".pulumi", "stacks");
      const file = fs.readdirSync(stacks, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(`${stackName}.json`));
      if (!file) throw new Error(`no state file of stack ${stackName} under ${stacks}`);
      return fs.readFileSync(path.join(stacks, file), "utf8");
    },
    async remove() {
      await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}

/**
 * The `afterAll` of a test that ran stacks against a test server: removes the stacks, then closes
 * the client and the server. Any may be missing: a `beforeAll` that failed early made none.
 */
export async function removeStacksAndServer(parts: {
  stacks: readonly (ProgramStack | undefined)[];
  client?: AssetDeliveryClient | undefined;
  server?: TestServer | undefined;
}): Promise<void> {
  for (const stack of parts.stacks) await stack?.remove();
  await parts.client?.close();
  await parts.server?.close();
}
