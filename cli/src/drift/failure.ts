// Why a drift review could not be made, in words a CI log reader acts on. Never the API key: the
// sdk's errors name the method and path only.
import { AuthenticationError, ConnectionError, PermissionError, TimeoutError } from "@asset-delivery/sdk";
import { ENV_VARS } from "@asset-delivery/provider/core";
import { CONFIG_KEYS } from "@asset-delivery/provider";

/** A failure already explained: its message is printed as is. */
export class DriftError extends Error {
  override readonly name = "DriftError";
}

export function explainFailure(error: unknown, baseUrl: string | undefined): string {
  const where = baseUrl ? ` at ${baseUrl}` : "";
  if (error instanceof AuthenticationError) {
    return `the API${where} refused the API key (${error.status} ${error.title}): check ${CONFIG_KEYS.apiKey} or ${ENV_VARS.apiKey}`;
  }
  if (error instanceof PermissionError)
    return `the API key may not read Sources (${error.status} ${error.title}): it needs the Sources permission`;
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    return `cannot reach the API${where} (${error.message}): check ${CONFIG_KEYS.baseUrl} or ${ENV_VARS.baseUrl}`;
  }
  return error instanceof Error ? error.message : String(error);
}
