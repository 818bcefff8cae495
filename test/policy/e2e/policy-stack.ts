// A stack whose program declares Sources, in either shape the policy pack reads, run by the real
// Pulumi CLI with the pack (`--policy-pack policy/pack`) against a test server:
//   dynamic: the TypeScript program test/policy/programs/declared-sources (`new Source(...)`, the
//            dynamic provider), the Sources given in its `sources` config
//   native:  a Pulumi YAML program of `assetdelivery:index:Source` resources (the native plugin)
// Both take the same declarations, written as Pulumi YAML writes them: `${origin.id}` in a string
// is that Source's id, `{ "fn::secret": value }` a secret value.
import * as fs from "node:fs";
import * as path from "node:path";
import { DYNAMIC_SOURCE_TYPE, NATIVE_SOURCE_TYPE, type SourceShape } from "@asset-delivery/policy";
import { programStack } from "../../support/program-stack";
import { repoRoot } from "../../support/pulumi";
import type { TestServer } from "../../support/server";
import { runCli, yamlStack, type CliResult } from "../../plugin/yaml-stack";

export const PACK = path.join(repoRoot(), "policy", "pack");
const DECLARED_SOURCES_PROGRAM = path.join(__dirname, "..", "programs", "declared-sources");

/** A Source as a program declares it: resource name -> its properties (YAML's notation for ids and secrets). */
export type Declarations = Record<string, { name: unknown; deployment: Record<string, unknown> }>;

export type PolicyLevel = "mandatory" | "advisory";

/** One violation as Pulumi prints it under "Policies:". */
export interface PrintedViolation {
  level: string;
  policy: string;
  /** The resource's type token and name, as in `(assetdelivery:index:Source: photos)`. */
  type: string;
  resource: string;
  /** The violation's message: the line after the policy's description. */
  message: string;
}

export interface PolicyRun {
  passed: boolean;
  output: string;
  violations: PrintedViolation[];
}

/** `preview`; `up` as a user runs it (`--yes`: preview first); `up --skip-preview` as the Automation API runs it. */
export type PolicyCommand = "preview" | "up" | "up --skip-preview";

export interface PolicyStack {
  shape: SourceShape;
  /** The Source resource type Pulumi prints with each violation. */
  sourceType: string;
  /** Makes the program declare these Sources (and no others). */
  declare(sources: Declarations): Promise<void>;
  /** Runs the command with the pack, under a policy config file (written in the stack's folder) when given. */
  run(command: PolicyCommand, policyConfig?: object): Promise<PolicyRun>;
  remove(): Promise<void>;
}

/** What a shape's stack gives the pack's runs. */
interface ShapeStack {
  workDir: string;
  declare(sources: Declarations): Promise<void>;
  /** `pulumi ARGS --stack NAME` in the program's folder. */
  pulumi(args: readonly string[]): Promise<CliResult>;
  remove(): Promise<void>;
}

async function dynamicStack(stackName: string, credentials: { baseUrl: string; apiKey: string }): Promise<ShapeStack> {
  const stack = await programStack(DECLARED_SOURCES_PROGRAM, stackName, credentials);
  return {
    workDir: stack.workDir,
    declare: (sources) => stack.set({ sources }),
    pulumi: (args) => runCli([...args, "--stack", stackName], stack.workDir, stack.env),
    remove: () => stack.remove(),
  };
}

async function nativeStack(stackName: string, credentials: { baseUrl: string; apiKey: string }): Promise<ShapeStack> {
  const program = (sources: Declarations) => ({
    resources: Object.fromEntries(Object.entries(sources).map(([name, properties]) => [name, { type: NATIVE_SOURCE_TYPE, properties }])),
  });
  const stack = await yamlStack(`policy-${stackName}`, stackName, program({}), { credentials });
  return {
    workDir: stack.workDir,
    declare: async (sources) => stack.write(program(sources)),
    pulumi: (args) => stack.pulumi(args),
    remove: () => stack.remove(),
  };
}

/** A stack of the shape's program, on a file backend, with the server's URL and key as its provider config. */
export async function policyStack(shape: SourceShape, stackName: string, server: TestServer): Promise<PolicyStack> {
  const credentials = { baseUrl: server.url, apiKey: server.adminKey };
  const stack = shape === "dynamic" ? await dynamicStack(stackName, credentials) : await nativeStack(stackName, credentials);
  let configFiles = 0;
  return {
    shape,
    sourceType: shape === "dynamic" ? DYNAMIC_SOURCE_TYPE : NATIVE_SOURCE_TYPE,
    declare: (sources) => stack.declare(sources),
    async run(command, policyConfig) {
      const args = [...command.split(" "), ...(command === "preview" ? [] : ["--yes"]), "--policy-pack", PACK];
      if (policyConfig !== undefined) {
        const file = path.join(stack.workDir, `policy-${++configFiles}.json`);
        fs.writeFileSync(file, JSON.stringify(policyConfig));
        args.push("--policy-pack-config", file);
      }
      const result = await stack.pulumi(args);
      const output = `${result.stdout}${result.stderr}`;
      return { passed: result.code === 0, output, violations: printedViolations(output) };
    },
    remove: () => stack.remove(),
  };
}

/**
 * The violations in the CLI's output, each printed as
 *   - [mandatory]  source-https-origins  (assetdelivery:index:Source: origin)
 *     <the policy's description>
 *     <the violation's message>
 */
export function printedViolations(output: string): PrintedViolation[] {
  const lines = output.split("\n");
  return lines.flatMap((line, index): PrintedViolation[] => {
    const header = /^\s*- \[(\w+)\]\s+(\S+)\s+\((.+): ([^:()]+)\)\s*$/.exec(line);
    if (!header) return [];
    const [, level, policy, type, resource] = header;
    return [{ level: level!, policy: policy!, type: type!, resource: resource!, message: (lines[index + 2] ?? "").trim() }];
  });
}
