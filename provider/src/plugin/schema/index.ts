// The package schema the plugin serves (GetSchema), committed as provider/schema.json: made from
// the sdk's field table, so a field's type, default, allowed values, secrecy and write-only or
// read-only mark are stated once, there. This module holds the package's release metadata and
// puts the parts together; each part has its module: format.ts (a model of Pulumi's schema
// format), properties.ts (a field's descriptor as a property), source-resource.ts (the Source
// resource), config.ts (the provider's configuration), functions.ts (the data-source functions).
import { REPOSITORY } from "../../repository";
import { PACKAGE_NAME } from "../../tokens";
import { configuration } from "./config";
import type { SchemaTypes } from "./format";
import { functions, reportType } from "./functions";
import { sourceResource } from "./source-resource";

export type { PulumiProperty } from "./format";

/** The engine's source for the plugin's release tarballs: this repository's GitHub releases. */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/asset-delivery/asset-delivery-as-code";
/** The logo the Registry shows: docs/images/logo.svg, served from the default branch. */
const LOGO_URL = "https://raw.githubusercontent.com/asset-delivery/asset-delivery-as-code/main/docs/images/logo.svg";

/** The package schema at `version` (the package's version: plugin, schema and npm package are one number). */
export function packageSchema(version: string): Record<string, unknown> {
  const types: SchemaTypes = {};
  const resources = sourceResource(types);
  reportType(types);
  return {
    name: PACKAGE_NAME,
    displayName: "Asset Delivery",
    version,
    description: "Manage an image-delivery service's Sources (image origins and delivery settings) and read its reports and video jobs.",
    // The Registry files a package by its `category/` keyword; `kind/native`: a provider of its own, not bridged.
    keywords: ["pulumi", "asset-delivery", "image-delivery", "category/cloud", "kind/native"],
    homepage: `${REPOSITORY}#readme`,
    license: "Apache-2.0",
    publisher: "asset-delivery",
    repository: REPOSITORY,
    logoUrl: LOGO_URL,
    // Where the engine downloads the plugin the SDKs name: the project's GitHub releases, tag
    // v<version>, assets pulumi-resource-assetdelivery-v<version>-<os>-<arch>.tar.gz (tools/package-plugin.sh).
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    ...configuration(),
    types,
    resources,
    functions: functions(types),
    language: {
      nodejs: { packageName: "@asset-delivery/pulumi", respectSchemaVersion: true },
      python: { packageName: "pulumi_assetdelivery", pyproject: { enabled: true }, respectSchemaVersion: true },
      go: {
        importBasePath: "github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      // Java: com.github.assetdelivery, the reverse of the project's home (github.com/asset-delivery;
      // a Java package cannot hold the hyphen), under com/ because Pulumi's Java SDK looks for a
      // package's plugin.json only there. Its Maven groupId is io.github.asset-delivery, the namespace
      // Maven Central grants the GitHub organisation (tools/java-sdk-pom.mjs, which writes the Maven
      // build: no Gradle files). `deployment` comes out as Object: the generator types a union of
      // more than two types so (docs/native-sdks.md says why the schema keeps the union).
      java: {
        basePackage: "com.github.assetdelivery",
        buildFiles: "none",
        dependencies: { "com.pulumi:pulumi": "1.12.0", "com.google.code.gson:gson": "2.8.9", "com.google.code.findbugs:jsr305": "3.0.2" },
      },
    },
  };
}

/** The schema as committed in provider/schema.json (tools/plugin-reference.sh), where the Registry reads it. */
export function schemaJson(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
