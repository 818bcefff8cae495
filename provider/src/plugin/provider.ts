// The native plugin's provider: the ResourceProvider operations on plain values (the gRPC server
// in server.ts only decodes and encodes), each a thin shell over the provider core: check, diff,
// the lifecycle functions, the read coalescer and the data-source functions are the dynamic
// resource's, so a rule, a default or a request is never written twice. What is the plugin's own:
// secrets marked where they live, detailed diffs, previews with the outputs that will change
// unknown, import, customTimeouts, Cancel, and the create mark's URN taken from the request.
// Values from the engine are parsed into the core's types here, at the edge.
import deepEqual from "fast-deep-equal";
import { isPlainObject, type AssetDeliveryClient } from "@asset-delivery/sdk";
import { parseSourceInputs } from "../core/check";
import { READ_ONLY_ATTRIBUTE_NAMES, READ_ONLY_NAMES, sourceOutputs, type SourceInputs, type SourceState } from "../core/codec";
import { declarationOf } from "../core/declaration";
import { comparableDeployment, secretFlagMismatches } from "../core/diff";
import { containsUnknown } from "../core/unknowns";
import { engineAddress, engineInfo, engineWarnings } from "../core/engine-log";
import { SourceNotReadyError } from "../core/lifecycle/settle";
import { createSourceProvider, type SourceProvider } from "../core/provider";
import { providerOptions, providerOptionsSchema, withoutProviderOptions, type ProviderOptionKey } from "../core/provider-options";
import { reportOf, reportsOf } from "../functions/reports";
import { sourceOf, sourcesOf } from "../functions/sources";
import { videoJobOf } from "../functions/videos";
import { checkProviderConfig, CONFIG_SECRET_PATHS, settingsReader, type ConfigFailure } from "./config";
import { leafChanges, type DiffKind } from "./detailed-diff";
import { PACKAGE_NAME, SOURCE_TOKEN } from "./schema";
import { fromCore, SECRET_PATHS, stateOf, toCore, type NativeSource } from "./source-shape";
import { UNKNOWN, type Properties, type PropertyPath } from "./wire";

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface DiffResult {
  changes: boolean;
  replaces: string[];
  /** Changed leaves by property path. */
  detailedDiff: Map<string, DiffKind>;
}

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

export class CancelledError extends Error {
  constructor() {
    super("cancelled: the engine asked the provider to stop (the Source may still be deploying; a refresh shows where it stands)");
  }
}

/** Secret paths to keep: the Source's own, and those the program marked (a secret name stays secret). */
function withSecretsOf(values: NativeSource, ...marked: (readonly PropertyPath[])[]): Properties {
  return { values, secrets: [...SECRET_PATHS, ...marked.flat()] };
}

export class NativeProvider {
  /** The provider core, which owns the configuration and the one connection to the API. */
  private readonly core: SourceProvider;
  /** Aborted by the engine's Cancel: the core's waits for deployments stop with a CancelledError. */
  private readonly cancellation = new AbortController();
  private readonly cancelled: Promise<never>;

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {
    const { signal } = this.cancellation;
    // The engine passes its address last: warnings (a retired Source) go to its log.
    const address = engineAddress(process.argv);
    this.core = createSourceProvider({ warn: engineWarnings(address), info: engineInfo(address), env, signal });
    this.cancelled = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
    this.cancelled.catch(() => undefined); // only raced against, never awaited alone
  }

  // ---- configuration ----

  checkConfig(news: Properties): { inputs: Properties; failures: ConfigFailure[] } {
    const { failures } = checkProviderConfig(news.values, this.env);
    return { inputs: { values: news.values, secrets: [...news.secrets, ...CONFIG_SECRET_PATHS] }, failures };
  }

  diffConfig(olds: Properties, news: Properties): { changes: boolean; diffs: string[] } {
    // A new key, address or pacing changes how the provider talks to the service, never which
    // Sources exist: no replacement (which would replace every Source of the provider).
    const keys = new Set([...Object.keys(olds.values), ...Object.keys(news.values)]);
    const diffs = [...keys].filter((key) => !deepEqual(olds.values[key], news.values[key]));
    return { changes: diffs.length > 0, diffs };
  }

