// A Pulumi program in Java on the native plugin and the generated Java SDK as released, run by the
// real Pulumi CLI with Pulumi's own Java language host (tools/install-pulumi.sh builds it) on a local
// file backend. The SDK comes from a Maven repository in the release's layout (tools/build-java-sdk.sh,
// the script tools/build-release.sh runs), which the program's pom names as a <repository>; the pom
// is examples/java's (its pinned plugins are the ones tools/build-java-sdk.sh downloads), the program
// a folder outside the repo.
//
// Building: Maven packs the program and its dependencies into one jar, which Pulumi.yaml names as the
// program's `binary`, so that a Pulumi command runs `java -jar` and never Maven (the host's default
// runs `mvn compile exec:java` on every command, twice for an update). A test packs it once, and
// again only when it changes the code. Maven runs offline (-o) on the repository in .tools/maven,
// with file: repositories allowed (aether.offline.protocols), and quiet (-q).
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
/** Where `mvn package` writes the program's jar (examples/java's pom: <finalName>). */
const PROGRAM_JAR = path.join("target", "java-native.jar");

/**
 * Builds the SDK into `dir` in a Maven repository's layout (~30 s on 2 cores once Maven's
 * repository is warm), and forgets the SDK in Maven's own repository: Maven keeps an artifact by
 * coordinates, so a rerun at the same version would otherwise get an earlier run's jar.
 */
export async function releaseJavaSdk(dir: string): Promise<void> {
  await run("bash", [path.join(root, "tools", "build-java-sdk.sh"), dir], { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 });
  fs.rmSync(path.join(MAVEN_REPO, SDK_PATH), { recursive: true, force: true });
}

/** examples/java's pom, reading the SDK from the Maven repository at `repository`. */
export function programPom(repository: string): string {
  const pom = fs.readFileSync(EXAMPLE_POM, "utf8");
  const at = pom.indexOf("  <dependencies>");
  if (at < 0) throw new Error(`no <dependencies> in ${EXAMPLE_POM}`);
  const repositories = `  <repositories>\n    <repository>\n      <id>released</id>\n      <url>file://${repository}</url>\n    </repository>\n  </repositories>\n`;
  return pom.slice(0, at) + repositories + pom.slice(at);
}

/** `mvn -o -q package` in `dir`: the program's jar (throws with Maven's output when it fails). */
export async function mavenPackage(dir: string): Promise<void> {
  const args = ["-B", "-q", "-o", "-Daether.offline.protocols=file", `-Dmaven.repo.local=${MAVEN_REPO}`, "package"];
  await run("mvn", args, { cwd: dir, maxBuffer: 16 * 1024 * 1024, timeout: 600_000 }).catch(
    (error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`mvn package failed in ${dir}: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
    },
  );
}

export interface JavaStack extends YamlStack {
  /** Writes a class of the program (package myproject): src/main/java/myproject/NAME.java. */
  writeClass(name: string, source: string): void;
  /** Packs the program again (after writeClass). */
  build(): Promise<void>;
}

/** A Java program in `workDir` (outside the repo) on the SDK in the Maven repository at `repository`, packed once. */
export async function javaStack(
  name: string,
  stackName: string,
  app: string,
  options: { workDir: string; repository: string; credentials: { baseUrl: string; apiKey: string } },
): Promise<JavaStack> {
  const { workDir, repository, credentials } = options;
  const sources = path.join(workDir, "src", "main", "java", "myproject");
  fs.mkdirSync(sources, { recursive: true });
  fs.writeFileSync(path.join(workDir, "pom.xml"), programPom(repository));
  const writeClass = (className: string, source: string) => fs.writeFileSync(path.join(sources, `${className}.java`), source);
  writeClass("App", app);
  await mavenPackage(workDir);
  const runtime = { name: "java", options: { binary: PROGRAM_JAR } };
  const stack = await yamlStack(name, stackName, {}, { workDir, credentials, runtime });
  return { ...stack, writeClass, build: () => mavenPackage(workDir) };
}
