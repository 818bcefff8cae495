// A Terraform or OpenTofu state (format version 4, as `terraform state pull` or `tofu state pull`
// prints it), read once into the Sources it manages: each instance of an `imgix_source` or
// `imgixyz_source`, wherever it is declared (root, modules, `count`, `for_each`), with its address,
// its id, its deployment's attributes under the API's names, and the Terraform settings it carries.
// Anything else in the state is left alone; a file that is not such a state is refused by name.
import { isPlainObject, sourceIdSchema } from "@asset-delivery/sdk";
import { DriftError } from "../../drift/failure";
import {
  CARRIED_SETTINGS,
  READ_FROM_SERVER,
  RENAMED_DEPLOYMENT_ATTRIBUTES,
  TERRAFORM_SOURCE_KINDS,
  type TerraformSourceKind,
} from "./providers";

export interface TerraformSource {
  /** The instance's address: `module.cdn.imgix_source.photos["eu"]`. */
  address: string;
  /** The resource's address in the configuration, without instance keys: what a `removed` block names. */
  configAddress: string;
  /** The address's readable parts: module names and keys, the resource's name, its key (`cdn`, `photos`, `eu`). */
  nameParts: string[];
  kind: TerraformSourceKind;
  id: string;
  /** `enabled` as the state has it (the provider's default when absent). */
  enabled: boolean;
  /** The deployment's attributes, under the API's names (`imgix_subdomains` → `service_subdomains`). */
  deployment: Record<string, unknown>;
  /** `wait_for_deployed` (imgix_source; Terraform's default true). */
  waitForDeployed?: boolean;
  /** The `timeouts` block's create and update durations, in seconds, where set. */
  timeouts: { create?: number; update?: number };
  /**
   * Settings of the state that Pulumi has no counterpart for, by name only (reported, not carried
   * over): a state may hold anything there, a credential included. One the state marks sensitive
   * (`sensitive_attributes`) says so.
   */
  notCarried: string[];
}

/** Parses a state's text; `origin` names it in errors (a file name, or `standard input`). */
export function parseTerraformState(text: string, origin: string): TerraformSource[] {
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (error) {
    throw new DriftError(`${origin} is not a Terraform state: it is not JSON (${(error as Error).message})`);
  }
  if (isPlainObject(state) && "format_version" in state && "values" in state)
    throw new DriftError(
      `${origin} is the output of \`terraform show -json\`, not a state: give the state itself (\`terraform state pull > state.json\`, or \`tofu state pull\`)`,
    );
  if (!isPlainObject(state) || typeof state.version !== "number" || !Array.isArray(state.resources))
    throw new DriftError(
      `${origin} is not a Terraform state: a state is a JSON object with "version" and "resources" (terraform state pull prints one)`,
    );
  if (state.version !== 4)
    throw new DriftError(
      `${origin} is a Terraform state of format version ${state.version}: only version 4 is read (Terraform 0.12 and later, OpenTofu); ` +
        "a newer Terraform upgrades it: terraform state pull",
    );

  const sources: TerraformSource[] = [];
  const otherTypes = new Set<string>();
  for (const [index, resource] of state.resources.entries()) {
    const where = `${origin}: resources[${index}]`;
    if (!isPlainObject(resource) || typeof resource.type !== "string" || typeof resource.name !== "string")
      throw new DriftError(`${where} is not a resource of a state (no "type" and "name")`);
    const kind = TERRAFORM_SOURCE_KINDS.find((k) => k.resourceType === resource.type);
    if (resource.mode === "data") continue;
    if (!kind) {
      otherTypes.add(resource.type);
      continue;
    }
    const module = typeof resource.module === "string" ? parseModulePath(resource.module, where) : [];
    const base = [...module.map((m) => `module.${m.name}${m.key}`), `${resource.type}.${resource.name}`].join(".");
    const configAddress = [...module.map((m) => `module.${m.name}`), `${resource.type}.${resource.name}`].join(".");
    if (!Array.isArray(resource.instances)) throw new DriftError(`${where} (${base}) has no "instances" list`);
    for (const instance of resource.instances) {
      const key = isPlainObject(instance) ? instanceKey(instance.index_key) : undefined;
      const address = `${base}${key?.text ?? ""}`;
      if (!isPlainObject(instance) || !isPlainObject(instance.attributes))
        throw new DriftError(`${origin}: ${address} has no "attributes" (a state of format version 4 has them per instance)`);
      const nameParts = [...module.flatMap((m) => [m.name, ...(m.keyPart ? [m.keyPart] : [])]), resource.name, ...(key ? [key.part] : [])];
      const sensitive = sensitiveAttributes(instance.sensitive_attributes);
      sources.push(sourceOf(instance.attributes, instance.private, sensitive, { address, configAddress, nameParts, kind }, origin));
    }
  }
  if (sources.length === 0) {
    const found = otherTypes.size > 0 ? `it manages ${[...otherTypes].sort().join(", ")}` : "it manages no resource";
    throw new DriftError(
      `${origin} holds no Source: no ${TERRAFORM_SOURCE_KINDS.map((k) => `${k.resourceType} (${k.provider})`).join(" or ")}; ${found}`,
    );
  }
  return sources;
}

interface ModuleStep {
  name: string;
  /** The instance key as written in the address (`["eu"]`, `[0]`), or empty. */
  key: string;
  /** The key as a name part (`eu`, `0`), or undefined. */
  keyPart?: string;
}

