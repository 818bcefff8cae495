// Drift review: the Sources a stack manages, as its state declares them, against the server now,
// and the account's enabled Sources that the stack does not manage. Reads only: the stack's state
// and config, and GETs of the API.
import * as path from "node:path";
import { resolveSettings } from "@asset-delivery/provider/core";
import type { SourceQuery } from "../sources/filters";
import { compareSources } from "./compare";
import { declaredSources } from "./declared-state";
import { DriftError, explainFailure } from "./failure";
import { liveSources } from "./live-sources";
import type { DriftReport } from "./report";
import { readStack } from "./stack";

export { compareSources } from "./compare";
export { declaredSources, SOURCE_RESOURCE_TYPE, type DeclaredSource } from "./declared-state";
export { DriftError } from "./failure";
export { renderJson } from "./render-json";
export { renderMarkdown } from "./render-markdown";
export type * from "./report";

export interface DriftOptions {
  stack: string;
  /** The Pulumi project's folder. */
  workDir: string;
  /** Which of the account's Sources to consider for the unmanaged list (the API's filters). */
  query?: SourceQuery;
  env?: NodeJS.ProcessEnv;
}

export async function driftReport({ stack, workDir, query = {}, env = process.env }: DriftOptions): Promise<DriftReport> {
  const { state, config } = await readStack(stack, path.resolve(workDir));
  const declared = stateSources(state, stack);
  let credentials;
  try {
    credentials = resolveSettings((key) => config[key], env);
  } catch (error) {
    throw new DriftError(explainFailure(error, undefined), { cause: error });
  }
  try {
    const { live, enabled } = await liveSources(
      credentials,
      declared.map((source) => source.id),
      query,
    );
    return compareSources(stack, declared, live, enabled);
  } catch (error) {
    throw new DriftError(explainFailure(error, credentials.baseUrl), { cause: error });
  }
}

function stateSources(state: unknown, stack: string) {
  try {
    return declaredSources(state);
  } catch (error) {
    throw new DriftError(`the state of stack "${stack}" cannot be read: ${(error as Error).message}`, { cause: error });
  }
}