  async configure(values: Record<string, unknown>): Promise<void> {
    const { settings, failures } = checkProviderConfig(values, this.env);
    if (!settings) throw new Error(failures.map((failure) => failure.reason).join("; ") || "the provider's configuration is not known yet");
    this.core.configure(settingsReader(values));
  }

  async close(): Promise<void> {
    await this.core.close();
  }

  /**
   * The engine's Cancel: the core's waits for deployments stop at once (no further poll), and every
   * write under way (a request, a pacing wait) is answered at once, with a CancelledError.
   */
  cancelWaits(): void {
    this.cancellation.abort(new CancelledError());
  }

  private async untilCancelled<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.cancelled]);
  }

  // ---- the Source ----

  /** `isNew`: no earlier inputs (a create), for the run's write budget. */
  check(type: string, news: Properties, isNew = false): { inputs: Properties; failures: CheckFailure[] } {
    assertSource(type);
    this.core.writes.checked(isNew);
    // The create mark's URN is the engine's (create's request), never a property.
    if ("resourceUrn" in news.values)
      return { inputs: news, failures: [{ property: "resourceUrn", reason: `resourceUrn: not a property of ${SOURCE_TOKEN}` }] };
    const result = this.core.check(toCore(news.values));
    return { inputs: withSecretsOf(fromCore(result.inputs), news.secrets), failures: result.failures };
  }

  diff(id: string, olds: Properties, news: Properties): DiffResult {
    const oldState = stateOf(olds.values);
    const newInputs = previewInputsOf(news.values);
    const { changes, replaces, changed } = this.core.diff(id, oldState, newInputs);
    const detailedDiff = new Map<string, DiffKind>();
    for (const key of changed) {
      if (key === "deployment" || key === "deploymentSecrets") continue;
      leafChanges(olds.values[key], news.values[key], [key], detailedDiff);
    }
    if (changed.includes("deployment") || changed.includes("deploymentSecrets")) {
      const newDeployment = news.values.deployment as SourceState["deployment"];
      const oldDeployment = olds.values.deployment as SourceState["deployment"];
      leafChanges(
        comparableDeployment(oldDeployment, newDeployment),
        comparableDeployment(newDeployment, newDeployment),
        ["deployment"],
        detailedDiff,
      );
      // A secret cleared or set behind Pulumi's back shows only in the server's flag.
      for (const { secret } of secretFlagMismatches(oldState, newInputs)) detailedDiff.set(`deployment.${secret}`, "update");
    }
    for (const key of replaces) detailedDiff.set(key, "update");
    return { changes, replaces, detailedDiff };
  }

  /**
   * `urn`: the request's, which the core writes into the create mark (core/create-mark.ts), so that
   * a Source whose create was killed before the engine recorded it is recognised by the next
   * create of this resource, as for the dynamic Source. It stays out of the state.
   */
  async create(
    inputs: Properties,
    options: { preview: boolean; timeoutSeconds: number; urn: string },
  ): Promise<{ id: string; outputs: Properties }> {
    if (options.preview) {
      await this.core.writes.previewWrite(); // held until the preview's estimate is made (write-budget.ts)
      return { id: "", outputs: withSecretsOf(previewOutputs(inputs.values, {}), inputs.secrets) };
    }
    const declared = withTimeout(parseSourceInputs(toCore(inputs.values)), options.timeoutSeconds);
    const { id, outs } = await this.written(() => this.core.create({ ...declared, resourceUrn: options.urn }), inputs);
    return { id, outputs: withSecretsOf(declaredOptions(fromCore(outs), inputs.values), inputs.secrets) };
  }

  async update(id: string, olds: Properties, news: Properties, options: { preview: boolean; timeoutSeconds: number }): Promise<Properties> {
    if (options.preview) {
      await this.core.writes.previewWrite();
      return withSecretsOf(previewOutputs(news.values, olds.values), news.secrets);
    }
    const declared = withTimeout(parseSourceInputs(toCore(news.values)), options.timeoutSeconds);
    const { outs } = await this.written(async () => ({ id, ...(await this.core.update(id, stateOf(olds.values), declared)) }), news);
    return withSecretsOf(declaredOptions(fromCore(outs), news.values), news.secrets);
  }

  /**
   * A write, raced against Cancel. A Source that did not deploy in time, or whose wait was
   * cancelled, is returned to the engine as it is (PartialSourceError), so that the state records it.
   */
  private async written<T extends { id: string; outs: SourceState }>(write: () => Promise<T>, inputs: Properties): Promise<T> {
    const work = write();
    try {
      return await this.untilCancelled(work);
    } catch (raced) {
      // Cancelled: the core's wait ends on the same signal, with the Source it had written (to be
      // recorded); a write still under way (a request, a pacing wait) is not waited for.
      let error = raced;
      if (raced instanceof CancelledError) {
        const outcome = await outcomeWithin(work, CANCEL_GRACE_MS, raced);
        if (!(outcome instanceof Error)) return outcome; // done just before the Cancel
        error = outcome;
      }
      if (!(error instanceof SourceNotReadyError)) throw error;
      const outputs = withSecretsOf(declaredOptions(fromCore(error.properties), inputs.values), inputs.secrets);
      throw new PartialSourceError(error.message, error.id, outputs);
    }
  }

  /**
   * Refresh (a state is given): the Source as the server has it, through the read coalescer, so a
   * refresh of many Sources costs list pages. Import (no state): the inputs that declare it as it is.
   */
  async read(id: string, state: Properties, inputs: Properties): Promise<{ id: string; outputs: Properties; inputs: Properties }> {
    if (Object.keys(state.values).length === 0) return this.importSource(id);
    const result = await this.core.read(id, stateOf(state.values));
    if (!("inputs" in result) && result.id === "")
      return { id: "", outputs: { values: {}, secrets: [] }, inputs: { values: {}, secrets: [] } };
    const refreshedInputs = "inputs" in result && result.inputs ? fromCore(result.inputs) : inputs.values;
    return {
      id: result.id,
      outputs: withSecretsOf(fromCore(result.props), state.secrets),
      inputs: withSecretsOf(refreshedInputs, inputs.secrets),
    };
  }

  private async importSource(id: string) {
    const source = await this.core.connection().reads.read(id);
    if (!source)
      throw new Error(
        `Source "${id}" does not exist in the account of the API key: import needs the 24-character id of one of its Sources`,
      );
    const { adoptSourceId: _adopted, ...declared } = declarationOf(source).args;
    const options = providerOptionsSchema.parse({});
    const outputs = fromCore(sourceOutputs(source, { deploymentSecrets: {}, ...options }));
    return { id: source.id, outputs: withSecretsOf(outputs), inputs: withSecretsOf(declared) };
  }

  async delete(id: string): Promise<void> {
    await this.core.delete(id);
  }

  // ---- functions ----

  async invoke(token: string, args: Record<string, unknown>): Promise<Properties> {
    const client = this.core.connection().client;
    const fn = FUNCTIONS[token];
    if (!fn) throw new Error(`unknown function ${token}: this provider has ${Object.keys(FUNCTIONS).join(", ")}`);
    const result = (await fn(client, args as never)) as Record<string, unknown>;
    return { values: result, secrets: secretPathsOfResult(result) };
  }
}

