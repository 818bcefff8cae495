// Finds the Sources among a stack's resources, whichever resource declares them, and gives each
// the one view the rules read.
import { SourceView } from "../source-view";
import { DYNAMIC_SOURCE_TYPE, dynamicSource } from "./dynamic-source";
import { NATIVE_SOURCE_TYPE, nativeSource } from "./native-source";

export { DYNAMIC_SOURCE_TYPE, NATIVE_SOURCE_TYPE };

/** Each resource type that declares a Source, with the normalizer of its properties. */
const SHAPES = {
  [DYNAMIC_SOURCE_TYPE]: dynamicSource,
  [NATIVE_SOURCE_TYPE]: nativeSource,
} as const;

/** The resource types that declare a Source. */
export const SOURCE_RESOURCE_TYPES = Object.keys(SHAPES) as (keyof typeof SHAPES)[];

/** What @pulumi/policy tells of a resource (a resource policy's args, or a stack policy's resource). */
export interface AnalyzedResource {
  type: string;
  urn: string;
  name: string;
  props: Record<string, unknown>;
}

/** The Source a resource declares, or undefined when it is not a Source. */
export function sourceViewOf(resource: AnalyzedResource): SourceView | undefined {
  const normalize = Object.hasOwn(SHAPES, resource.type) ? SHAPES[resource.type as keyof typeof SHAPES] : undefined;
  if (normalize === undefined) return undefined;
  return new SourceView({ urn: resource.urn, name: resource.name, type: resource.type }, normalize(resource.props));
}
