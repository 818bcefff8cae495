// The data-source functions by their schema token, for the native plugin's Invoke: each runs with
// the provider's own connection, without loading @pulumi/pulumi, and says which paths of its result
// are secret (a Source's secret attributes, from the sdk's field table).
import type { AssetDeliveryClient } from "@asset-delivery/sdk";
import type { PropertyPath } from "../core";
import { FUNCTION_TOKENS } from "../tokens";
import { reportOf, reportsOf } from "./reports";
import { SECRET_RESULT_FIELDS, sourceOf, sourcesOf } from "./sources";
import { videoJobOf } from "./videos";

type Call = (client: AssetDeliveryClient, args: never) => Promise<object>;

const none = (): PropertyPath[] => [];

// The arguments are the schema's; the sdk's client checks each value it sends (ids, filters, sorts)
// and names a bad one, as for the program-side functions.
const FUNCTIONS: Record<string, { call: Call; secretPaths: (result: Record<string, unknown>) => PropertyPath[] }> = {
  [FUNCTION_TOKENS.getSource]: { call: sourceOf, secretPaths: () => SECRET_RESULT_FIELDS.map((field) => [field]) },
  [FUNCTION_TOKENS.getSources]: {
    call: sourcesOf,
    secretPaths: (result) =>
      (Array.isArray(result.sources) ? result.sources : []).flatMap((_, index) =>
        SECRET_RESULT_FIELDS.map((field) => ["sources", index, field]),
      ),
  },
  [FUNCTION_TOKENS.getReports]: { call: reportsOf, secretPaths: none },
  [FUNCTION_TOKENS.getReport]: { call: reportOf, secretPaths: none },
  [FUNCTION_TOKENS.getVideoJob]: { call: videoJobOf, secretPaths: none },
};

export async function invokeFunction(
  client: AssetDeliveryClient,
  token: string,
  args: Record<string, unknown>,
): Promise<{ values: Record<string, unknown>; secrets: PropertyPath[] }> {
  const fn = FUNCTIONS[token];
  if (!fn) throw new Error(`unknown function ${token}: this provider has ${Object.keys(FUNCTIONS).join(", ")}`);
  const values = { ...(await fn.call(client, args as never)) } as Record<string, unknown>;
  return { values, secrets: fn.secretPaths(values) };
}