/** How long a cancelled write may take to hand back the Source it wrote. */
const CANCEL_GRACE_MS = 200;

/** The work's result, or its error, if it settles within `ms`; else `otherwise`. */
async function outcomeWithin<T>(work: Promise<T>, ms: number, otherwise: Error): Promise<T | Error> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Error>((resolve) => (timer = setTimeout(() => resolve(otherwise), ms)));
  const settled = work.then(
    (value) => value,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  return Promise.race([settled, late]).finally(() => clearTimeout(timer));
}

function assertSource(type: string): void {
  if (type !== "" && type !== SOURCE_TOKEN) throw new Error(`unknown resource type ${type}: this provider has ${SOURCE_TOKEN}`);
}

type InvokeFunction = (client: AssetDeliveryClient, args: never) => Promise<unknown>;

// The arguments are the schema's; the sdk's client checks each value it sends (ids, filters, sorts)
// and names a bad one, as for the program-side functions.
const FUNCTIONS: Record<string, InvokeFunction> = {
  [`${PACKAGE_NAME}:index:getSource`]: sourceOf,
  [`${PACKAGE_NAME}:index:getSources`]: sourcesOf,
  [`${PACKAGE_NAME}:index:getReports`]: reportsOf,
  [`${PACKAGE_NAME}:index:getReport`]: reportOf,
  [`${PACKAGE_NAME}:index:getVideoJob`]: videoJobOf,
};