const MODULE_STEP = /^module\.([A-Za-z_][A-Za-z0-9_-]*)(\[(?:\d+|"(?:[^"\\]|\\.)*")\])?(?:\.|$)/;

/** `module.a["x"].module.b` → its steps. */
function parseModulePath(path: string, where: string): ModuleStep[] {
  const steps: ModuleStep[] = [];
  let rest = path;
  while (rest !== "") {
    const match = MODULE_STEP.exec(rest);
    if (!match) throw new DriftError(`${where}: "module" is not a module address: ${JSON.stringify(path)}`);
    const key = match[2] ?? "";
    steps.push({ name: match[1]!, key, keyPart: key === "" ? undefined : String(JSON.parse(key.slice(1, -1))) });
    rest = rest.slice(match[0].length);
  }
  return steps;
}

/** An instance's `index_key`: a number (`count`) or a string (`for_each`). */
function instanceKey(key: unknown): { text: string; part: string } | undefined {
  if (typeof key === "number") return { text: `[${key}]`, part: String(key) };
  if (typeof key === "string") return { text: `[${JSON.stringify(key)}]`, part: key };
  return undefined;
}

/**
 * The top-level attributes an instance's `sensitive_attributes` marks: each entry is a path, a list
 * of steps (`{"type": "get_attr", "value": "token"}`, then indexes), whose first step names one.
 */
function sensitiveAttributes(paths: unknown): ReadonlySet<string> {
  const names = new Set<string>();
  if (!Array.isArray(paths)) return names;
  for (const steps of paths) {
    const first: unknown = Array.isArray(steps) ? steps[0] : undefined;
    if (isPlainObject(first) && first.type === "get_attr" && typeof first.value === "string") names.add(first.value);
  }
  return names;
}

function sourceOf(
  attributes: Record<string, unknown>,
  privateData: unknown,
  sensitive: ReadonlySet<string>,
  at: Pick<TerraformSource, "address" | "configAddress" | "nameParts" | "kind">,
  origin: string,
): TerraformSource {
  const where = `${origin}: ${at.address}`;
  const id = sourceIdSchema.safeParse(attributes.id);
  if (!id.success) throw new DriftError(`${where}: "id" ${id.error.issues[0]!.message} (got ${JSON.stringify(attributes.id)})`);
  const listed = attributes.deployment;
  const block: unknown =
    at.kind.deploymentShape === "object" ? listed : Array.isArray(listed) && listed.length === 1 ? listed[0] : undefined;
  if (!isPlainObject(block))
    throw new DriftError(
      `${where}: "deployment" is not ${at.kind.deploymentShape === "list-of-one" ? "a list of one block" : "an object"}, as ${at.kind.provider} writes it`,
    );
  const deployment = Object.fromEntries(Object.entries(block).map(([name, value]) => [RENAMED_DEPLOYMENT_ATTRIBUTES[name] ?? name, value]));

  const notCarried: string[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    if (READ_FROM_SERVER.has(name) || CARRIED_SETTINGS.has(name) || value === null) continue;
    notCarried.push(sensitive.has(name) ? `${name} (sensitive in the state)` : name);
  }
  const timeouts = timeoutsOf(attributes.timeouts, privateData, where);
  for (const name of ["read", "delete"] as const) if (timeouts.others[name]) notCarried.push(`timeouts.${name}`);
  return {
    ...at,
    id: id.data,
    enabled: typeof attributes.enabled === "boolean" ? attributes.enabled : true,
    deployment,
    ...(typeof attributes.wait_for_deployed === "boolean" ? { waitForDeployed: attributes.wait_for_deployed } : {}),
    timeouts: timeouts.seconds,
    notCarried,
  };
}

// SDKv2 keeps the timeouts a configuration sets in the instance's `private` data (base64 JSON,
// nanoseconds under this key), and the block as written in `attributes.timeouts`.
const SDK_TIMEOUTS_KEY = "e2bfb730-ecaa-11e6-8f88-34363bc7c4c0";

function timeoutsOf(
  block: unknown,
  privateData: unknown,
  where: string,
): { seconds: TerraformSource["timeouts"]; others: { read?: string; delete?: string } } {
  const seconds: TerraformSource["timeouts"] = {};
  const others: { read?: string; delete?: string } = {};
  if (isPlainObject(block)) {
    for (const [name, value] of Object.entries(block)) {
      if (typeof value !== "string" || value === "") continue;
      if (name === "create" || name === "update") seconds[name] = durationSeconds(value, `${where}: timeouts.${name}`);
      else if (name === "read" || name === "delete") others[name] = value;
    }
    return { seconds, others };
  }
  const fromPrivate = privateTimeouts(privateData);
  for (const name of ["create", "update"] as const) {
    const nanoseconds = fromPrivate?.[name];
    if (typeof nanoseconds === "number" && nanoseconds > 0) seconds[name] = Math.ceil(nanoseconds / 1e9);
  }
  return { seconds, others };
}

function privateTimeouts(privateData: unknown): Record<string, unknown> | undefined {
  if (typeof privateData !== "string" || privateData === "") return undefined;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(privateData, "base64").toString("utf8"));
    const timeouts = isPlainObject(decoded) ? decoded[SDK_TIMEOUTS_KEY] : undefined;
    return isPlainObject(timeouts) ? timeouts : undefined;
  } catch {
    return undefined;
  }
}

const DURATION_UNITS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };

/** A Go duration as Terraform's `timeouts` take it (`30m`, `1h30m`, `90s`), in whole seconds. */
export function durationSeconds(text: string, where: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text)
    throw new DriftError(`${where}: ${JSON.stringify(text)} is not a duration (such as "30m" or "1h30m")`);
  return Math.ceil(parts.reduce((total, [, amount, unit]) => total + Number(amount) * DURATION_UNITS[unit!]!, 0));
}
