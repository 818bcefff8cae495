// schema-changes.ts on small schemas: each kind of breaking change named by its path, additions not.
import { describe, expect, it } from "vitest";
import { breakingSchemaChanges } from "./schema-changes";

const SOURCE = "assetdelivery:index:Source";
const INFO = "assetdelivery:index:SourceInfo";
const CREDENTIALS = "assetdelivery:index:UploadCredentials";
const WEBFOLDER = "assetdelivery:index:WebfolderDeployment";
const base = () => ({
  name: "assetdelivery",
  pluginDownloadURL: "github://api.github.com/asset-delivery/asset-delivery-as-code",
  language: {
    go: { importBasePath: "github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery", respectSchemaVersion: true },
    nodejs: { packageName: "@asset-delivery/pulumi" },
    python: { packageName: "pulumi_assetdelivery", pyproject: { enabled: true } },
  } as Record<string, Record<string, unknown>>,
  resources: {
    [SOURCE]: {
      inputProperties: {
        name: { type: "string" },
        enabled: { type: "boolean", default: true },
        apiToken: { type: "string", secret: true },
        deployment: { $ref: `#/types/${WEBFOLDER}` },
      },
      requiredInputs: ["name"],
      properties: { name: { type: "string" }, status: { type: "string" }, deployment: { $ref: `#/types/${WEBFOLDER}` } },
      required: ["name", "status"],
    },
  },
  functions: {
    "assetdelivery:index:getSource": {
      inputs: { properties: { id: { type: "string" } } },
      outputs: { properties: { name: { type: "string" } } },
    },
    "assetdelivery:index:getSources": {
      inputs: { properties: {} },
      outputs: { properties: { sources: { type: "array", items: { $ref: `#/types/${INFO}` } } }, required: ["sources"] },
    },
  },
  types: {
    "assetdelivery:index:Kind": { type: "string", enum: [{ value: "a" }, { value: "b" }] },
    // Held by an output (getSources' result): a member no longer required may now be absent.
    [INFO]: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, required: ["id", "name"] },
    // Taken as an input only: a member no longer required is an addition.
    [CREDENTIALS]: { type: "object", properties: { key: { type: "string" }, secret: { type: "string" } }, required: ["key", "secret"] },
    // An input and an output at once (a Source's deployment), its `type` a constant.
    [WEBFOLDER]: {
      type: "object",
      properties: { type: { type: "string", const: "webfolder" }, baseUrl: { type: "string" } },
      required: ["type", "baseUrl"],
    },
  } as Record<string, Record<string, unknown>>,
  provider: {
    inputProperties: { baseUrl: { type: "string" }, apiKey: { type: "string", secret: true } } as Record<string, Record<string, unknown>>,
    requiredInputs: [] as string[],
  },
  config: {
    variables: { baseUrl: { type: "string" }, pacing: { type: "boolean", default: true } } as Record<string, Record<string, unknown>>,
  },
});

