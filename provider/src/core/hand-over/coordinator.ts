// The run's hand-overs of host names, sent in the order plan.ts decides. One per run of a provider
// object (the provider starts a new one at each configuration): the native plugin's process serves
// every Source of its provider in a run, and the dynamic provider's host loads the runtime once per
// process (its provider cache), so the Sources of a program share one too.
//
// The engine shows a run's changes one resource at a time (check, then diff: never two at once,
// and never while waiting: a check or diff that waited would hold up every later one), and runs the
// writes as it pleases: with `--parallel 1` one at a time, so a write that waited for another write
// to release a name could wait for ever. So the writes do not wait for each other: a write that
// takes a name a diffed change of this run releases sends that change itself (its PATCHes as its own
// update would, once: when the engine then asks for that update, it gets what was sent), or, in a
// cycle, that change's release-only PATCH first. A wait is only for what the engine has not shown
// yet (the holder's diff). When the holder is known to be a resource of this run (`comesInThisRun`:
// its create mark says so), the engine will show it: the wait lasts up to `maxWaitMs` (a holder
// waiting on a slow dependency registers late). Otherwise it ends when the engine has shown nothing
// new for `quietMs`, or after `maxWaitMs`, with the holder named. The engine's Cancel ends every
// wait at once, and nothing is sent after it.
//
// Its parts: the declared changes (registry.ts), the waits (activity.ts), the listing of who holds
// what (listing.ts), a preview's estimate (simulation.ts), and what a refusal says (messages.ts).
import type { Source } from "@asset-delivery/sdk";
import { EngineActivity } from "./activity";
import { HolderListing } from "./listing";
import { refusalMessage, waitMessage } from "./messages";
import { hostnameId, planFor, type ChangeFacts, type Holder, type Refusal, type Step } from "./plan";
import { ChangeRegistry, type ChangeSender, type Declared } from "./registry";
import { releasesFirstPlanned } from "./simulation";

export type { ChangeSender } from "./registry";

/** How long the engine may show nothing new before a wait for a holder's change ends. */
export const QUIET_MS = 5_000;
/** The longest wait for a holder's change, however busy the engine. */
export const MAX_WAIT_MS = 5 * 60_000;

export interface HandOverOptions {
  /** The account's Sources, for who holds each name: the read coalescer's listing (one pass per run). */
  listSources: () => Promise<Source[]>;
  /** Whether the holder is a resource of this run, whose change the engine will show to `taker` (waited for up to `maxWaitMs`). */
  comesInThisRun?: (holder: Holder, taker: ChangeFacts) => boolean;
  /** The engine's Cancel: every wait ends, and nothing is sent after it. */
  signal?: AbortSignal;
  quietMs?: number;
  maxWaitMs?: number;
  now?: () => number;
}

/** A write refused for a name another Source holds: the message names both and the name. */
export class HandOverError extends Error {
  override readonly name = "HandOverError";
  constructor(
    message: string,
    /** The wait for a holder's change ended without one: the holder is outside the run's changes. */
    readonly waited = false,
  ) {
    super(message);
  }
}

export class HandOvers<Sent> {
  private readonly changes = new ChangeRegistry<Sent>();
  private readonly listing: HolderListing;
  private readonly activity: EngineActivity;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  /** Check's targets that found a holder whose change was not shown yet. */
  private readonly checkedWaiting: ChangeFacts[] = [];

  constructor(private readonly options: HandOverOptions) {
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
    this.now = options.now ?? Date.now;
    this.listing = new HolderListing(options.listSources);
    this.activity = new EngineActivity(this.now, options.signal);
  }

  /** The engine checked or diffed a resource: it is still showing the run's changes. */
  noteActivity(): void {
    this.activity.note();
  }

  /**
   * An update of this run (its diff; its Update again, with the same values): kept once, by Source
   * id. `values` (the olds and news, compared as values) tells a later change of the same Source
   * (a process serving several operations) from the same one declared again: a later one replaces it.
   */
  declare(facts: ChangeFacts & { id: string }, sender: ChangeSender<Sent>, values?: unknown): void {
    this.changes.declare(facts, sender, values);
    this.noteActivity();
  }

