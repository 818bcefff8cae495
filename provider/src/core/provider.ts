// The Source provider object: one per provider process (the dynamic resource's, the native
// plugin's), built by `createSourceProvider`. It owns its configuration and its connections to the
// API, and runs each step of a Source's life on the core's one shape (codec.ts: the sdk's types in
// the API's names, each secret where it lives): `check` parses the program's inputs into
// `SourceInputs`, which the engine hands back to `diff`, `create` and `update`; `create`, `update`
// and `read` return the `SourceState` the engine keeps; the run's write budget and the engine's
// Cancel are decided here too. The shells around it (dynamic/runtime.ts, plugin/provider.ts)
// translate their engine's calls, rename once at their edges (pulumi-names/), and decide what is
// their engine's alone: the plugin checks its configuration given as values (CheckConfig,
// DiffConfig, Configure), shows a preview's outputs and keeps an unchanged Read's Structs; the
// dynamic shell checks the URN input its Source class adds.
import { Cancellation } from "./cancellation";
import { checkSource, type CheckFailure, type CheckResult } from "./check";
import type { SourceInputs, SourceState, UncheckedInputs } from "./codec";
import type { Creator } from "./create-mark";
import { connect, type Connection } from "./connection";
import { diffSource, type SourceDiff } from "./diff";
import { pacingLimits } from "@asset-delivery/sdk";
import type { Info, Warn } from "./log";
import { createSource, type WriteOptions } from "./lifecycle/create";
import { importSource, type ImportedSource } from "./lifecycle/import";
import { readSource, type ReadResult } from "./lifecycle/read";
import { retireSource } from "./lifecycle/retire";
import { updateSource } from "./lifecycle/update";
import { RunHandOvers } from "./hand-over/run-hand-overs";
import type { NewSource } from "./hand-over/take-over";
import { keptMessage, RunReplacements } from "./run-replacements";
import type { Session } from "./session";
import { refuseInsecureBaseUrl, resolveSettings, type ProviderSettings } from "./settings";
import { TRUSTED_SECRETS_NAME, type ConfigReader } from "./config-names";
import { WriteBudget } from "./write-budget";
import { trustedSecretsCache } from "./trusted-secrets";
import { PLAIN_INSTRUCTIONS, type Instructions } from "./instructions";

export interface SourceProviderOptions {
  /** Where warnings go (both shells pass the engine's log). */
  warn: Warn;
  /** Where progress messages go (the engine's log); default: nowhere. */
  info?: Info;
  /** The environment the settings fall back to. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** What its messages tell the user to do, in the words of the shell's tool (core/instructions.ts). Default the plain words. */
  instructions?: Instructions;
}