describe("breakingSchemaChanges", () => {
  it("finds none between a schema and itself, nor for additions", () => {
    const after = base();
    after.resources[SOURCE].inputProperties = { ...after.resources[SOURCE].inputProperties, extra: { type: "string" } } as never;
    (after.functions as Record<string, unknown>)["assetdelivery:index:getOther"] = {};
    after.language.nodejs!.dependencies = { "@pulumi/pulumi": "^3" };
    after.language.dotnet = { rootNamespace: "AssetDelivery" };
    after.types[CREDENTIALS]!.required = ["key"];
    after.provider.inputProperties.pacing = { type: "boolean" };
    after.config.variables.deliveryDomain = { type: "string" };
    expect(breakingSchemaChanges(base(), base())).toEqual([]);
    expect(breakingSchemaChanges(base(), after)).toEqual([]);
  });

  it("names each breaking change by its path", () => {
    const after = base();
    const source = after.resources[SOURCE];
    delete (source.inputProperties as Record<string, unknown>).name;
    source.inputProperties.enabled = { type: "boolean", default: false };
    source.inputProperties.apiToken = { type: "string" } as never;
    source.requiredInputs = ["name", "enabled"];
    source.properties.status = { type: "integer" };
    delete (source.properties as Record<string, unknown>).name;
    source.required = ["status"];
    delete (after.functions as Record<string, unknown>)["assetdelivery:index:getSource"];
    after.types["assetdelivery:index:Kind"]!.enum = [{ value: "a" }];
    expect(breakingSchemaChanges(base(), after)).toEqual([
      `functions.assetdelivery:index:getSource: function removed`,
      `resources.${SOURCE}.inputProperties.apiToken: secret made plain`,
      `resources.${SOURCE}.inputProperties.enabled: default changed from true to false`,
      `resources.${SOURCE}.inputProperties.name: input removed`,
      `resources.${SOURCE}.properties.name: output removed`,
      `resources.${SOURCE}.properties.status: type changed from string to integer`,
      `resources.${SOURCE}.required.name: output no longer always set`,
      `resources.${SOURCE}.requiredInputs.enabled: input newly required`,
      `types.assetdelivery:index:Kind.enum: value "b" removed`,
    ]);
  });

  it("a member of a type an output holds no longer required, through a function's result and a resource's output", () => {
    const after = base();
    after.types[INFO]!.required = ["id"];
    after.types[WEBFOLDER]!.required = ["type"];
    expect(breakingSchemaChanges(base(), after)).toEqual([
      `types.${INFO}.required.name: output no longer always set`,
      `types.${WEBFOLDER}.required.baseUrl: output no longer always set`,
    ]);
  });

  it("a constant changed or dropped", () => {
    const after = base();
    after.types[WEBFOLDER]!.properties = { type: { type: "string", const: "web_folder" }, baseUrl: { type: "string" } };
    expect(breakingSchemaChanges(base(), after)).toEqual([
      `types.${WEBFOLDER}.properties.type: constant changed from "webfolder" to "web_folder"`,
    ]);
    after.types[WEBFOLDER]!.properties = { type: { type: "string" }, baseUrl: { type: "string" } };
    expect(breakingSchemaChanges(base(), after)).toEqual([`types.${WEBFOLDER}.properties.type: constant changed from "webfolder" to none`]);
  });

  it("the package's name, its plugin's download address and each language setting changed or removed", () => {
    const after = base();
    after.name = "assetdelivery2";
    after.pluginDownloadURL = "https://example.com/releases/";
    after.language.go!.importBasePath = "github.com/asset-delivery/other/sdks/go/assetdelivery";
    after.language.nodejs!.packageName = "@asset-delivery/pulumi-sdk";
    after.language.python = { packageName: "pulumi_assetdelivery", pyproject: {} };
    expect(breakingSchemaChanges(base(), after)).toEqual([
      `language.go.importBasePath: changed from "github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery" to "github.com/asset-delivery/other/sdks/go/assetdelivery"`,
      `language.nodejs.packageName: changed from "@asset-delivery/pulumi" to "@asset-delivery/pulumi-sdk"`,
      `language.python.pyproject.enabled: removed (was true)`,
      `name: package name changed from "assetdelivery" to "assetdelivery2"`,
      `pluginDownloadURL: changed from "github://api.github.com/asset-delivery/asset-delivery-as-code" to "https://example.com/releases/"`,
    ]);
    const without = base() as Partial<ReturnType<typeof base>>;
    delete without.pluginDownloadURL;
    delete without.language;
    expect(breakingSchemaChanges(base(), without)).toEqual([
      `language.go.importBasePath: removed (was "github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery")`,
      `language.go.respectSchemaVersion: removed (was true)`,
      `language.nodejs.packageName: removed (was "@asset-delivery/pulumi")`,
      `language.python.packageName: removed (was "pulumi_assetdelivery")`,
      `language.python.pyproject.enabled: removed (was true)`,
      `pluginDownloadURL: removed (was "github://api.github.com/asset-delivery/asset-delivery-as-code")`,
    ]);
  });

  it("a provider setting removed, retyped, made plain or newly required; a config variable removed or its default changed", () => {
    const after = base();
    delete after.provider.inputProperties.baseUrl;
    after.provider.inputProperties.apiKey = { type: "string" };
    after.provider.inputProperties.pacing = { type: "boolean" };
    after.provider.requiredInputs = ["pacing"];
    delete after.config.variables.baseUrl;
    after.config.variables.pacing = { type: "boolean", default: false };
    expect(breakingSchemaChanges(base(), after)).toEqual([
      `config.variables.baseUrl: input removed`,
      `config.variables.pacing: default changed from true to false`,
      `provider.inputProperties.apiKey: secret made plain`,
      `provider.inputProperties.baseUrl: input removed`,
      `provider.requiredInputs.pacing: input newly required`,
    ]);
    const retyped = base();
    retyped.provider.inputProperties.baseUrl = { type: "integer" };
    retyped.config.variables.baseUrl = { type: "array", items: { type: "string" } };
    expect(breakingSchemaChanges(base(), retyped)).toEqual([
      `config.variables.baseUrl: type changed from string to array<string>`,
      `provider.inputProperties.baseUrl: type changed from string to integer`,
    ]);
  });
});