  /** Source `id` is being replaced: its diff's update is not coming, and releases nothing for another write. */
  withdraw(id: string): void {
    this.changes.withdraw(id);
    this.noteActivity();
  }

  /**
   * A replacement's create wrote Source `holder.id` (it took it over): it holds `names` now, so a
   * write waiting for a name its old declaration held may go (its diffed update was withdrawn).
   */
  written(holder: Holder, names: Iterable<string>): void {
    this.listing.replace(holder, names);
    this.activity.wake();
  }

  /**
   * Refusals known now (a check: never waits). A name whose holder's change is not shown yet is
   * not one; it is kept for `unresolved`.
   */
  async refusalsNow(target: ChangeFacts): Promise<Refusal[]> {
    if (target.takes.length === 0) return [];
    const plan = planFor(target, this.changes.facts(), await this.listing.get());
    if (plan.kind === "wait") this.checkedWaiting.push(target);
    return plan.kind === "refused" ? plan.refusals : [];
  }

  /** The Sources holding names the target takes that it takes over (a create: lifecycle/create.ts), as check listed them. */
  async takenOver(target: ChangeFacts): Promise<string[]> {
    if (target.takes.length === 0 || target.takesOver === undefined) return [];
    const holders = await this.listing.get();
    const ids = target.takes.flatMap((hostname) => {
      const holder = holders.get(hostnameId(hostname));
      return holder !== undefined && target.takesOver!(holder) ? [holder.id] : [];
    });
    return [...new Set(ids)];
  }

  /**
   * What checks let pass for a holder not shown then, and still not released by any change the
   * run has shown: said as the engine ends the provider process (a preview has no other end).
   */
  async unresolved(): Promise<string[]> {
    if (this.checkedWaiting.length === 0) return [];
    const holders = await this.listing.get();
    return this.checkedWaiting.flatMap((checked) => {
      const target = this.withOwnId(checked);
      const plan = planFor(target, this.changes.facts(), holders);
      if (plan.kind === "wait") return plan.waits.map((wait) => waitMessage(wait, target));
      return plan.kind === "refused" ? plan.refusals.map((refusal) => refusalMessage(refusal, target)) : [];
    });
  }

  /**
   * A check of an update is not told the Source's id: its own diff, shown after it, declares the
   * same names (a service subdomain among them, which no other Source can hold), and gives it, so
   * that a name the Source itself holds on the server is no take from another.
   */
  private withOwnId(checked: ChangeFacts): ChangeFacts {
    if (checked.creates || checked.id !== undefined) return checked;
    const same = (change: ChangeFacts) =>
      change.declares.size === checked.declares.size && [...change.declares].every((id) => checked.declares.has(id));
    const own = this.changes.facts().find((change) => change.id !== undefined && same(change));
    return own ? { ...checked, id: own.id } : checked;
  }

  /** The release-only PATCHes the declared changes need (one per cycle), for a preview's write estimate (simulation.ts). */
  releasesFirstPlanned(): number {
    return releasesFirstPlanned(this.changes.facts(), this.listing.settled());
  }

  /** A preview's write: refused as the write would be, without sending anything. */
  async preview(target: ChangeFacts): Promise<void> {
    await this.ready(target, false);
  }

  /** A create: what it takes is released first (sent here if need be), then `send`. */
  async create<Created>(target: ChangeFacts, send: () => Promise<Created>): Promise<Created> {
    await this.ready(target, true);
    this.activity.throwIfCancelled();
    return send();
  }

  /** A declared update: what it takes is released first, then its change is sent (once, whoever sends it). */
  async update(id: string): Promise<Sent> {
    const declared = this.changes.get(id);
    if (!declared) throw new Error(`no change of Source ${id} was declared in this run`);
    await this.ready(declared.facts, true);
    return this.sendChange(declared);
  }

