// Drift review: the Sources a stack manages, as its state declares them, against the server now,
// and the account's enabled Sources that the stack does not manage; for each drifted Source, the
// way back to the declaration and the way to keep the server's values. Reads only: the stack's
// state and config, GETs of the API, and Pulumi's import code generation into a throwaway stack
// (declarations/). `acceptDrift` writes the kept values into the stack's configuration file.
import * as path from "node:path";
import type { Source } from "@asset-delivery/sdk";
import { connect, resolveSettings, type ProviderSettings } from "@asset-delivery/provider/core";
import { PULUMI_INSTRUCTIONS, pulumiConfigReader } from "@asset-delivery/provider";
import type { SourceQuery } from "../sources/filters";
import { acceptIntoConfig } from "./accept";
import { acceptedFields, compareSources } from "./compare";
import { declaredSources, type DeclaredSource } from "./declared-state";
import { generatedDeclarations } from "./declarations";
import { DriftError, explainFailure } from "./failure";
import { liveSources } from "./live-sources";
import type { DriftReport } from "./report";
import { readStack, type StackSnapshot } from "./stack";

export { compareSources } from "./compare";
export { declaredSources, resourceNames, NATIVE_SOURCE_TYPE, SOURCE_RESOURCE_TYPE, type DeclaredSource } from "./declared-state";
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
  const review = await reviewStack(stack, path.resolve(workDir), env);
  const { snapshot, declared, settings } = review;
  const { live, enabled } = await reading(settings, () =>
    liveSources(
      settings,
      declared.map((source) => source.id),
      query,
    ),
  );
  const report = compareSources(stack, declared, live, enabled, configDeclared(snapshot));
  // Keeping the server's values of a native Source declared in the program: the declaration Pulumi prints for it.
  const printable = report.drifted.filter((drift) => drift.shape === "native" && drift.status !== "gone");
  if (printable.length === 0) return report;
  const sources = printable.map((drift) => ({ declared: declared.find((source) => source.urn === drift.urn)!, live: live.get(drift.id)! }));
  const outcome = await generatedDeclarations(path.resolve(workDir), sources, settings);
  if ("unavailable" in outcome) return { ...report, declarationsUnavailable: outcome.unavailable };
  for (const drift of printable) {
    const declaration = outcome.declarations.get(drift.name);
    if (declaration) drift.wayOut = { ...drift.wayOut, declaration };
    else
      drift.wayOut = {
        ...drift.wayOut,
        keepNote: "then declare the Live values in the program (its declaration could not be printed without a secret)",
      };
  }
  return report;
}

/**
 * `asset-delivery drift --accept NAME...`: for each named Source, declared in the stack's
 * configuration and drifted, writes the server's values into Pulumi.<stack>.yaml. Returns the file
 * and, per name, how many fields were written. Nothing is written unless every name can be kept.
 */
export async function acceptDrift({ stack, workDir, names, env = process.env }: DriftOptions & { names: readonly string[] }) {
  const { snapshot, declared, settings } = await reviewStack(stack, path.resolve(workDir), env);
  const inConfig = configDeclared(snapshot);
  const chosen = names.map((name) => {
    const source = declared.find((candidate) => candidate.name === name);
    if (!source) throw new DriftError(`stack "${stack}" manages no Source named ${name}`);
    if (source.shape !== "dynamic" || !inConfig.has(name))
      throw new DriftError(
        `${name} is declared in the program, not in the stack's configuration (${sourcesKey(snapshot)}): change the program instead`,
      );
    return source;
  });
  const live = await reading(settings, () => readSources(settings, chosen));
  const accepted = chosen.map((source, index) => {
    const outcome = acceptedFields(source, live[index]);
    if ("refused" in outcome) throw new DriftError(`${source.name} cannot be kept by --accept: ${outcome.refused}`);
    return { name: source.name, fields: outcome.fields };
  });
  acceptIntoConfig(snapshot.configFile, sourcesKey(snapshot), accepted);
  return { configFile: snapshot.configFile, accepted: accepted.map(({ name, fields }) => ({ name, count: fields.length })) };
}

interface StackReview {
  snapshot: StackSnapshot;
  declared: DeclaredSource[];
  settings: ProviderSettings;
}

async function reviewStack(stack: string, workDir: string, env: NodeJS.ProcessEnv): Promise<StackReview> {
  const snapshot = await readStack(stack, workDir);
  let declared: DeclaredSource[];
  try {
    declared = declaredSources(snapshot.state);
  } catch (error) {
    throw new DriftError(`the state of stack "${stack}" cannot be read: ${(error as Error).message}`, { cause: error });
  }
  try {
    return {
      snapshot,
      declared,
      settings: resolveSettings(
        pulumiConfigReader((key) => snapshot.config[key]),
        env,
        PULUMI_INSTRUCTIONS,
      ),
    };
  } catch (error) {
    throw new DriftError(explainFailure(error, undefined), { cause: error });
  }
}

/** Each Source as the server has it (undefined: gone), by GET. */
async function readSources(settings: ProviderSettings, sources: readonly DeclaredSource[]): Promise<(Source | undefined)[]> {
  const session = connect(settings);
  try {
    return await Promise.all(sources.map((source) => session.reads.read(source.id)));
  } finally {
    await session.close();
  }
}

async function reading<T>(settings: ProviderSettings, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new DriftError(explainFailure(error, settings.baseUrl), { cause: error });
  }
}

/** `<project>:sources`: the Sources the stack's configuration declares, by name (sourcesFromConfig). */
function sourcesKey({ project }: StackSnapshot): string {
  return `${project.name}:sources`;
}

function configDeclared(snapshot: StackSnapshot): Set<string> {
  const value = snapshot.config[sourcesKey(snapshot)];
  if (value === undefined) return new Set();
  try {
    const parsed: unknown = JSON.parse(value);
    return new Set(parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? Object.keys(parsed) : []);
  } catch {
    return new Set();
  }
}
