// The native plugin's provider: the ResourceProvider operations on plain values (the gRPC server
// in server.ts only decodes and encodes), each a translation of the engine's call to the provider
// core's (core/provider.ts, which decides the Source's rules, the write budget and Cancel), but
// what is the plugin's alone: its configuration given as values (config-check.ts) and a preview's
// outputs (preview.ts). The core speaks the API's names: each Source value is renamed here once each way
// (pulumi-names/source.ts: `toApiNames` for what the engine hands over, `toPulumiNames` for what
// goes back), and each secret marked where it lives (SECRET_PATHS, from the sdk's field table).
// What is the plugin's own: the Source type and function tokens of its schema, and the engine's
// Read without a state, which is an import.
import deepEqual from "fast-deep-equal";
import { createSourceProvider, isSourceNotReady, isWithin, type SourceDiff, type SourceProvider, type UncheckedInputs } from "../core";
import { coreInputs, coreState, toApiNames, toPulumiNames, uncheckedInputs } from "../pulumi-names/source";
import { pulumiCheckFailure } from "../pulumi-names/paths";
import { SECRET_PATHS } from "../pulumi-names/secret-paths";
import { detailedDiff, type DetailedDiff } from "../engine/detailed-diff";
import { providerProcessLog } from "../engine/engine-log";
import { pulumiCreator } from "../engine/creator";
import { PULUMI_INSTRUCTIONS } from "../pulumi-names/instructions";
import { withOrderHint, withRenameHint } from "../engine/rename-hint";
import { invokeFunction } from "../functions/by-token";
import { SOURCE_TOKEN } from "../tokens";
import { CONFIG_SECRET_PATHS } from "./config";
import { changedSettings, checkProviderConfig, settingsReader, type ConfigFailure } from "./config-check";
import { previewOutputs } from "./preview";
import type { Properties, PropertyPath } from "./wire";

export { CancelledError } from "../core";

/** A created or updated Source that did not deploy in time: the engine records it as it is. */
export class PartialSourceError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly outputs: Properties,
  ) {
    super(message);
  }
}

/** A Source's values from the core, in the resource's names, with its secret paths and those the program marked (a secret name stays secret). */
function marked(values: UncheckedInputs, ...programSecrets: (readonly PropertyPath[])[]): Properties {
  return { values: toPulumiNames(values), secrets: [...SECRET_PATHS, ...programSecrets.flat()] };
}

/** What the engine hands back: what this provider returned (a state, check's inputs), in the core's shape. */
const inputsOf = (properties: Properties) => coreInputs(properties.values);
const stateOf = (properties: Properties) => coreState(properties.values);

/** The core's diff and its detailed diff, by the resource's property paths. */
export type NativeDiff = SourceDiff & { detailedDiff: DetailedDiff };

export class NativeProvider {
  /** The provider core, which owns the configuration and the one connection to the API. */
  private readonly core: SourceProvider;

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {
    // Warnings (a retired Source) and progress messages go to the engine's log.
    this.core = createSourceProvider({ ...providerProcessLog(), env, instructions: PULUMI_INSTRUCTIONS });
  }

  /** The configuration as values: every bad or missing setting, named (config-check.ts). */
  checkConfig(news: Properties): { inputs: Properties; failures: ConfigFailure[] } {
    return {
      inputs: { values: news.values, secrets: [...news.secrets, ...CONFIG_SECRET_PATHS] },
      failures: checkProviderConfig(news.values, this.env).failures,
    };
  }

  /** Which settings changed: never a replacement (config-check.ts). */
  diffConfig(olds: Properties, news: Properties): { changes: boolean; diffs: string[] } {
    return changedSettings(olds.values, news.values);
  }

  /** Configures the core with such values, refused (an error with each failure) unless `checkConfig` passes them. */
  async configure(values: Record<string, unknown>): Promise<void> {
    const { settings, failures } = checkProviderConfig(values, this.env);
    if (!settings) throw new Error(failures.map((failure) => failure.reason).join("; ") || "the provider's configuration is not known yet");
    this.core.configure(settingsReader(values));
  }

  async close(): Promise<void> {
    await this.core.close();
  }

  /** The engine is ending the process: the preview's estimate of its writes, if due (core/write-budget.ts). */
  finalEstimate(): Promise<void> {
    return this.core.finalEstimate();
  }

  /** The engine's Cancel: the core's waits stop, and its writes under way are answered at once. */
  cancelWaits(): void {
    this.core.cancel();
  }

  /** `isNew`: no earlier inputs (a create). */
  check(type: string, news: Properties, isNew = false): { inputs: Properties; failures: { property: string; reason: string }[] } {
    assertSource(type);
    const result = this.core.check(uncheckedInputs(news.values), isNew);
    // Refused: the engine stops, and gets back what it gave.
    const inputs =
      "inputs" in result ? marked(result.inputs, news.secrets) : { values: news.values, secrets: [...SECRET_PATHS, ...news.secrets] };
    return { inputs, failures: result.failures.map(pulumiCheckFailure) };
  }

  /**
   * Check's failures for host names that another Source holds and no change of this run releases
   * (core/hand-over/), once check passed the declaration: `inputs` are check's, `olds` the earlier
   * inputs (none for a create), `urn` the resource's (its create mark; a replacement is known by it).
   */
  async checkHandOvers(inputs: Properties, olds: Properties | undefined, urn: string): Promise<{ property: string; reason: string }[]> {
    const failures = await this.core.checkHandOvers(
      inputsOf(inputs),
      olds && toApiNames(olds.values, { declared: true }),
      pulumiCreator(urn),
    );
    return failures.map(pulumiCheckFailure);
  }

