// The provider object's hand-overs (coordinator.ts) on the core's values: what its check, diff,
// preview, create and update tell the coordinator, and how a declared update is sent (its PATCHes
// as lifecycle/update.ts plans them; its release-only PATCH: the declared deployment without the
// names it takes).
import type { Source } from "@asset-delivery/sdk";
import type { CheckFailure } from "../check";
import { sourceOutputs, type SourceInputs, type SourceState, type UncheckedInputs } from "../codec";
import { createdInScope, type Creator } from "../create-mark";
import { isSourceNotReady, SourceNotReadyError } from "../lifecycle/settle";
import { sendUpdate, type SentUpdate } from "../lifecycle/update";
import type { Session } from "../session";
import { knownLists, takingChange, updateChange, type NewSource } from "./changes";
import { HandOvers, type HandOverOptions } from "./coordinator";
import { checkRule } from "./messages";
import { hostnameId, hostnamesOf, releaseOnlyDeployment, type ChangeFacts, type Holder } from "./plan";

export class RunHandOvers {
  private readonly handOvers: HandOvers<SentUpdate>;
  private wrote = false;
  /** What each release-only PATCH returned, by Source id: what the server holds until the change itself is accepted. */
  private readonly released = new Map<string, Source>();

  /** Who creates this run's Sources, as a create's check told it: a holder created for a resource of the same scope comes in this run. */
  private creator: Creator | undefined;

  /** `session`: the provider's, resolved when a request is to be made (check and diff need no configuration). */
  constructor(
    private readonly session: () => Session,
    options: Omit<HandOverOptions, "listSources" | "comesInThisRun"> = {},
  ) {
    this.handOvers = new HandOvers({
      ...options,
      listSources: () => this.session().reads.all(),
      comesInThisRun: (holder, taker) => this.comesInThisRun(holder, taker),
    });
  }

  /**
   * Whether the engine will show the holder's change: it was created for a resource of this run's
   * stack (its default annotation says so), and the taker is not a create taking every service
   * subdomain it has, which no giving Source can release (one must stay): that is a resource
   * renamed without aliases, whose old resource the engine deletes at the end and never diffs.
   */
  private comesInThisRun(holder: Holder, taker: ChangeFacts): boolean {
    if (this.creator === undefined || holder.source === undefined || !createdInScope(holder.source, this.creator)) return false;
    if (!taker.creates) return true;
    const taken = new Set(taker.takes.map(hostnameId));
    return !holder.source.attributes.deployment.service_subdomains.every((name) =>
      taken.has(hostnameId({ field: "service_subdomains", name })),
    );
  }

  /** A resource of this run, as its check or diff names it. */
  noteCreator(creator: Creator | undefined): void {
    if (creator?.scope !== undefined) this.creator ??= creator;
  }

  /** Source `id` is being replaced: its diff's update is not coming (none of its names is released by it). */
  replacing(id: string): void {
    this.handOvers.withdraw(id);
  }

  /** A replacement's create took Source `id` over and wrote `state`: who holds what, as waiting writes plan on. */
  written(id: string, state: SourceState): void {
    const lists = knownLists(state.deployment);
    if (lists) this.handOvers.written({ id, name: state.name, enabled: state.enabled }, hostnamesOf(lists).keys());
  }

  /** A check: the engine is still showing the run's changes. */
  checked(): void {
    this.handOvers.noteActivity();
  }

  /** A diff of an update: what it releases and takes, and how it is sent, kept for the run. */
  diffed(id: string, olds: SourceState, news: SourceInputs): void {
    const change = updateChange(id, olds, news);
    if (!change) return this.handOvers.noteActivity();
    this.handOvers.declare(
      change,
      {
        change: () => sendUpdate(this.session(), id, olds, news, this.released.get(id)),
        ...(change.canReleaseFirst && {
          releaseFirst: async () => {
            const deployment = releaseOnlyDeployment(news.deployment, change.takes)!;
            this.released.set(id, await this.session().client.sources.update(id, { deployment }));
          },
        }),
      },
      [olds, news],
    );
  }

  /**
   * Check's failures for names the declaration takes (not in `oldInputs`, the earlier inputs) that
   * another Source holds and no change this run has shown releases. A holder whose change is not
   * shown yet is no failure: the engine may show it later (the write then waits for it).
   */
  async checkFailures(news: SourceInputs | UncheckedInputs, oldInputs?: UncheckedInputs, created: NewSource = {}): Promise<CheckFailure[]> {
    const target = takingChange(news, oldInputs === undefined ? undefined : (oldInputs.deployment ?? {}), created);
    if (!target) return [];
    const refusals = await this.handOvers.refusalsNow(target);
    const places = new Map(target.takes.map((hostname) => [hostnameId(hostname), hostname]));
    const declared = knownLists(news.deployment) ?? {};
    return refusals.map((refusal) => {
      const hostname = refusal.kind === "unbreakable-cycle" ? undefined : refusal.hostname;
      const list = hostname && places.has(hostnameId(hostname)) ? (declared[hostname.field] ?? []) : undefined;
      const index = hostname && list ? list.indexOf(hostname.name) : -1;
      return { path: hostname && index >= 0 ? ["deployment", hostname.field, index] : ["deployment"], rule: checkRule(refusal) };
    });
  }

  /** The Sources a create of `news` takes over (they hold names it declares), as check listed them. */
  async takenOver(news: SourceInputs | UncheckedInputs, created: NewSource): Promise<string[]> {
    const target = takingChange(news, undefined, created);
    return target ? this.handOvers.takenOver(target) : [];
  }

  /** A preview of a create (no state; `created`: its resource's) or of Source `id`'s update: refused as its write would be, nothing sent. */
  async preview(news: UncheckedInputs, olds?: UncheckedInputs, id?: string, created: NewSource = {}): Promise<void> {
    const target = takingChange(news, olds === undefined ? undefined : (olds.deployment ?? {}), created);
    if (target) await this.handOvers.preview(id === undefined ? target : { ...target, id });
  }

  /**
   * As the engine ends the process: in a run that wrote nothing (a preview), each name a check let
   * pass for a holder not shown then and that no change of the run released, as `up` would refuse it.
   */
  async unresolved(): Promise<string[]> {
    return this.wrote ? [] : this.handOvers.unresolved().catch(() => []);
  }

  /** The release-only PATCHes this run's declared changes need (one per cycle): updates a preview's estimate counts. */
  releasesFirstPlanned(): number {
    return this.handOvers.releasesFirstPlanned();
  }

  /** A create: what it takes released first. */
  create<Created>(inputs: SourceInputs, created: NewSource, send: () => Promise<Created>): Promise<Created> {
    this.wrote = true;
    const target = takingChange(inputs, undefined, created);
    return target ? this.handOvers.create(target, send) : send();
  }

  /**
   * An update's PATCHes, in the run's order (sent once, by this write or by one that needed them
   * first). When its release-only PATCH was accepted and the rest fails, the Source is recorded as
   * that PATCH left it (a SourceNotReadyError), so the state no longer lists the names it released.
   */
  async update(id: string, olds: SourceState, news: SourceInputs): Promise<SentUpdate> {
    this.wrote = true;
    this.diffed(id, olds, news); // kept from its diff when the engine gave one
    if (!updateChange(id, olds, news)) return sendUpdate(this.session(), id, olds, news);
    try {
      return await this.handOvers.update(id);
    } catch (error) {
      const released = this.released.get(id);
      if (!released || isSourceNotReady(error)) throw error;
      throw new SourceNotReadyError(id, sourceOutputs(released, news), [error instanceof Error ? error.message : String(error)]);
    }
  }
}