/** A Source's secure-URL token is secret wherever a function returns it. */
function secretPathsOfResult(result: Record<string, unknown>): PropertyPath[] {
  if (Array.isArray(result.sources)) return result.sources.map((_, index) => ["sources", index, "secureUrlToken"]);
  return [["secureUrlToken"]];
}

/**
 * What a preview shows for a create (no earlier state) or an update: the declared values, and what
 * the server will decide unknown: the deployment's status and date, the token, the read-only flags,
 * and the annotation when none is declared. An update that changes nothing the server decides
 * keeps the state's values.
 */
function previewOutputs(inputs: NativeSource, state: NativeSource): NativeSource {
  const deployment = isPlainObject(inputs.deployment) ? inputs.deployment : {};
  const oldDeployment = isPlainObject(state.deployment) ? state.deployment : undefined;
  const redeploys =
    oldDeployment === undefined ||
    !deepEqual(
      comparableDeployment(oldDeployment as SourceState["deployment"], deployment as SourceState["deployment"]),
      comparableDeployment(deployment as SourceState["deployment"], deployment as SourceState["deployment"]),
    ) ||
    inputs.enabled !== state.enabled;
  const decided = redeploys
    ? Object.fromEntries([...READ_ONLY_ATTRIBUTE_NAMES, ...READ_ONLY_NAMES].map((name) => [name, UNKNOWN]))
    : Object.fromEntries([...READ_ONLY_ATTRIBUTE_NAMES, ...READ_ONLY_NAMES].map((name) => [name, state[name]]));
  if (deployment.secureUrlEnabled === false) delete decided.secureUrlToken;
  const annotation = deployment.annotation ?? (redeploys ? UNKNOWN : oldDeployment?.annotation);
  return { ...decided, ...inputs, deployment: { ...deployment, annotation } };
}

/** The resource's customTimeouts (seconds, 0 when none) bound the wait when shorter than its own. */
function withTimeout(inputs: SourceInputs, timeoutSeconds: number): SourceInputs {
  if (!(timeoutSeconds > 0)) return inputs;
  const seconds = Math.max(1, Math.floor(Math.min(inputs.deploymentTimeoutSeconds, timeoutSeconds)));
  return { ...inputs, deploymentTimeoutSeconds: seconds };
}

/**
 * The state records the options as declared: not the bound a customTimeouts put on one wait, nor
 * the URN the create mark was made of (the engine keeps the URN; a property would show in the schema's place).
 */
function declaredOptions(outputs: NativeSource, inputs: NativeSource): NativeSource {
  return { ...withoutProviderOptions(outputs), ...providerOptions(inputs as Partial<Record<ProviderOptionKey, unknown>>) };
}

/**
 * Diff's new inputs: what check returned, parsed again; during a preview some value may not be
 * known yet, and such inputs are compared as they are (the core's diff counts an unknown value as a change).
 */
function previewInputsOf(values: NativeSource): SourceInputs {
  const core = toCore(values);
  return containsUnknown(core) ? (core as SourceInputs) : parseSourceInputs(core);
}
