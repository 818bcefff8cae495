// The Source provider as the Pulumi engine's dynamic-provider host runs it. The resource's
// serialized provider is only a `require` of this module (see serialized-provider.ts), so every
// operation, `destroy` included, runs the installed version of this code and the state carries no
// copied source. This is a shell around the core's provider object (core/provider.ts): each value
// the host hands over is put in the core's shape once (shape.ts: `deploymentSecrets` merged in,
// the host's `__provider` taken off, the API's names), and each value going back is put in the dynamic shape once
// (the host puts `__provider` back on what the core returns, but for a Source not ready in time,
// whose properties the host reads from the error).
// The resource options the host does not pass, `replaceOnChanges` and `customTimeouts`, it
// reads from the Source class's input (resource-options.ts): its diff names the replacements, its
// create and update pass the timeouts, as the engine does for the native plugin.
// First, before the other modules load (tsc's CommonJS output keeps this order).
import { assertSupportedNode } from "@asset-delivery/sdk/node-version";
assertSupportedNode("@asset-delivery/provider");
import type * as pulumi from "@pulumi/pulumi";
import { createSourceProvider, isSourceNotReady } from "../core";
import { providerProcessLog } from "../engine/engine-log";
import { pulumiCreator } from "../engine/creator";
import { PULUMI_INSTRUCTIONS } from "../pulumi-names/instructions";
import { pulumiConfigReader } from "../pulumi-names/config-keys";
import { withOrderHint, withRenameHint } from "../engine/rename-hint";
import { beforeEngineShutdown, guardProviderProcess } from "../engine/engine-guard";
import { PROVIDER_KEY } from "./serialized-provider";
import { isEngineUnknown } from "../engine/unknowns";
import { nativeShape, optionsInput, OPTIONS_KEY, toCore, toDynamic, urnOf, URN_KEY, type DynamicValues } from "./shape";
import { replacingKeys, resourceOptionsOf } from "./resource-options";
import { detailedDiff } from "../engine/detailed-diff";
import { coreInputs, coreState, uncheckedInputs } from "../pulumi-names/source";
import { pulumiCheckFailure } from "../pulumi-names/paths";

// Warnings and progress messages go to the engine's log (the host passes its address last).
const core = createSourceProvider({ ...providerProcessLog(), instructions: PULUMI_INSTRUCTIONS });

// Loaded by @pulumi/pulumi's dynamic-provider host, which never notices its engine going away:
// this process must end with its engine (engine/engine-guard.ts). Not when a test or a script loads it.
// The preview's estimate of the time its writes take at the hourly limits is made as the engine
// ends the process (core/write-budget.ts).
if (/[\\/]cmd[\\/]dynamic-provider(?:[\\/]index\.js)?$/.test(require.main?.filename ?? "")) {
  guardProviderProcess();
  beforeEngineShutdown(() => core.finalEstimate());
}

// The engine hands back what `check` returned as the inputs of diff, create and update, and what
// create, update and read returned as the state: in the core's shape, those are its types.
const inputsOf = (values: DynamicValues) => coreInputs(nativeShape(values));
const stateOf = (values: DynamicValues) => coreState(nativeShape(values));

/**
 * A Source written but not ready, as the host reads it: an error with `id` (and `properties`,
 * `reasons`) becomes "created (or updated) but not initialized", the Source recorded with these
 * properties, in the dynamic shape.
 */
class DynamicSourceNotReadyError extends Error {
  override readonly name = "SourceNotReadyError";
  constructor(
    readonly id: string,
    readonly properties: DynamicValues,
    readonly reasons: string[],
  ) {
    super(reasons.join("; "));
  }
}