export interface SourceProvider {
  /** The configuration (settings.ts); read when an operation needs the API, not before. */
  configure(config: ConfigReader): void;
  /**
   * Every rule, before any request: see check.ts. Needs no configuration; refuses a configured
   * http:// baseUrl on a host other than loopback (settings.ts), so that a preview refuses it too.
   * `isNew` (no earlier inputs: a create) counts it in the run's write budget.
   */
  check(news: UncheckedInputs, isNew?: boolean): CheckResult;
  /**
   * Check's failures for host names the declaration takes that another Source holds and no change
   * of this run releases (hand-over/): through the read coalescer's listing of the account, once a
   * run. `oldInputs`: the earlier inputs (none for a create, or a replacement: run-replacements.ts);
   * `creator`: the resource's. None without configuration.
   */
  checkHandOvers(inputs: SourceInputs | UncheckedInputs, oldInputs?: UncheckedInputs, creator?: Creator): Promise<CheckFailure[]>;
  /**
   * A preview's write (the native plugin's preview Create and Update): refused as the write would
   * be for a host name another Source holds, waiting for the engine to show the holder's change.
   */
  previewHandOvers(news: UncheckedInputs, olds?: UncheckedInputs, id?: string, creator?: Creator): Promise<void>;
  /**
   * What changes, and whether it replaces the Source (another adopted Source). Needs no
   * configuration. `creator`: the resource's, so that its replacement is known (run-replacements.ts).
   */
  diff(id: string, olds: SourceState, news: SourceInputs, creator?: Creator): SourceDiff;
  /** A write (create, update) raced against `cancel`. */
  create(inputs: SourceInputs, options?: WriteOptions): Promise<{ id: string; outs: SourceState }>;
  /** A refresh; an empty id when the Source is gone. */
  read(id: string, state: SourceState): Promise<ReadResult>;
  /** An import: the Source as the server has it, and the inputs that declare it. */
  import(id: string): Promise<ImportedSource>;
  update(id: string, olds: SourceState, news: SourceInputs, options?: Omit<WriteOptions, "creator">): Promise<{ outs: SourceState }>;
  /**
   * Retires the Source (the API cannot delete one), but one its resource's replacement holds
   * (run-replacements.ts). `creator`: the resource's, which knows a replacement an interrupted run left.
   */
  delete(id: string, creator?: Creator): Promise<void>;
  /**
   * The connection of the configured settings, shared with the steps above: for what a shell does
   * beyond them (the plugin's data-source functions), so a provider has one connection.
   */
  connection(): Connection;
  /**
   * The engine is ending the process (both shells call this then): a preview whose writes exceed
   * the hourly budgets warns of the least time they take (write-budget.ts, counted by `check` and
   * `diff`, with the release-only PATCHes of the run's hand-overs), delivered before this
   * resolves; and a preview's host names that a check let pass for a holder not shown then and
   * that no change of the run releases (hand-over/), one warning each.
   */
  finalEstimate(): Promise<void>;
  /**
   * The engine's Cancel (cancellation.ts): every wait for a deployment stops, and a write under way
   * is answered at once: a SourceNotReadyError with the Source it wrote, else a CancelledError.
   */
  cancel(): void;
  /** Closes its connections: the provider is done. */
  close(): Promise<void>;
}

