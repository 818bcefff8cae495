// The plugin's schema states each data-source function as its signature does (functions/signatures.ts,
// which the TypeScript arguments are made from too: test/provider/function-signatures.test-d.ts), and each
// `required` list as the sdk's schemas say: what a create must give, what every read holds.
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

describe("the schema's functions", () => {
  it.each(Object.entries(SIGNATURES))("%s: its signature's description, arguments and required arguments", (name, signature) => {
    const declared = schema.functions[FUNCTION_TOKENS[name as keyof typeof FUNCTION_TOKENS]]!;
    const args = Object.values(signature.args);
    expect(declared.description).toBe(signature.description);
    expect(Object.keys(declared.inputs.properties)).toEqual(args.map((arg) => arg.name));
    expect(declared.inputs.required ?? []).toEqual(args.filter((arg) => arg.required).map((arg) => arg.name));
    for (const arg of args) expect(declared.inputs.properties[arg.name]!.description).toBe(arg.description);
  });

  it.each(Object.entries(SIGNATURES))(
    "%s: its signature's result members, required as the signature and the sdk say",
    (name, signature) => {
      const declared = schema.functions[FUNCTION_TOKENS[name as keyof typeof FUNCTION_TOKENS]]!.outputs;
      const inline = signature.result.membersOf === undefined ? undefined : schema.types[TYPE_TOKENS[signature.result.membersOf]]!;
      const members = signature.result.members;
      expect(Object.keys(declared.properties)).toEqual([...Object.keys(inline?.properties ?? {}), ...members.map((member) => member.name)]);
      expect(declared.required ?? []).toEqual([
        ...(inline?.required ?? []),
        ...members.filter((member) => member.required).map((member) => member.name),
      ]);
    },
  );
});

describe("the schema's required lists", () => {
  it("the Source's inputs: what the sdk's create schema cannot do without", () => {
    expect(REQUIRED_SOURCE_CREATE_ATTRIBUTES).toEqual(["name", "deployment"]);
    for (const attribute of REQUIRED_SOURCE_CREATE_ATTRIBUTES) {
      const { [attribute as keyof typeof created]: _left, ...without } = created;
      expect(sourceCreateAttributesSchema.safeParse(without).success, attribute).toBe(false);
    }
    expect(sourceCreateAttributesSchema.safeParse(created).success).toBe(true);
    expect(schema.resources[SOURCE_TOKEN]!.requiredInputs).toEqual(REQUIRED_SOURCE_CREATE_ATTRIBUTES.map(camelCase));
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
    expect(schema.types[TYPE_TOKENS.sourceInfo]!.required).toEqual(["id", ...alwaysReturned]);
    // The provider's own options with a default are always in the state too.
    expect(schema.resources[SOURCE_TOKEN]!.required).toEqual([...alwaysReturned, "waitForDeployment", "deploymentTimeoutSeconds"]);
  });
});
