// Host names handed over between the Sources of one run, decided as data before anything is sent.
//
// The API keeps every service subdomain and custom domain on one Source at a time (compared as
// `hostnameKey` compares them), and refuses a write that takes a name another Source still holds.
// Pulumi sends independent updates in parallel and in no order a program sets, so a move of a
// domain from one Source to another fails when the taking write goes first, and a swap always fails.
//
// `planFor` says what must be sent before a write (a create or an update, the target) may go: the
// changes of this run that release what it takes, each before the changes that take from it
// ("release before take"), in the order the releases depend on each other. A cycle (a swap, or
// longer) is broken by sending first the release-only part of one change of the cycle: its new
// deployment without what it takes (one PATCH more for that Source, none for the others). What is
// not known yet (a holder whose change this run has not shown) is a wait; what cannot be (a holder
// that keeps the name, a releasing change that failed) is a refusal, named. Nothing here sends or
// waits: the coordinator (coordinator.ts) does, and this file is tested without a server.
import { HOSTNAME_FIELDS, hostnameKey, type HostnameField, type Source } from "@asset-delivery/sdk";

/** A declared host name: a service subdomain label or a custom domain, as written. */
export interface Hostname {
  field: HostnameField;
  name: string;
}

/** One key per name the API tells apart: the field and the name compared as the API compares it. */
export function hostnameId({ field, name }: Hostname): string {
  return `${field}:${hostnameKey(name)}`;
}

/** A deployment's host name lists (absent ones are empty). */
export type HostnameLists = Partial<Record<HostnameField, readonly string[] | null | undefined>>;

/** The host names of a deployment, by id. */
export function hostnamesOf(deployment: HostnameLists | undefined): Map<string, Hostname> {
  const names = new Map<string, Hostname>();
  for (const field of HOSTNAME_FIELDS) {
    for (const name of deployment?.[field] ?? []) names.set(hostnameId({ field, name }), { field, name });
  }
  return names;
}

/** What a change of a Source's deployment releases (names it drops) and takes (names it adds). */
export function handOverOf(before: HostnameLists | undefined, after: HostnameLists): { releases: Hostname[]; takes: Hostname[] } {
  const held = hostnamesOf(before);
  const declared = hostnamesOf(after);
  return {
    releases: [...held].filter(([id]) => !declared.has(id)).map(([, name]) => name),
    takes: [...declared].filter(([id]) => !held.has(id)).map(([, name]) => name),
  };
}

/**
 * The release-only part of a change: the declared deployment without the names it takes, or
 * undefined when that leaves no service subdomain (the API requires one), so it cannot be sent.
 */
export function releaseOnlyDeployment<D extends HostnameLists>(declared: D, takes: readonly Hostname[]): D | undefined {
  const taken = new Set(takes.map(hostnameId));
  const lists = Object.fromEntries(
    HOSTNAME_FIELDS.map((field) => [field, (declared[field] ?? []).filter((name) => !taken.has(hostnameId({ field, name })))]),
  ) as Record<HostnameField, string[]>;
  if (lists.service_subdomains.length === 0) return undefined;
  return { ...declared, ...lists };
}

/** How far a change of this run has got. */
export interface Progress {
  /** Its release-only PATCH is under way. */
  releasing?: boolean;
  /** What it releases is released: its release-only PATCH, or the change itself, was accepted. */
  released?: boolean;
  /** The change itself is under way or sent. */
  sending?: boolean;
  /** The change was refused (its release-only PATCH or its own PATCHes): the error. */
  failed?: Error;
}

/** A change of this run, as the plan sees it. */
export interface ChangeFacts {
  /** The Source's id (a create has none yet; a check of an update is not told it). */
  id?: string;
  /** A new Source is POSTed (not an update, nor an adoption): it reclaims a retired holder (lifecycle/create.ts). */
  creates: boolean;
  /** Its declared name, for messages. */
  name: string;
  releases: readonly Hostname[];
  takes: readonly Hostname[];
  /** Every name it declares (what it keeps and what it takes), by id. */
  declares: ReadonlySet<string>;
  /** Whether its release-only part can be sent alone (see releaseOnlyDeployment; the Source is enabled). */
  canReleaseFirst: boolean;
  /** A create's: whether a holder is its resource's own Source (take-over.ts `isOwnSource`), which it may take over. */
  isOwn?: (holder: Holder) => boolean;
  progress: Progress;
}

/** Who holds a name on the server, from the account's listing. */
export interface Holder {
  id: string;
  name: string;
  enabled: boolean;
  /** The Source as listed (for `isOwn`). */
  source?: Source;
}

export type Step = { kind: "release-first"; change: ChangeFacts } | { kind: "change"; change: ChangeFacts };

/** Why a write cannot go. `by` is the change whose take it is (the target, or a change the target waits for). */
export type Refusal =
  | { kind: "kept"; hostname: Hostname; holder: Holder; by: ChangeFacts }
  | { kind: "failed"; hostname: Hostname; releaser: ChangeFacts; error: unknown; by: ChangeFacts }
  | { kind: "unbreakable-cycle"; cycle: ChangeFacts[] };

/** A name held by a Source whose change this run has not shown (yet). */
export interface Wait {
  hostname: Hostname;
  holder: Holder;
  by: ChangeFacts;
}

export type Plan =
  /** Send these steps in order, then the target's own change. */
  { kind: "ready"; steps: Step[] } | { kind: "wait"; waits: Wait[] } | { kind: "refused"; refusals: Refusal[] };