  /** `urn`: the resource's, so that its replacement is known (core/run-replacements.ts). */
  diff(id: string, olds: Properties, news: Properties, urn: string): NativeDiff {
    const [state, inputs] = [stateOf(olds), inputsOf(news)];
    const diff = this.core.diff(id, state, inputs, pulumiCreator(urn));
    return { ...diff, detailedDiff: detailedDiff(state, inputs, diff) };
  }

  async create(
    inputs: Properties,
    options: { preview: boolean; timeoutSeconds: number; urn: string },
  ): Promise<{ id: string; outputs: Properties }> {
    const creator = pulumiCreator(options.urn);
    if (options.preview) {
      await this.core.previewHandOvers(toApiNames(inputs.values), undefined, undefined, creator).catch((error: unknown): never => {
        throw withRenameHint(error);
      });
      return { id: "", outputs: marked(previewOutputs(toApiNames(inputs.values)), inputs.secrets) };
    }
    // The request's URN makes the create mark; its timeout (the resource's customTimeouts) bounds the wait.
    const write = this.core.create(inputsOf(inputs), { creator, timeoutSeconds: options.timeoutSeconds });
    const { id, outs } = await written(
      write.catch((error: unknown): never => {
        throw withRenameHint(error);
      }),
      inputs,
    );
    return { id, outputs: marked(outs, inputs.secrets) };
  }

  async update(id: string, olds: Properties, news: Properties, options: { preview: boolean; timeoutSeconds: number }): Promise<Properties> {
    if (options.preview) {
      await this.core.previewHandOvers(toApiNames(news.values), toApiNames(olds.values), id).catch((error: unknown): never => {
        throw withOrderHint(error);
      });
      return marked(previewOutputs(toApiNames(news.values), toApiNames(olds.values)), news.secrets);
    }
    const write = this.core.update(id, stateOf(olds), inputsOf(news), { timeoutSeconds: options.timeoutSeconds });
    const { outs } = await written(
      write.catch((error: unknown): never => {
        throw withOrderHint(error);
      }),
      news,
    );
    return marked(outs, news.secrets);
  }

  /**
   * Refresh (a state is given), through the core's read coalescer; import (no state): the inputs that
   * declare the Source. An answer without `outputs` or `inputs` keeps the engine's as they came: a
   * Source that did not change, whose state and inputs already hold what `marked` would give, each
   * secret marked where it would be (encoding them again would give the engine back what it sent,
   * at a cost per Read). A state written by 0.1.0, with copies of the read-only flags inside its
   * deployment, is written again, as the dynamic shell writes it.
   */
  async read(id: string, state: Properties, inputs: Properties): Promise<{ id: string; outputs?: Properties; inputs?: Properties }> {
    if (Object.keys(state.values).length === 0) {
      const imported = await this.core.import(id);
      return { id: imported.id, outputs: marked(imported.outputs), inputs: marked(imported.inputs) };
    }
    const result = await this.core.read(id, stateOf(state));
    if (result.id === "") return { id: "", outputs: { values: {}, secrets: [] }, inputs: { values: {}, secrets: [] } };
    // The core returns inputs only when the Source differs from the state; else the engine's are kept.
    if ("inputs" in result && result.inputs) {
      return { id: result.id, outputs: marked(result.props, state.secrets), inputs: marked(result.inputs, inputs.secrets) };
    }
    // Unchanged: the engine's own state and inputs go back as they came (server.ts sends the
    // request's Structs), unless encoding would give other values or mark a secret they do not.
    const outputs = marked(result.props, state.secrets);
    return {
      id: result.id,
      ...(!(marksEverySecret(state) && deepEqual(outputs.values, state.values)) && { outputs }),
      ...(!marksEverySecret(inputs) && { inputs: { values: inputs.values, secrets: [...SECRET_PATHS, ...inputs.secrets] } }),
    };
  }

  /** `urn`: the resource's, so that a replacement an interrupted run left is known (core/run-replacements.ts). */
  async delete(id: string, urn: string): Promise<void> {
    await this.core.delete(id, pulumiCreator(urn));
  }

  /** A data-source function by its token, with the connection of the configured settings (functions/by-token.ts). */
  async invoke(token: string, args: Record<string, unknown>): Promise<Properties> {
    return invokeFunction(this.core.connection().client, token, args);
  }
}

/**
 * Whether `marked(values, secrets)` would mark what `secrets` already mark: every secret path of the
 * Source that holds a value lies within a marked path (a state written before a field became secret
 * does not), and no marked path lies within another (encoding marks only the outermost).
 */
export function marksEverySecret({ values, secrets }: Properties): boolean {
  if (secrets.some((path) => secrets.some((outer) => outer !== path && outer.length < path.length && isWithin(path, outer)))) return false;
  return SECRET_PATHS.every((path) => valueAt(values, path) === undefined || secrets.some((outer) => isWithin(path, outer)));
}

function valueAt(values: unknown, path: PropertyPath): unknown {
  let value = values;
  for (const segment of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

/** A write's result; a Source not deployed in time (or cancelled) goes back to the engine as it is, to be recorded. */
async function written<T>(write: Promise<T>, inputs: Properties): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (!isSourceNotReady(error)) throw error;
    throw new PartialSourceError(error.message, error.id, marked(error.properties, inputs.secrets));
  }
}

function assertSource(type: string): void {
  if (type !== "" && type !== SOURCE_TOKEN) throw new Error(`unknown resource type ${type}: this provider has ${SOURCE_TOKEN}`);
}
