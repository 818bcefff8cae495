// The native plugin's provider: the ResourceProvider operations on plain values (the gRPC server
// in server.ts only decodes and encodes), each a translation of the engine's call to the provider
// core's: the Source keeps the core's shape, each secret marked where it lives (the core's
// SECRET_PATHS, from the sdk's field table). What is the plugin's own: the engine's Cancel, and the
// Source type and function tokens of its schema.
import { SECRET_PATHS, type SourceInputs, type SourceState } from "../core/codec";
import { engineAddress, engineInfo, engineWarnings } from "../core/engine-log";
import { isSourceNotReady } from "../core/lifecycle/settle";
import { createSourceProvider, type SourceProvider } from "../core/provider";
import { invokeFunction } from "../functions/by-token";
import { SOURCE_TOKEN } from "../tokens";
import { changedSettings, checkProviderConfig, CONFIG_SECRET_PATHS, settingsReader, type ConfigFailure } from "./config";
import { Cancellation } from "./cancellation";
import type { CheckFailure } from "../core/check";
import type { SourceDiff } from "../core/diff";
import type { Properties, PropertyPath } from "./wire";

export { CancelledError } from "./cancellation";

export type DiffResult = Pick<SourceDiff, "changes" | "replaces" | "detailedDiff">;

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

/** A Source's values with its secret paths, and those the program marked (a secret name stays secret). */
function marked(values: Record<string, unknown>, ...programSecrets: (readonly PropertyPath[])[]): Properties {
  return { values, secrets: [...SECRET_PATHS, ...programSecrets.flat()] };
}

export class NativeProvider {
  /** The provider core, which owns the configuration and the one connection to the API. */
  private readonly core: SourceProvider;
  /** The engine's Cancel: the core's waits for deployments stop with a CancelledError. */
  private readonly cancellation = new Cancellation();

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {
    // The engine passes its address last: warnings (a retired Source) go to its log.
    const address = engineAddress(process.argv);
    this.core = createSourceProvider({ warn: engineWarnings(address), info: engineInfo(address), env, signal: this.cancellation.signal });
  }

  checkConfig(news: Properties): { inputs: Properties; failures: ConfigFailure[] } {
    const { failures } = checkProviderConfig(news.values, this.env);
    return { inputs: { values: news.values, secrets: [...news.secrets, ...CONFIG_SECRET_PATHS] }, failures };
  }

  diffConfig(olds: Properties, news: Properties): { changes: boolean; diffs: string[] } {
    return changedSettings(olds.values, news.values);
  }

  async configure(values: Record<string, unknown>): Promise<void> {
    const { settings, failures } = checkProviderConfig(values, this.env);
    if (!settings) throw new Error(failures.map((failure) => failure.reason).join("; ") || "the provider's configuration is not known yet");
    this.core.configure(settingsReader(values));
  }

  async close(): Promise<void> {
    await this.core.close();
  }

  /** The engine's Cancel: the core's waits stop at once, and every write under way is answered at once (cancellation.ts). */
  cancelWaits(): void {
    this.cancellation.cancel();
  }

  /** `isNew`: no earlier inputs (a create), for the run's write budget. */
  check(type: string, news: Properties, isNew = false): { inputs: Properties; failures: CheckFailure[] } {
    assertSource(type);
    this.core.writes.checked(isNew);
    // The create mark's URN is the engine's (create's request), never a property.
    if ("resourceUrn" in news.values)
      return { inputs: news, failures: [{ property: "resourceUrn", reason: `resourceUrn: not a property of ${SOURCE_TOKEN}` }] };
    const result = this.core.check(news.values);
    return { inputs: marked(result.inputs, news.secrets), failures: result.failures };
  }

  diff(id: string, olds: Properties, news: Properties): DiffResult {
    // The engine hands back what this provider returned: a state, and check's inputs.
    return this.core.diff(id, olds.values as SourceState, news.values as SourceInputs);
  }

  async create(
    inputs: Properties,
    options: { preview: boolean; timeoutSeconds: number; urn: string },
  ): Promise<{ id: string; outputs: Properties }> {
    if (options.preview) {
      await this.core.writes.previewWrite(); // held until the preview's estimate is made (write-budget.ts)
      return { id: "", outputs: marked(this.core.preview(inputs.values), inputs.secrets) };
    }
    const { id, outs } = await this.written(this.core.create(inputs.values as SourceInputs, options), inputs);
    return { id, outputs: marked(outs, inputs.secrets) };
  }

  async update(id: string, olds: Properties, news: Properties, options: { preview: boolean; timeoutSeconds: number }): Promise<Properties> {
    if (options.preview) {
      await this.core.writes.previewWrite();
      return marked(this.core.preview(news.values, olds.values), news.secrets);
    }
    const { outs } = await this.written(this.core.update(id, olds.values as SourceState, news.values as SourceInputs, options), news);
    return marked(outs, news.secrets);
  }

  /** A write raced against Cancel; a Source not deployed in time (or cancelled) goes back to the engine as it is, to be recorded. */
  private async written<T>(write: Promise<T>, inputs: Properties): Promise<T> {
    try {
      return await this.cancellation.untilCancelled(write);
    } catch (error) {
      if (!isSourceNotReady(error)) throw error;
      throw new PartialSourceError(error.message, error.id, marked(error.properties, inputs.secrets));
    }
  }

  /** Refresh (a state is given), through the core's read coalescer; import (no state): the inputs that declare the Source. */
  async read(id: string, state: Properties, inputs: Properties): Promise<{ id: string; outputs: Properties; inputs: Properties }> {
    if (Object.keys(state.values).length === 0) {
      const imported = await this.core.import(id);
      return { id: imported.id, outputs: marked(imported.outputs), inputs: marked(imported.inputs) };
    }
    const result = await this.core.read(id, state.values as SourceState);
    if (result.id === "") return { id: "", outputs: { values: {}, secrets: [] }, inputs: { values: {}, secrets: [] } };
    const refreshed = "inputs" in result && result.inputs ? result.inputs : inputs.values;
    return { id: result.id, outputs: marked(result.props, state.secrets), inputs: marked(refreshed, inputs.secrets) };
  }

  async delete(id: string): Promise<void> {
    await this.core.delete(id);
  }

  /** A data-source function by its token, with the connection of the configured settings (functions/by-token.ts). */
  async invoke(token: string, args: Record<string, unknown>): Promise<Properties> {
    return invokeFunction(this.core.connection().client, token, args);
  }
}

function assertSource(type: string): void {
  if (type !== "" && type !== SOURCE_TOKEN) throw new Error(`unknown resource type ${type}: this provider has ${SOURCE_TOKEN}`);
}