/** A write's outputs in the dynamic shape; a Source not ready in time keeps the host's property in the state the error carries. */
async function written<T extends { outs: object }>(inputs: DynamicValues, write: Promise<T>): Promise<T & { outs: DynamicValues }> {
  try {
    const result = await write;
    return { ...result, outs: toDynamic(result.outs, inputs) };
  } catch (error) {
    if (!isSourceNotReady(error)) throw error;
    const properties = { ...toDynamic(error.properties, inputs), [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
    throw new DynamicSourceNotReadyError(error.id, properties, error.reasons);
  }
}

export const sourceProvider = {
  async configure(request: pulumi.dynamic.ConfigureRequest): Promise<void> {
    core.configure(pulumiConfigReader((key) => request.config.get(key)));
  },
  async check(olds: object, news: DynamicValues): Promise<pulumi.dynamic.CheckResult> {
    const isNew = Object.keys(olds).length === 0; // a create, for the run's write budget
    const result = core.check(toCore(news, { declared: true }), isNew);
    // A valid declaration's host names, against who holds them (one listing of the account a run).
    // The URN is the Source class's (source.ts), never a program's: anything else there is a bug, named.
    const urn = news[URN_KEY];
    const creator = typeof urn === "string" && !isEngineUnknown(urn) ? pulumiCreator(urn) : undefined;
    const held =
      "inputs" in result
        ? await core.checkHandOvers(
            result.inputs,
            isNew ? undefined : uncheckedInputs(toCore(olds as DynamicValues, { declared: true })),
            creator,
          )
        : [];
    const urnFailures =
      urn === undefined || isEngineUnknown(urn) || typeof urn === "string"
        ? []
        : [{ property: URN_KEY, reason: `${URN_KEY}: must be a Pulumi URN` }];
    const optionFailures = resourceOptionsOf(news).failures.map((reason) => ({ property: OPTIONS_KEY, reason }));
    // Refused: the engine stops, and gets back what it gave.
    const inputs = "inputs" in result ? { ...toDynamic(result.inputs, news), ...optionsInput(news) } : news;
    return { inputs, failures: [...urnFailures, ...optionFailures, ...[...result.failures, ...held].map(pulumiCheckFailure)] };
  },
  async diff(id: string, olds: DynamicValues, news: DynamicValues): Promise<pulumi.dynamic.DiffResult> {
    const urn = urnOf(news);
    const [state, inputs] = [stateOf(olds), inputsOf(news)];
    const diff = core.diff(id, state, inputs, urn === undefined ? undefined : pulumiCreator(urn));
    // The engine would match replaceOnChanges against a detailed diff, which the host cannot send: matched here.
    const listed = resourceOptionsOf(news).options.replaceOnChanges;
    const replaced = diff.changes && listed.length > 0 ? replacingKeys(detailedDiff(state, inputs, diff).keys(), listed) : [];
    return { changes: diff.changes, replaces: [...new Set([...diff.replaces, ...replaced])], deleteBeforeReplace: false };
  },
  async create(inputs: DynamicValues): Promise<pulumi.dynamic.CreateResult> {
    const urn = urnOf(inputs);
    // The resource's customTimeouts bound the wait, as the engine's timeout bounds the native plugin's.
    const timeoutSeconds = resourceOptionsOf(inputs).options.timeoutSeconds.create;
    const create = core.create(inputsOf(inputs), { ...(urn !== undefined && { creator: pulumiCreator(urn) }), timeoutSeconds });
    return written(
      inputs,
      create.catch((error: unknown): never => {
        throw withRenameHint(error);
      }),
    );
  },
  async read(id: string, state: DynamicValues): Promise<pulumi.dynamic.ReadResult> {
    const result = await core.read(id, stateOf(state));
    if (!("inputs" in result)) return result.id === "" ? result : { id: result.id, props: toDynamic(result.props, state) };
    return { id: result.id, props: toDynamic(result.props, state), ...(result.inputs && { inputs: toDynamic(result.inputs, state) }) };
  },
  async update(id: string, olds: DynamicValues, news: DynamicValues): Promise<pulumi.dynamic.UpdateResult> {
    const timeoutSeconds = resourceOptionsOf(news).options.timeoutSeconds.update;
    return written(
      news,
      core.update(id, stateOf(olds), inputsOf(news), { timeoutSeconds }).catch((error: unknown): never => {
        throw withOrderHint(error);
      }),
    );
  },
  async delete(id: string, state: DynamicValues = {}): Promise<void> {
    const urn = urnOf(state);
    await core.delete(id, urn === undefined ? undefined : pulumiCreator(urn));
  },
} satisfies pulumi.dynamic.ResourceProvider;
