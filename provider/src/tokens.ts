// The native package's tokens, each written once: the schema declares them, the plugin answers
// them, and `@asset-delivery/provider` exports them (the CLI's import writes them). The package's
// name and the Source's type are the sdk's, which the policy pack reads them from too.
import { NATIVE_SOURCE_TYPE, PULUMI_PACKAGE_NAME } from "@asset-delivery/sdk";

export const PACKAGE_NAME = PULUMI_PACKAGE_NAME;

/** The native plugin's resource type: `assetdelivery:index:Source`. */
export const SOURCE_TOKEN = NATIVE_SOURCE_TYPE;

/** The data-source functions' tokens, by function name. */
export const FUNCTION_TOKENS = {
  getSource: `${PACKAGE_NAME}:index:getSource`,
  getSources: `${PACKAGE_NAME}:index:getSources`,
  getReports: `${PACKAGE_NAME}:index:getReports`,
  getReport: `${PACKAGE_NAME}:index:getReport`,
  getVideoJob: `${PACKAGE_NAME}:index:getVideoJob`,
} as const;

/** The schema's object types that are not a deployment type's. */
export const TYPE_TOKENS = {
  report: `${PACKAGE_NAME}:index:Report`,
  sourceInfo: `${PACKAGE_NAME}:index:SourceInfo`,
} as const;
