// The plugin's schema states each data-source function as its signature does (functions/signatures.ts,
// which the TypeScript arguments are made from too: test/provider/function-signatures.test-d.ts), and each
// `required` list as the sdk's schemas say: what a create must give, what every read holds. The lists
// expected are written out, not computed as plugin/schema.ts computes them.
import { describe, expect, it } from "vitest";
import {
  ALWAYS_RETURNED_SOURCE_ATTRIBUTES,
  camelCase,
  REQUIRED_SOURCE_CREATE_ATTRIBUTES,
  sourceAttributesSchema,
  sourceCreateAttributesSchema,
} from "@asset-delivery/sdk";
import { SIGNATURES } from "../../provider/src/functions/signatures";
import { packageSchema } from "../../provider/src/plugin/schema";
import { FUNCTION_TOKENS, SOURCE_TOKEN, TYPE_TOKENS } from "../../provider/src/tokens";
import { sourceResource } from "../support/api-documents";

interface Members {
  properties: Record<string, { description?: string; type?: string }>;
  required?: string[];
}
const schema = packageSchema("0.0.0") as {
  functions: Record<string, { description: string; inputs: Members; outputs: Members }>;
  types: Record<string, Members>;
  resources: Record<string, { requiredInputs: string[]; required: string[] }>;
};

const created = {
  name: "Photos",
  deployment: { type: "webfolder", service_subdomains: ["photos"], webfolder_base_url: "https://o.example.com/" },
};

/**
 * Each function's arguments and result members as the schema must declare them, written out: the
 * required ones are what a program in any language must pass and can count on.
 */
const DECLARED: Record<
  keyof typeof SIGNATURES,
  { inputs: string[]; requiredInputs: string[]; outputs: string[]; requiredOutputs: string[] }
> = {
  getSource: {
    inputs: ["id", "subdomain"],
    requiredInputs: [],
    outputs: [
      "id",
      "name",
      "enabled",
      "deploymentStatus",
      "dateDeployed",
      "secureUrlToken",
      "deployment",
      "allowsUpload",
      "passwordSet",
      "requestHandshakeSet",
      "requestSigningKeySet",
    ],
    requiredOutputs: ["id", "name", "enabled", "deployment", "deploymentStatus"],
  },
  getSources: { inputs: ["filter", "sort", "max", "or"], requiredInputs: [], outputs: ["sources"], requiredOutputs: ["sources"] },
  getReports: { inputs: ["filter", "sort", "max"], requiredInputs: [], outputs: ["reports"], requiredOutputs: ["reports"] },
  getReport: {
    inputs: ["id", "includeRows"],
    requiredInputs: ["id"],
    outputs: ["id", "completed", "files", "periodEnd", "periodStart", "reportKey", "reportType", "rows"],
    requiredOutputs: ["id", "completed", "files", "periodEnd", "periodStart", "reportKey", "reportType"],
  },
  getVideoJob: {
    inputs: ["id"],
    requiredInputs: ["id"],
    outputs: ["id", "status", "phase", "createdAt", "updatedAt", "resultUrl", "error"],
    requiredOutputs: ["id", "status", "phase", "createdAt"],
  },
};

describe("the schema's functions", () => {
  it("are the signatures'", () => {
    expect(Object.keys(SIGNATURES)).toEqual(Object.keys(DECLARED));
  });

  it.each(Object.entries(SIGNATURES))("%s: its signature's description, arguments and required arguments", (name, signature) => {
    const declared = schema.functions[FUNCTION_TOKENS[name as keyof typeof FUNCTION_TOKENS]]!;
    const expected = DECLARED[name as keyof typeof SIGNATURES];
    expect(declared.description).toBe(signature.description);
    expect(Object.keys(declared.inputs.properties)).toEqual(expected.inputs);
    expect(declared.inputs.required ?? []).toEqual(expected.requiredInputs);
    for (const arg of Object.values(signature.args)) expect(declared.inputs.properties[arg.name]!.description).toBe(arg.description);
  });

  it.each(Object.keys(SIGNATURES))("%s: its result members, and the required ones", (name) => {
    const declared = schema.functions[FUNCTION_TOKENS[name as keyof typeof FUNCTION_TOKENS]]!.outputs;
    const expected = DECLARED[name as keyof typeof SIGNATURES];
    expect(Object.keys(declared.properties)).toEqual(expected.outputs);
    expect(declared.required ?? []).toEqual(expected.requiredOutputs);
  });
});

describe("the schema's required lists", () => {
  it("the Source's inputs: what the sdk's create schema cannot do without", () => {
    expect(REQUIRED_SOURCE_CREATE_ATTRIBUTES).toEqual(["name", "deployment"]);
    for (const attribute of REQUIRED_SOURCE_CREATE_ATTRIBUTES) {
      const { [attribute as keyof typeof created]: _left, ...without } = created;
      expect(sourceCreateAttributesSchema.safeParse(without).success, attribute).toBe(false);
    }
    expect(sourceCreateAttributesSchema.safeParse(created).success).toBe(true);
    expect(schema.resources[SOURCE_TOKEN]!.requiredInputs).toEqual(["name", "deployment"]);
  });

  it("the Source's outputs and SourceInfo: what every read holds, with a value", () => {
    // A Source as the API returns it, every attribute present, the secure-URL token too.
    const returned: Record<string, unknown> = { ...sourceResource().attributes, secure_url_token: "token" };
    expect(sourceAttributesSchema.safeParse(returned).success).toBe(true);
    for (const attribute of Object.keys(returned)) {
      const { [attribute]: _left, ...without } = returned;
      const mayLack =
        sourceAttributesSchema.safeParse(without).success || sourceAttributesSchema.safeParse({ ...returned, [attribute]: null }).success;
      expect(mayLack, attribute).toBe(!ALWAYS_RETURNED_SOURCE_ATTRIBUTES.includes(attribute));
    }
    const alwaysReturned = ALWAYS_RETURNED_SOURCE_ATTRIBUTES.map(camelCase);
    expect(alwaysReturned).toEqual(["name", "enabled", "deployment", "deploymentStatus"]);
    expect(schema.types[TYPE_TOKENS.sourceInfo]!.required).toEqual(["id", "name", "enabled", "deployment", "deploymentStatus"]);
    // The provider's own options with a default are always in the state too.
    expect(schema.resources[SOURCE_TOKEN]!.required).toEqual([
      "name",
      "enabled",
      "deployment",
      "deploymentStatus",
      "waitForDeployment",
      "deploymentTimeoutSeconds",
    ]);
  });
});
