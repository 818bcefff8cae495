// Writes the Maven build of the generated Java SDK beside its sources: DIR/pom.xml, and the two
// resources Pulumi's Java SDK reads from the class path (the generator leaves them to the Gradle build
// it can write, which we do not use): <package>/version.txt, the version the SDK reports to the
// engine, and <package>/plugin.json, from which Pulumi's Java host learns the plugin a program needs
// and where to download it (its GetRequiredPackages). tools/generate-sdks.sh runs it after
// `gen-sdk --language java`, with the schema the plugin serves, so the regeneration check covers
// these files too.
//
//   node tools/java-sdk-pom.mjs SCHEMA.json DIR
//
// Everything comes from the schema: coordinates (the version tools/set-version.sh sets), the
// dependencies (language.java.dependencies), and what Maven Central asks of a pom (name,
// description, url, license, developer, scm). The jar, sources jar and javadoc jar carry the
// project's LICENSE (DIR/LICENSE, copied there by tools/generate-sdks.sh) in META-INF; the SDK bundles
// no third party's code (its dependencies are named in the pom, not copied in), so that is the only
// notice it needs. Plugin versions are pinned and the archives' timestamps fixed: the same sources
// give the same jars, byte for byte.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** The Maven Central namespace the project owns: its GitHub organisation's (io.github.<org>). */
export const GROUP_ID = "io.github.asset-delivery";
/** Maven plugins the build uses, pinned (Maven's own defaults change with its version). */
const PLUGINS = {
  "maven-clean-plugin": "3.3.2",
  "maven-resources-plugin": "3.3.1",
  "maven-compiler-plugin": "3.11.0",
  "maven-surefire-plugin": "3.2.2",
  "maven-jar-plugin": "3.3.0",
  "maven-source-plugin": "3.3.0",
  "maven-javadoc-plugin": "3.6.3",
  "maven-install-plugin": "3.1.1",
  "maven-deploy-plugin": "3.1.1",
};
/** The archives' entry times (project.build.outputTimestamp): fixed, so that a rebuild gives the same bytes. */
const OUTPUT_TIMESTAMP = "2000-01-01T00:00:00Z";

const escapeXml = (text) => String(text).replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The Java package the generator wrote the SDK into: language.java.basePackage, then the package's name. */
export function javaPackage(schema) {
  const base = schema.language?.java?.basePackage;
  if (!base) throw new Error("the schema sets no language.java.basePackage");
  return `${base.replace(/\.$/, "")}.${schema.name}`;
}

/** The SDK's Maven coordinates: the artifact is named as the package. */
export function coordinates(schema) {
  return { groupId: GROUP_ID, artifactId: schema.name, version: schema.version };
}

function dependencyXml(spec, version) {
  const [groupId, artifactId] = spec.split(":");
  return [
    "    <dependency>",
    `      <groupId>${escapeXml(groupId)}</groupId>`,
    `      <artifactId>${escapeXml(artifactId)}</artifactId>`,
    `      <version>${escapeXml(version)}</version>`,
    "    </dependency>",
  ].join("\n");
}

function pluginXml(artifactId, body = "") {
  return [
    "      <plugin>",
    "        <groupId>org.apache.maven.plugins</groupId>",
    `        <artifactId>${artifactId}</artifactId>`,
    `        <version>${PLUGINS[artifactId]}</version>`,
    ...(body ? [body] : []),
    "      </plugin>",
  ].join("\n");
}

/** DIR/pom.xml's text. */
export function pomXml(schema) {
  const { groupId, artifactId, version } = coordinates(schema);
  const dependencies = Object.entries(schema.language?.java?.dependencies ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const jarGoal = (id, goal) =>
    [
      `        <executions>`,
      `          <execution>`,
      `            <id>${id}</id>`,
      `            <goals><goal>${goal}</goal></goals>`,
      `          </execution>`,
      `        </executions>`,
    ].join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by tools/java-sdk-pom.mjs (tools/generate-sdks.sh java) from the package schema: do not edit. -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${escapeXml(groupId)}</groupId>
  <artifactId>${escapeXml(artifactId)}</artifactId>
  <version>${escapeXml(version)}</version>
  <packaging>jar</packaging>
  <name>${escapeXml(schema.displayName ?? schema.name)}</name>
  <description>${escapeXml(schema.description ?? "")}</description>
  <url>${escapeXml(schema.homepage ?? schema.repository)}</url>
  <licenses>
    <license>
      <name>${escapeXml(schema.license)}</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>
    </license>
  </licenses>
  <developers>
    <developer>
      <name>${escapeXml(schema.publisher)}</name>
      <url>${escapeXml(schema.repository)}</url>
    </developer>
  </developers>
  <scm>
    <url>${escapeXml(schema.repository)}</url>
    <connection>scm:git:${escapeXml(schema.repository)}.git</connection>
  </scm>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <project.build.outputTimestamp>${OUTPUT_TIMESTAMP}</project.build.outputTimestamp>
  </properties>
  <dependencies>
${dependencies.map(([spec, v]) => dependencyXml(spec, v)).join("\n")}
  </dependencies>
  <build>
    <resources>
      <resource>
        <directory>src/main/resources</directory>
      </resource>
      <resource>
        <directory>\${project.basedir}</directory>
        <includes><include>LICENSE</include></includes>
        <targetPath>META-INF</targetPath>
      </resource>
    </resources>
    <plugins>
${pluginXml("maven-clean-plugin")}
${pluginXml("maven-resources-plugin")}
${pluginXml("maven-compiler-plugin")}
${pluginXml("maven-surefire-plugin")}
${pluginXml("maven-jar-plugin")}
${pluginXml("maven-source-plugin", jarGoal("sources-jar", "jar-no-fork"))}
${pluginXml(
  "maven-javadoc-plugin",
  [
    jarGoal("javadoc-jar", "jar"),
    "        <configuration>",
    "          <doclint>none</doclint>",
    "          <quiet>true</quiet>",
    "          <bottom>Licensed under the Apache License 2.0 (META-INF/LICENSE in the SDK's jar).</bottom>",
    "        </configuration>",
  ].join("\n"),
)}
${pluginXml("maven-install-plugin")}
${pluginXml("maven-deploy-plugin")}
    </plugins>
  </build>
</project>
`;
}

/** <package>/plugin.json: the plugin the SDK's resources need, and where the engine downloads it. */
export function pluginJson(schema) {
  const info = { resource: true, name: schema.name, version: schema.version, server: schema.pluginDownloadURL };
  return `${JSON.stringify(info, null, 2)}\n`;
}

function main([schemaFile, dir]) {
  if (!schemaFile || !dir) throw new Error("usage: node tools/java-sdk-pom.mjs SCHEMA.json DIR");
  const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
  const resources = path.join(dir, "src", "main", "resources", ...javaPackage(schema).split("."));
  mkdirSync(resources, { recursive: true });
  writeFileSync(path.join(resources, "version.txt"), schema.version);
  writeFileSync(path.join(resources, "plugin.json"), pluginJson(schema));
  writeFileSync(path.join(dir, "pom.xml"), pomXml(schema));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) main(process.argv.slice(2));