  /** Waits, and with `send` sends the steps, until the target may go; throws a HandOverError when it may not. */
  private async ready(target: ChangeFacts, send: boolean): Promise<void> {
    if (target.takes.length === 0) return;
    const started = this.now();
    for (;;) {
      this.activity.throwIfCancelled();
      if (target.progress.failed !== undefined) throw target.progress.failed;
      // Who holds what, as check listed it: a write lists nothing itself (a process whose check did
      // not list, a test's, goes by the changes declared).
      const plan = planFor(target, this.changes.facts(), await this.listing.known());
      if (plan.kind === "refused") throw new HandOverError(plan.refusals.map((refusal) => refusalMessage(refusal, target)).join("; "));
      if (plan.kind === "wait") {
        const now = this.now();
        const waited = now - started;
        // A holder of this run will be shown: no quiet time ends that wait, only the longest one.
        const coming =
          this.options.comesInThisRun !== undefined && plan.waits.every((wait) => this.options.comesInThisRun!(wait.holder, wait.by));
        const quietLeft = coming ? Infinity : this.quietMs - (now - this.activity.lastActivity);
        const left = Math.min(quietLeft, this.maxWaitMs - waited);
        if (left <= 0)
          throw new HandOverError(plan.waits.map((wait) => waitMessage(wait, target, Math.round(waited / 1000))).join("; "), true);
        await this.activity.next(left);
        continue;
      }
      if (!send || plan.steps.length === 0) return;
      try {
        // A release-only PATCH takes nothing, so they all start at once: a write planning meanwhile
        // then sees each of these cycles broken (progress.releasing) and breaks none of them again.
        const firsts = plan.steps.filter((step) => step.kind === "release-first");
        await Promise.all(firsts.map(async (step) => this.perform(step)));
        for (const step of plan.steps) if (step.kind === "change") await this.perform(step);
      } catch (error) {
        // A change refused by the server is marked failed (perform): the next plan names it.
        if (!plan.steps.some((step) => step.change.progress.failed !== undefined)) throw error;
      }
    }
  }

  private perform(step: Step): Promise<unknown> {
    const declared = step.change.id === undefined ? undefined : this.changes.get(step.change.id);
    if (!declared) throw new Error(`no change of Source ${step.change.id} was declared in this run`);
    return step.kind === "change" ? this.sendChange(declared) : this.releaseFirst(declared);
  }

  /** The change's own PATCHes, sent once (none after a Cancel); what it releases is released when they are accepted. */
  private sendChange(declared: Declared<Sent>): Promise<Sent> {
    if (!declared.sent) {
      this.activity.throwIfCancelled();
      const { progress } = declared.facts;
      progress.sending = true;
      declared.sent = (async () => {
        await declared.releasedFirst;
        return declared.sender.change();
      })().then(
        (sent) => {
          progress.released = true;
          this.activity.wake();
          return sent;
        },
        (error: unknown) => {
          progress.failed = error instanceof Error ? error : new Error(String(error));
          this.activity.wake();
          throw error;
        },
      );
      declared.sent.catch(() => undefined); // reaches whoever awaits it; not reported twice
    }
    return declared.sent;
  }

  private releaseFirst(declared: Declared<Sent>): Promise<void> {
    const { progress } = declared.facts;
    if (!declared.releasedFirst) {
      const release = declared.sender.releaseFirst;
      if (!release) throw new Error(`Source ${declared.facts.id} has no release-only part to send`);
      this.activity.throwIfCancelled();
      progress.releasing = true;
      declared.releasedFirst = release().then(
        () => {
          progress.released = true;
          this.activity.wake();
        },
        (error: unknown) => {
          progress.failed = error instanceof Error ? error : new Error(String(error));
          this.activity.wake();
          throw error;
        },
      );
      declared.releasedFirst.catch(() => undefined);
    }
    return declared.releasedFirst;
  }
}