/**
 * What must happen before `target`'s change may be sent, given the changes this run has shown
 * (updates, by their diff) and who holds each name (`holders`, by hostnameId). `target` may be one
 * of `changes` (an update) or not (a create).
 */
export function planFor(target: ChangeFacts, changes: readonly ChangeFacts[], holders: ReadonlyMap<string, Holder>): Plan {
  const releasing = new Map<string, ChangeFacts>();
  for (const change of changes) for (const hostname of change.releases) releasing.set(hostnameId(hostname), change);
  const byId = new Map(changes.flatMap((change) => (change.id === undefined ? [] : [[change.id, change] as const])));
  /**
   * The change that frees a name: the one whose diff releases it, or the holder's, when its
   * declaration drops a name the server shows on it (a PATCH replaces the list whole).
   */
  const releaserOf = (id: string): ChangeFacts | undefined => {
    const holderChange = byId.get(holders.get(id)?.id ?? "");
    return releasing.get(id) ?? (holderChange && !holderChange.declares.has(id) ? holderChange : undefined);
  };
  const releasedFirst: ChangeFacts[] = changes.filter((change) => change.progress.releasing && !change.progress.released);

  // Each pass orders the changes the target depends on (post-order); a cycle found picks one of its
  // changes to release first, and the pass is made again with that release done.
  for (;;) {
    const steps: Step[] = [];
    const waits: Wait[] = [];
    const refusals: Refusal[] = [];
    const visiting: ChangeFacts[] = [];
    const visited = new Set<ChangeFacts>();
    /** The changes releasing first that this walk takes from: only these are the target's steps. */
    const takenFromFirst = new Set<ChangeFacts>();
    let cycle: ChangeFacts[] | undefined;

    const visit = (change: ChangeFacts): void => {
      visiting.push(change);
      // The names no change releases: a create takes their holder over when the rule lets it (takenOverHolder below).
      const kept = change.takes.flatMap((hostname) => {
        const holder = holders.get(hostnameId(hostname));
        return holder && !releaserOf(hostnameId(hostname)) ? [holder] : [];
      });
      const takenOver = change.creates ? takenOverHolder(kept, change.isOwn ?? (() => false)) : undefined;
      for (const hostname of change.takes) {
        const id = hostnameId(hostname);
        const holder = holders.get(id);
        const holderChange = holder && byId.get(holder.id);
        const releaser = releaserOf(id);
        if (releaser && releaser !== change) {
          if (releaser.progress.failed !== undefined) {
            refusals.push({ kind: "failed", hostname, releaser, error: releaser.progress.failed, by: change });
            continue;
          }
          if (releaser.progress.released) continue;
          if (releasedFirst.includes(releaser)) {
            takenFromFirst.add(releaser);
            continue;
          }
          if (visiting.includes(releaser)) {
            cycle = visiting.slice(visiting.indexOf(releaser));
            return;
          }
          if (!visited.has(releaser)) visit(releaser);
          if (cycle) return;
          continue;
        }
        if (!holder || holder.id === change.id) continue;
        // A create takes this holder over (takenOverHolder; lifecycle/create.ts does, after its refused POST).
        if (holder.id === takenOver?.id) continue;
        if (holderChange) refusals.push({ kind: "kept", hostname, holder, by: change });
        else waits.push({ hostname, holder, by: change });
      }
      visiting.pop();
      visited.add(change);
      // Another change under way is a step too: the coordinator awaits it rather than sending it again.
      if (change !== target) steps.push({ kind: "change", change });
    };

    visit(target);
    if (cycle) {
      const breaker = breakerOf(cycle, target);
      if (!breaker) return { kind: "refused", refusals: [{ kind: "unbreakable-cycle", cycle }] };
      releasedFirst.push(breaker);
      continue;
    }
    if (refusals.length > 0) return { kind: "refused", refusals };
    if (waits.length > 0) return { kind: "wait", waits };
    // Another cycle's release under way is not the target's to wait for.
    const firsts: Step[] = releasedFirst
      .filter((change) => takenFromFirst.has(change))
      .map((change) => ({ kind: "release-first", change }));
    return { kind: "ready", steps: [...firsts, ...steps] };
  }
}

/**
 * The take-over rule, once (the plan's, before a create is sent; the create's after the API refused its POST: lifecycle/adopt.ts).
 * The Source a create takes over, given the holders of the names it declares that no change of the
 * run releases: there must be one such Source (a create becomes one Source, so names held by two
 * cannot all be its), and it must be the resource's own (`isOwn`) or retired (disabled, as a
 * retirement leaves it). Same hostnames and same name are no evidence: a copy of a project declares both.
 */
export function takenOverHolder(holders: Iterable<Holder>, isOwn: (holder: Holder) => boolean): Holder | undefined {
  const distinct = new Map<string, Holder>();
  for (const holder of holders) distinct.set(holder.id, holder);
  const [only, ...others] = distinct.values();
  if (!only || others.length > 0) return undefined;
  return isOwn(only) || !only.enabled ? only : undefined;
}

/** The change of a cycle that releases first: the target when it can (it is running), else the first that can, by id. */
function breakerOf(cycle: readonly ChangeFacts[], target: ChangeFacts): ChangeFacts | undefined {
  if (cycle.includes(target) && target.canReleaseFirst) return target;
  return [...cycle].sort((a, b) => (a.id ?? "").localeCompare(b.id ?? "")).find((change) => change.canReleaseFirst);
}
