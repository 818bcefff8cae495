// A Source as the policy engine hands it to a policy, without a stack (as pulumi-policy-aws tests
// its policies): the same declaration in either shape, read through @pulumi/policy's own
// unknown-checking proxy, so that a value not known yet throws on access as it does in a preview.
//   dynamic: what the provider's check returns for `new Source(...)` (secrets split off into
//            deploymentSecrets by the resource, the API's defaults filled in unless a value is unknown)
//   native:  the declaration as is, secrets inside `deployment`
import { DYNAMIC_SOURCE_TYPE, NATIVE_SOURCE_TYPE, type SourceShape } from "@asset-delivery/policy";
import { checkSource } from "../../provider/src/core/check";
import { secretsApart, toCore, toDynamic } from "../../provider/src/dynamic/shape";
import type {
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { unknownCheckingProxy } from "@pulumi/policy";
import * as pulumi from "@pulumi/pulumi";

export const SHAPES: SourceShape[] = ["dynamic", "native"];

/** The engine's placeholder for a value not known during a preview (a string's; @pulumi/policy knows it too). */
export const UNKNOWN_VALUE = pulumi.runtime.unknownValue as string;

export interface Declaration {
  name: unknown;
  deployment: Record<string, unknown>;
}

/** The properties the engine gives the analyzer for a Source declared so, in a shape. */
export function propertiesOf(shape: SourceShape, declaration: Declaration): Record<string, unknown> {
  if (shape === "native") return { ...declaration };
  const { open: deployment, secrets } = secretsApart(declaration.deployment);
  // One secret output: unknown as a whole when any of its values is.
  const deploymentSecrets = Object.values(secrets).includes(UNKNOWN_VALUE) ? UNKNOWN_VALUE : secrets;
  // The dynamic shell's check (dynamic/runtime.ts), without the host.
  const news = { name: declaration.name, deployment, deploymentSecrets };
  const checked = checkSource(toCore(news));
  if (!("inputs" in checked)) throw new Error(`refused: ${JSON.stringify(checked.failures)}`);
  return toDynamic(checked.inputs, news);
}

export function typeOf(shape: SourceShape): string {
  return shape === "dynamic" ? DYNAMIC_SOURCE_TYPE : NATIVE_SOURCE_TYPE;
}

export function resourceOf(shape: SourceShape, resourceName: string, declaration: Declaration): PolicyResource {
  return analyzed(typeOf(shape), resourceName, propertiesOf(shape, declaration));
}

/** Any resource as the engine gives it: its properties behind @pulumi/policy's unknown-checking proxy. */
export function analyzed(type: string, resourceName: string, props: Record<string, unknown>): PolicyResource {
  return {
    type,
    urn: `urn:pulumi:test::policy-unit::${type}::${resourceName}`,
    name: resourceName,
    props: unknownCheckingProxy(props),
    opts: {
      protect: false,
      ignoreChanges: [],
      aliases: [],
      additionalSecretOutputs: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
    },
    dependencies: [],
    propertyDependencies: {},
    isType: () => false,
    asType: () => undefined,
  };
}

/** The violations a resource policy reports for one Source, under a policy config. */
export async function violations(
  policy: ResourceValidationPolicy,
  resource: PolicyResource,
  config: Record<string, unknown> = {},
): Promise<string[]> {
  const reported: string[] = [];
  const report: ReportViolation = (message: unknown) => void reported.push(String(message));
  const args = {
    ...resource,
    getConfig: () => config,
    stackTags: new Map(),
    notApplicable: () => undefined,
  } as unknown as ResourceValidationArgs;
  const validations = Array.isArray(policy.validateResource) ? policy.validateResource : [policy.validateResource];
  for (const validate of validations) await validate!(args, report);
  return reported;
}

/** The violations a stack policy reports for a stack of resources: message and URN. */
export async function stackViolations(
  policy: StackValidationPolicy,
  resources: PolicyResource[],
): Promise<{ message: string; urn?: string }[]> {
  const reported: { message: string; urn?: string }[] = [];
  const report = ((message: string, urn?: string) => void reported.push({ message, ...(urn !== undefined && { urn }) })) as ReportViolation;
  const args = { resources, getConfig: () => ({}), stackTags: new Map(), notApplicable: () => undefined } as unknown as StackValidationArgs;
  await policy.validateStack(args, report);
  return reported;
}
