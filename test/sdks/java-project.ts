// A Pulumi program in Java on the native plugin and the generated Java SDK as released, run by the
// real Pulumi CLI with Pulumi's own Java language host (tools/install-pulumi.sh builds it) on a local
// file backend. The SDK comes from a Maven repository in the release's layout (tools/build-java-sdk.sh,
// the script tools/build-release.sh runs), which the program's pom names as a <repository>; the pom
// is examples/java's (its pinned plugins are the ones tools/build-java-sdk.sh downloads), the program
// a folder outside the repo.
//
// Building: Pulumi's Java host runs a Maven program with `mvn compile exec:java` (and the same for
// the plugins the program needs), so Maven starts on every command, but compiles only what changed:
// the test compiles the program once in its set-up, and again only when it changes the code. (The
// host's `binary` option, a prebuilt jar that would spare Maven, reaches v1.16's host only as a
// command-line flag, which Pulumi's CLI no longer passes.) The program's .mvn/maven.config makes every
// Maven run, the host's too, offline (-o) on the repository in .tools/maven, with file: repositories
// allowed (aether.offline.protocols), and quiet (-q); its .mvn/jvm.config shortens Maven's start.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../support/pulumi";
import { yamlStack, type YamlStack } from "../plugin/yaml-stack";

const run = promisify(execFile);
const root = repoRoot();
/** Maven's repository (tools/build-java-sdk.sh fills it; CI keeps it). */
export const MAVEN_REPO = path.join(root, ".tools", "maven", "repository");
const EXAMPLE_POM = path.join(root, "examples", "java", "pom.xml");
/** The SDK's coordinates' folder in a Maven repository. */
const SDK_PATH = path.join("io", "github", "asset-delivery", "assetdelivery");
/**
 * Maven's JVM (.mvn/jvm.config): a Maven run is mostly start-up, which the JIT's first tier and the
 * serial collector shorten (the program itself mostly waits on the engine).
 */
const MAVEN_JVM = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];
/**
 * Maven's options for every run in the program's folder (.mvn/maven.config, one a line). Not -B:
 * Maven 3.8 in batch mode starts its output with an escape sequence (ESC[0m), and the host reads the
 * plugin list from that output as JSON (it then finds no plugin, and Pulumi downloads none).
 */
const MAVEN_CONFIG = ["-q", "-o", "-Daether.offline.protocols=file", `-Dmaven.repo.local=${MAVEN_REPO}`];

/**
 * Forgets the SDK in Maven's own repository: Maven keeps an artifact by coordinates, so a rerun at
 * the same version would otherwise get an earlier run's jar rather than the one just built.
 */
export function forgetJavaSdk(): void {
  fs.rmSync(path.join(MAVEN_REPO, SDK_PATH), { recursive: true, force: true });
}

/** Builds the SDK into `dir` in a Maven repository's layout (~30 s on 2 cores once Maven's repository is warm). */
export async function releaseJavaSdk(dir: string): Promise<void> {
  await run("bash", [path.join(root, "tools", "build-java-sdk.sh"), dir], { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 });
  forgetJavaSdk();
}

/** examples/java's pom, reading the SDK from the Maven repository at `repository`. */
export function programPom(repository: string): string {
  const pom = fs.readFileSync(EXAMPLE_POM, "utf8");
  const at = pom.indexOf("  <dependencies>");
  if (at < 0) throw new Error(`no <dependencies> in ${EXAMPLE_POM}`);
  const repositories = `  <repositories>\n    <repository>\n      <id>released</id>\n      <url>file://${repository}</url>\n    </repository>\n  </repositories>\n`;
  return pom.slice(0, at) + repositories + pom.slice(at);
}

/** `mvn compile` in `dir` (offline and quiet: .mvn/maven.config), in `env` if given; throws with Maven's output when it fails. */
export async function mavenCompile(dir: string, env?: Record<string, string>): Promise<void> {
  await run("mvn", ["compile"], { cwd: dir, env: env ?? process.env, maxBuffer: 16 * 1024 * 1024, timeout: 600_000 }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`mvn compile failed in ${dir}: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
    },
  );
}

/** The program's package's folder (package myproject, examples/java's). */
const CLASSES = path.join("src", "main", "java", "myproject");

/** A Maven program in `workDir`: the pom reading the SDK from `repository`, .mvn's settings, and `app` as myproject.App. */
export function writeJavaProgram(workDir: string, repository: string, app: string): void {
  fs.mkdirSync(path.join(workDir, CLASSES), { recursive: true });
  fs.mkdirSync(path.join(workDir, ".mvn"), { recursive: true });
  fs.writeFileSync(path.join(workDir, "pom.xml"), programPom(repository));
  fs.writeFileSync(path.join(workDir, ".mvn", "maven.config"), `${MAVEN_CONFIG.join("\n")}\n`);
  fs.writeFileSync(path.join(workDir, ".mvn", "jvm.config"), `${MAVEN_JVM.join(" ")}\n`);
  fs.writeFileSync(path.join(workDir, CLASSES, "App.java"), app);
}

export interface JavaStack extends YamlStack {
  /** Writes a class of the program (package myproject): src/main/java/myproject/NAME.java. */
  writeClass(name: string, source: string): void;
  /** Compiles the program again (after writeClass). */
  build(): Promise<void>;
}

/** A Java program in `workDir` (outside the repo) on the SDK in the Maven repository at `repository`, compiled once. */
export async function javaStack(
  name: string,
  stackName: string,
  app: string,
  options: { workDir: string; repository: string; credentials: { baseUrl: string; apiKey: string } },
): Promise<JavaStack> {
  const { workDir, repository, credentials } = options;
  writeJavaProgram(workDir, repository, app);
  const writeClass = (className: string, source: string) => fs.writeFileSync(path.join(workDir, CLASSES, `${className}.java`), source);
  await mavenCompile(workDir);
  const stack = await yamlStack(name, stackName, {}, { workDir, credentials, runtime: "java" });
  return { ...stack, writeClass, build: () => mavenCompile(workDir) };
}
