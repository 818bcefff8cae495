// The state's Sources as the service has them now, and the settings to reach it (the stack's
// config, else the environment): read from the account's listing, 100 a page, as a drift review
// reads (provider/src/core/read-coalescer.ts), each id once. Only GETs are sent.
import type { Source } from "@asset-delivery/sdk";
import { PULUMI_INSTRUCTIONS, pulumiConfigReader } from "@asset-delivery/provider";
import { connect, resolveSettings, type ProviderSettings } from "@asset-delivery/provider/core";
import { DriftError, explainFailure } from "../../drift/failure";
import type { TerraformSource } from "./state";

export function settingsOf(config: Record<string, string>, env: NodeJS.ProcessEnv): ProviderSettings {
  try {
    return resolveSettings(
      pulumiConfigReader((key) => config[key]),
      env,
      PULUMI_INSTRUCTIONS,
    );
  } catch (error) {
    throw new DriftError(explainFailure(error, undefined), { cause: error });
  }
}

/** Each Source of the state as the server has it now (undefined: gone), in the state's order. */
export async function readLive(sources: readonly TerraformSource[], settings: ProviderSettings): Promise<(Source | undefined)[]> {
  const connection = connect(settings);
  try {
    const ids = [...new Set(sources.map(({ id }) => id))];
    const live = new Map(await Promise.all(ids.map(async (id) => [id, await connection.reads.read(id)] as const)));
    return sources.map(({ id }) => live.get(id));
  } catch (error) {
    throw new DriftError(explainFailure(error, settings.baseUrl), { cause: error });
  } finally {
    await connection.close();
  }
}
