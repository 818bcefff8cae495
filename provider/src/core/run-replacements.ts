// A run's replacements of Sources. The engine replaces a resource (a forced replacement, a change
// the program says replaces, or one the diff declares) by checking it again as new and creating it,
// and then deleting the old resource (first, when the program asks to delete before replacing).
// Nobody tells the provider: it knows a replacement when a resource whose diff named Source X is
// checked as new in the same run, or (a forced replacement, which has no diff) when a resource
// checked as new finds its names held by the Source its create mark says it created. When the new
// declaration keeps names X holds, its create takes X over (lifecycle/create.ts), and the engine's
// delete of the old resource, with X's id, must leave X serving: X is the new resource's now. When
// it keeps none, the create makes a new Source and the delete retires X. Kept for the run only (a
// provider process serves one run; configure starts another). A run interrupted between the
// create and the delete leaves the old resource in the state, pending delete, with X's id beside
// the new resource's: the next run's engine diffs the program's resources first and deletes the
// pending ones last (Pulumi's GenerateDeletes), so a delete of X for a resource whose diff in this
// run held X, and that this run did not replace, is such a leftover: X is the new resource's.
import type { Creator } from "./create-mark";
import { knownLists } from "./hand-over/changes";
import { hostnamesOf } from "./hand-over/plan";

/** A deployment's host names, by hostnameId; undefined while a list is not known. */
function namesOf(deployment: unknown): ReadonlySet<string> | undefined {
  const lists = knownLists(deployment);
  return lists && new Set(hostnamesOf(lists).keys());
}

interface Replaced {
  /** The old Source's id, as the resource's diff saw it. */
  id: string;
  /** Whether the new declaration keeps a name the old Source holds (its create then takes it over). */
  keepsNames: boolean;
  /** The create ran (taking the Source over or not). */
  created?: boolean;
}

export class RunReplacements {
  /** Each resource's Source, and the names it holds, as its diff saw them. */
  private readonly diffed = new Map<string, { id: string; names: ReadonlySet<string> }>();
  private readonly replaced = new Map<string, Replaced>();
  /** Sources a create of this run took over: another resource holds them now. */
  private readonly takenOver = new Set<string>();
  /** Sources whose delete was left for their replacement's create (deleted first): retired if it does not take them over. */
  private readonly awaitingCreate = new Map<string, string>();

  /** A diff of `creator`'s resource, whose Source is `id`, with its state's `deployment`. */
  noteDiff(creator: Creator | undefined, id: string, deployment: unknown): void {
    if (creator !== undefined) this.diffed.set(creator.resource, { id, names: namesOf(deployment) ?? new Set() });
  }

  /**
   * A check (given its `deployment`) or create of `creator`'s resource as new: the id of the Source
   * it replaces, when its diff in this run named one.
   */
  replacing(creator: Creator | undefined, deployment?: unknown): string | undefined {
    if (creator === undefined) return undefined;
    const known = this.replaced.get(creator.resource);
    if (known) return known.id;
    const diffed = this.diffed.get(creator.resource);
    const names = namesOf(deployment);
    if (!diffed || names === undefined) return undefined;
    this.replaced.set(creator.resource, { id: diffed.id, keepsNames: [...names].some((name) => diffed.names.has(name)) });
    return diffed.id;
  }

  /** Whether `creator`'s replacement keeps names of the Source it replaces (its create takes that Source over). */
  keepsNames(creator: Creator | undefined): boolean {
    return creator !== undefined && this.replaced.get(creator.resource)?.keepsNames === true;
  }

  /**
   * A create of `creator`'s resource wrote Source `id`: the Source its replaced resource's delete
   * left serving, to retire now that the create did not take it over (none otherwise).
   */
  created(creator: Creator | undefined, id: string): string | undefined {
    const replaced = creator === undefined ? undefined : this.replaced.get(creator.resource);
    if (!replaced) return undefined;
    replaced.created = true;
    const waiting = this.awaitingCreate.delete(replaced.id);
    return waiting && id !== replaced.id ? replaced.id : undefined;
  }

  /**
   * A check of `creator`'s resource as new found Source `id` holding its names and is to take it
   * over (its create mark, or the Source its diff named): a forced replacement, which the engine
   * checks as new with no diff, is known so.
   */
  takesOver(creator: Creator | undefined, id: string): void {
    if (creator !== undefined && !this.replaced.has(creator.resource)) this.replaced.set(creator.resource, { id, keepsNames: true });
  }

  /** A create wrote Source `id` by taking over a Source that held its names. */
  tookOver(id: string): void {
    this.takenOver.add(id);
  }

  /**
   * The engine deletes `creator`'s Source `id`: whether it stays as it is, because a create of this
   * run took it over, because it is deleted first for a replacement that keeps its names and is
   * still to be created (which then takes it over; lifecycle/create.ts), or because the resource
   * this run diffed holds it: the delete is an interrupted run's leftover (see above).
   */
  keeps(id: string, creator?: Creator): Kept | undefined {
    if (this.takenOver.has(id)) return "taken-over";
    if (creator !== undefined && !this.replaced.has(creator.resource) && this.diffed.get(creator.resource)?.id === id) return "held";
    for (const [resource, replaced] of this.replaced) {
      if (replaced.id !== id || replaced.created || !replaced.keepsNames) continue;
      this.awaitingCreate.set(id, resource);
      return "awaiting-create";
    }
    return undefined;
  }
}

/** Why the engine's delete of a Source leaves it as it is. */
export type Kept = "taken-over" | "awaiting-create" | "held";

/** What the delete of a Source this run keeps says (it writes nothing). */
export function keptMessage(id: string, why: Kept): string {
  switch (why) {
    case "taken-over":
      return `Source ${id} was not retired: its replacement took it over in this run and serves its names (nothing was written)`;
    case "awaiting-create":
      return `Source ${id} was not retired: its replacement, created next, keeps its names and takes it over (nothing was written)`;
    case "held":
      return (
        `Source ${id} was not retired: the replacement an interrupted run created took it over, and serves its names ` +
        `(the interrupted run's delete of the old resource, done now; nothing was written)`
      );
  }
}
