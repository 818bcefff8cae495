// A Pulumi program in Go on the native plugin and the generated Go SDK (sdks/go), run by the real
// Pulumi CLI with this repo's Go language host (tools/pulumi-cli/cmd/pulumi-language-go) on a local
// file backend. The program is a module whose go.mod requires the SDK through a `replace` of the
// repo's sdks/go, as examples/go-native does; its go.sum is the SDK's (the same module graph).
//
// Building: a Go program is compiled before it runs. The host builds it on every command unless
// Pulumi.yaml names a prebuilt `binary`; so a test has the host build it once (`buildTarget`,
// which keeps the build in the program's folder) and then runs that binary (`binary`) until the
// code changes. Go's build cache (shared; tools/prepare-go-sdk.sh fills it) makes a build after the
// first one a compile of the program and a link.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../support/pulumi";
import { yamlStack, type YamlStack } from "../plugin/yaml-stack";

export const GO_SDK_DIR = path.join(repoRoot(), "sdks", "go");
const SDK_MODULE = "github.com/asset-delivery/asset-delivery-as-code/sdks/go";
/** Where the host writes the build (`buildTarget`) and where the stack runs it from (`binary`). */
const PROGRAM_BINARY = path.join("bin", "program");

/** Downloads the SDK's modules and fills Go's build cache (~3 min the first time on 2 cores, ~1 s after). */
export function prepareGoSdk(): void {
  execFileSync("bash", [path.join(repoRoot(), "tools", "prepare-go-sdk.sh")], { stdio: "inherit" });
}

/**
 * go.mod of a program on the repo's SDK: the SDK's own (the same requirements: Go lists every module
 * a build needs), under the program's module name, plus the SDK through a replace.
 */
export function goMod(name: string): string {
  const sdkMod = fs.readFileSync(path.join(GO_SDK_DIR, "go.mod"), "utf8");
  if (!sdkMod.startsWith(`module ${SDK_MODULE}\n`)) throw new Error(`${GO_SDK_DIR}/go.mod is not module ${SDK_MODULE}`);
  return [
    sdkMod.replace(`module ${SDK_MODULE}\n`, `module ${name}\n`),
    `require ${SDK_MODULE} v0.0.0`,
    `replace ${SDK_MODULE} => ${GO_SDK_DIR}`,
    "",
  ].join("\n");
}

export type GoBuild = "host" | "prebuilt";

export interface GoStack extends YamlStack {
  /** Writes a Go file of the program (main.go, or another beside it). */
  writeFile(name: string, source: string): void;
  /** "host": the host builds the program on each command (keeping it in bin/); "prebuilt": the stack runs that build. */
  build(mode: GoBuild): void;
}

export async function goStack(
  name: string,
  stackName: string,
  main: string,
  credentials: { baseUrl: string; apiKey: string },
): Promise<GoStack> {
  const stack = await yamlStack(name, stackName, {}, { credentials, runtime: { name: "go", options: { buildTarget: PROGRAM_BINARY } } });
  const project = path.join(stack.workDir, "Pulumi.yaml");
  const build = (mode: GoBuild) => {
    const options = mode === "host" ? { buildTarget: PROGRAM_BINARY } : { binary: path.join(stack.workDir, PROGRAM_BINARY) };
    const written = JSON.parse(fs.readFileSync(project, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(project, JSON.stringify({ ...written, runtime: { name: "go", options } }, null, 2));
  };
  const writeFile = (file: string, source: string) => fs.writeFileSync(path.join(stack.workDir, file), source);
  writeFile("go.mod", goMod(name));
  fs.copyFileSync(path.join(GO_SDK_DIR, "go.sum"), path.join(stack.workDir, "go.sum"));
  writeFile("main.go", main);
  return { ...stack, writeFile, build };
}
