// source-https-origins: the URLs the service fetches from (a web folder's base URL, an
// s3_compatible endpoint) and the fallback images it serves (imageError, imageMissing) use
// https://. Which fields are URLs is the sdk's field table's to say: every field whose rule is
// the API's URL rule, for the Source's type.
import { deploymentFieldsByType, httpUrlSchema, type SourceType } from "@asset-delivery/sdk";
import { UNKNOWN } from "../known";
import { sourcePolicy, type Finding } from "../source-policy";
import { deploymentPath, type DeploymentField } from "../source-view";

interface SchemaLike {
  _zod: { def: { innerType?: SchemaLike } };
}

/** Whether a field's rule is the API's URL rule, possibly nullable, optional or with a default. */
function isUrlRule(schema: SchemaLike): boolean {
  if (schema === (httpUrlSchema as unknown as SchemaLike)) return true;
  const inner = schema._zod.def.innerType;
  return inner !== undefined && isUrlRule(inner);
}

/** The URL fields of a Source type, by the API's names. */
export function urlFields(type: SourceType): DeploymentField[] {
  // Read through the wrappers' definitions only (zod's `def.innerType`).
  const fields = deploymentFieldsByType[type] as unknown as Record<string, SchemaLike>;
  return Object.entries(fields)
    .filter(([, schema]) => isUrlRule(schema))
    .map(([name]) => name as DeploymentField);
}

export const sourceHttpsOrigins = sourcePolicy({
  name: "source-https-origins",
  description:
    "Origins and fallback images are fetched over HTTPS: webfolderBaseUrl, imageError, imageMissing and an s3_compatible endpointUrl use https://.",
  enforcementLevel: "mandatory",
  check(source) {
    const type = source.type;
    if (type === UNKNOWN || type === undefined) return [];
    return urlFields(type).flatMap((field): Finding[] => {
      const url = source.field(field);
      if (typeof url !== "string" || new URL(url).protocol === "https:") return [];
      return [
        {
          path: deploymentPath(field),
          problem: `is an ${new URL(url).protocol}// URL`,
          fix: `serve it over HTTPS and set ${deploymentPath(field)} to its https:// address`,
        },
      ];
    });
  },
});
