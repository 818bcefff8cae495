// source-https-origins: the URLs the service fetches from (a web folder's base URL, an
// s3_compatible endpoint) and the fallback images it serves (imageError, imageMissing) use
// https://. The fields are named by the sdk's field names (type-checked against its table); a
// test ties the list to the table: every field whose rule is the API's URL rule is in it.
import { deploymentFieldDescriptors, type SourceType } from "@asset-delivery/sdk";
import { UNKNOWN } from "../known";
import { sourcePolicy, type Finding } from "../source-policy";
import { deploymentPath, type DeploymentField } from "../source-view";

/** The deployment fields that hold a URL, by the API's names. */
export const URL_FIELDS = [
  "webfolder_base_url",
  "endpoint_url",
  "image_error",
  "image_missing",
] as const satisfies readonly DeploymentField[];

/** The URL fields of a Source type. */
export function urlFields(type: SourceType): DeploymentField[] {
  const fields = new Set(deploymentFieldDescriptors(type).map((field) => field.apiName));
  return URL_FIELDS.filter((field) => fields.has(field));
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
      // The view parsed it by the API's URL rule: an absolute http:// or https:// URL.
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
