// schema-changes.ts on small schemas: each kind of breaking change named by its path, additions not.
import { describe, expect, it } from "vitest";
import { breakingSchemaChanges } from "./schema-changes";

const SOURCE = "assetdelivery:index:Source";
const base = () => ({
  resources: {
    [SOURCE]: {
      inputProperties: {
        name: { type: "string" },
        enabled: { type: "boolean", default: true },
        apiToken: { type: "string", secret: true },
      },
      requiredInputs: ["name"],
      properties: { name: { type: "string" }, status: { type: "string" } },
      required: ["name", "status"],
    },
  },
  functions: {
    "assetdelivery:index:getSource": {
      inputs: { properties: { id: { type: "string" } } },
      outputs: { properties: { name: { type: "string" } } },
    },
  },
  types: { "assetdelivery:index:Kind": { type: "string", enum: [{ value: "a" }, { value: "b" }] } },
  provider: { inputProperties: { baseUrl: { type: "string" } } },
});

describe("breakingSchemaChanges", () => {
  it("finds none between a schema and itself, nor for additions", () => {
    const after = base();
    after.resources[SOURCE].inputProperties = { ...after.resources[SOURCE].inputProperties, extra: { type: "string" } } as never;
    (after.functions as Record<string, unknown>)["assetdelivery:index:getOther"] = {};
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
    after.types["assetdelivery:index:Kind"].enum = [{ value: "a" }];
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
});
