// One typed view of a Source, whichever resource declares it (the dynamic `Source` or the native
// `assetdelivery:index:Source`: see shapes/). The rules read it by the sdk's field names and get
// values that the sdk's own field table has parsed: the declared value, or the API's default for
// the Source's type when none is declared, as the service would store it.
import {
  camelCase,
  deploymentFieldsByType,
  isSourceType,
  sourceNameSchema,
  type CamelCase,
  type DeploymentOutputOf,
  type SourceType,
} from "@asset-delivery/sdk";
import { containsUnknown, isRecord, UNKNOWN, type Known, type Value } from "./known";

/** Which resource declares the Source. */
export type SourceShape = "dynamic" | "native";

/** What a shape's normalizer reads off a resource: the values as declared, with the resource's (camelCase) names. */
export interface DeclaredSource {
  shape: SourceShape;
  /** The display name (`name`), undefined when absent. */
  name: Value | undefined;
  /** The deployment object, write-only fields (secrets) included, undefined when absent. */
  deployment: Value | undefined;
}

/** The resource a Source is declared by, as a violation names it. */
export interface ResourceRef {
  urn: string;
  /** The Pulumi resource name (`new Source("photos", ...)`). */
  name: string;
  type: string;
}

/** A deployment field by the API's name (the sdk's field table), of any Source type. */
export type DeploymentField = { [T in SourceType]: keyof DeploymentOutputOf<T> & string }[SourceType];

/** The value of a deployment field after the sdk's parsing (defaults filled in), for the types that have it. */
export type DeploymentFieldValue<K extends DeploymentField> = {
  [T in SourceType]: K extends keyof DeploymentOutputOf<T> ? DeploymentOutputOf<T>[K] : never;
}[SourceType];

/** The path of a deployment field as a program declares it: `deployment.webfolderBaseUrl`. */
export function deploymentPath<K extends DeploymentField>(field: K): `deployment.${CamelCase<K>}` {
  return `deployment.${camelCase(field)}`;
}

/** What the view needs of a field's schema in the sdk's table. */
interface FieldRule {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false };
}

export class SourceView {
  constructor(
    readonly resource: ResourceRef,
    private readonly declared: DeclaredSource,
  ) {}

  get shape(): SourceShape {
    return this.declared.shape;
  }

  /**
   * The display name; UNKNOWN until the engine knows it; undefined when absent or not a valid name
   * (the provider refuses the Source then, with its own message).
   */
  get displayName(): Known<string> | undefined {
    const name = this.declared.name;
    if (containsUnknown(name)) return UNKNOWN;
    const parsed = sourceNameSchema.safeParse(name);
    return parsed.success ? parsed.data : undefined;
  }

  /** The deployment type; UNKNOWN until known; undefined when absent or not a type the API has. */
  get type(): Known<SourceType> | undefined {
    const type = this.deploymentMember("type");
    if (type === UNKNOWN) return UNKNOWN;
    return isSourceType(type) ? type : undefined;
  }

  /**
   * A deployment field: the declared value, or the API's default for the Source's type when none is
   * declared, parsed by the sdk's rule for it. UNKNOWN while the value (or the type) is not known;
   * undefined when the Source's type has no such field, or when the value breaks the field's rule
   * (the provider refuses the Source then, with its own message).
   */
  field<K extends DeploymentField>(field: K): Known<DeploymentFieldValue<K>> | undefined {
    const type = this.type;
    if (type === UNKNOWN) return UNKNOWN;
    if (type === undefined) return undefined;
    const fields: Readonly<Record<string, FieldRule>> = deploymentFieldsByType[type];
    const rule = fields[field];
    if (rule === undefined) return undefined;
    const declared = this.deploymentMember(camelCase(field));
    if (containsUnknown(declared)) return UNKNOWN;
    const parsed = rule.safeParse(declared);
    // The sdk's table states each field's type; parsing by it gives exactly that type.
    return parsed.success ? (parsed.data as DeploymentFieldValue<K>) : undefined;
  }

  private deploymentMember(name: string): Value | undefined {
    const deployment = this.declared.deployment;
    if (deployment === UNKNOWN) return UNKNOWN;
    return isRecord(deployment) ? deployment[name] : undefined;
  }
}