export function createSourceProvider({
  warn,
  info = async () => {},
  env = process.env,
  instructions = PLAIN_INSTRUCTIONS,
}: SourceProviderOptions): SourceProvider {
  let config: ConfigReader = () => undefined;
  // The secrets the user declared the server holds (trusted-secrets.ts): from the same configuration.
  let trustedSetting: () => unknown = () => undefined;
  const trustedSecrets = trustedSecretsCache(instructions);
  // One connection per set of settings, for the provider's life, so that reads arriving together
  // share requests and pacing covers every call. The settings are resolved once per configuration,
  // when an operation first needs them (the configuration may come after the first check); one
  // that fails (a setting missing or bad) is resolved again by the next operation, to fail the same
  // way or to find what has been set since.
  const connections = new Map<string, Connection>();
  let configured: { settings: ProviderSettings; connection: Connection } | undefined;

  /** The settings, for what needs only some of them (the pacing of a preview's estimate). */
  function settingsOrUndefined() {
    try {
      return resolved().settings;
    } catch {
      return undefined;
    }
  }

  /** The configuration's settings and their connection, resolved once per configuration. */
  function resolved(): { settings: ProviderSettings; connection: Connection } {
    if (configured) return configured;
    const settings = resolveSettings(config, env, instructions);
    const key = JSON.stringify([settings.baseUrl, settings.apiKey, settings.pacing, settings.deliveryDomain, settings.maxWait]);
    let opened = connections.get(key);
    if (!opened) {
      opened = connect(settings, {
        onResponse: (response) => run.writes.onResponse(response),
        onPacingWait: (wait) => run.writes.onPacingWait(wait),
      });
      connections.set(key, opened);
    }
    configured = { settings, connection: opened };
    return configured;
  }

  function connection(): Connection {
    return resolved().connection;
  }

  function session(): Session {
    return { ...connection(), warn, instructions, signal: run.cancellation.signal, trustedSecrets: () => trustedSecrets(trustedSetting()) };
  }

  /**
   * A run's state, which ends with the run: its Cancel, its write budget's counts, its hand-overs
   * (the changes it declared, writes in release-before-take order, the account's listing) and its
   * replacements. A configuration starts a new run: the engine configures a provider process once,
   * before its first check (a process serving several runs, a test's, starts each clean).
   */
  function newRun() {
    const cancellation = new Cancellation(instructions);
    return {
      cancellation,
      writes: new WriteBudget({ warn, info, instructions, limits: () => pacingLimits(settingsOrUndefined()?.pacing) }),
      handOvers: new RunHandOvers(session, { signal: cancellation.signal }),
      replacements: new RunReplacements(),
    };
  }
  let run = newRun();

  /** A create's resource: who creates it and, for a replacement, the Source it replaces (its diff's update withdrawn). */
  function newSource(creator: Creator | undefined, deployment?: unknown): NewSource {
    const replaces = run.replacements.replacing(creator, deployment);
    if (replaces !== undefined) run.handOvers.replacing(replaces);
    return { ...(creator !== undefined && { creator }), ...(replaces !== undefined && { replaces }) };
  }

  /** A write refused under maxWait fails with the budget's own message. */
  async function explained<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      throw run.writes.explain(error);
    }
  }

  return {
    configure(reader) {
      config = reader;
      configured = undefined;
      trustedSetting = () => reader(TRUSTED_SECRETS_NAME);
      run = newRun();
      for (const opened of connections.values()) opened.reads.forget();
    },
    check: (news, isNew = false) => {
      run.writes.checked(isNew);
      run.handOvers.checked();
      refuseInsecureBaseUrl(config, env, instructions); // before any request: a preview refuses it too
      return checkSource(news);
    },
    diff: (id, olds, news, creator) => {
      const diff = diffSource(id, olds, news);
      run.writes.diffed(diff.changes, diff.replaces.length > 0);
      run.handOvers.noteCreator(creator);
      run.replacements.noteDiff(creator, id, olds.deployment);
      if (diff.replaces.length === 0) run.handOvers.diffed(id, olds, news);
      return diff;
    },
    checkHandOvers: async (inputs, oldInputs, creator) => {
      run.handOvers.noteCreator(creator);
      const created = oldInputs === undefined ? newSource(creator, inputs.deployment) : {};
      if (!settingsOrUndefined()) return [];
      const failures = await run.handOvers.checkFailures(inputs, oldInputs, created);
      // A forced replacement has no diff: its check finds its own Source holding its names.
      if (oldInputs === undefined && failures.length === 0)
        for (const id of await run.handOvers.takenOver(inputs, created)) run.replacements.takesOver(creator, id);
      return failures;
    },
    previewHandOvers: async (news, olds, id, creator) => {
      const created = olds === undefined ? newSource(creator) : {};
      if (settingsOrUndefined()) await run.handOvers.preview(news, olds, id, created);
    },
    create: async (inputs, options = {}) => {
      const current = run;
      const created = newSource(options.creator);
      return current.cancellation.untilCancelled(
        explained(async () => {
          const result = await current.handOvers.create(inputs, created, () =>
            createSource(session(), inputs, {
              ...options,
              ...created,
              keepsNames: current.replacements.keepsNames(options.creator),
              onTakeOver: (id) => current.replacements.tookOver(id),
            }),
          );
          if (created.replaces === result.id) current.handOvers.written(result.id, result.outs);
          // Deleted first for this replacement, which did not take it over: retired now.
          const retire = current.replacements.created(options.creator, result.id);
          if (retire !== undefined) await retireSource(session(), retire);
          return result;
        }),
      );
    },
    read: async (id, state) => readSource(session(), id, state),
    import: async (id) => importSource(session(), id),
    update: async (id, olds, news, options = {}) =>
      run.cancellation.untilCancelled(
        explained(() => updateSource(session(), id, olds, news, { ...options, send: () => run.handOvers.update(id, olds, news) })),
      ),
    delete: async (id, creator) => {
      const kept = run.replacements.keeps(id, creator);
      if (kept === undefined) return retireSource(session(), id);
      await info(keptMessage(id, kept));
    },
    connection,
    async finalEstimate() {
      run.writes.releasesFirst(run.handOvers.releasesFirstPlanned());
      await run.writes.finalEstimate();
      for (const message of await run.handOvers.unresolved()) await warn(`${message}: ${instructions.thisRun} will refuse it`);
    },
    cancel: () => run.cancellation.cancel(),
    async close() {
      const open = [...connections.values()];
      connections.clear();
      configured = undefined;
      await Promise.all(open.map((connection) => connection.close()));
    },
  };
}
