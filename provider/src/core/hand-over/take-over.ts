// The take-over rule, once: which Source a create becomes when the names it declares are held.
// The hand-over plan applies it before the create is sent (plan.ts), and the create applies it
// again after the API refused its POST (lifecycle/adopt.ts): the same holders give the same answer.
import { carriesMark, type Creator } from "../create-mark";
import type { Holder } from "./plan";

/** What a create knows of its resource: who creates it (its create mark), and the Source it replaces, if it is a replacement. */
export interface NewSource {
  creator?: Creator;
  replaces?: string;
}

/** Whether a holder is this resource's own: it carries the resource's create mark (an interrupted create left it) or it is the Source it replaces. */
export function isOwnSource({ creator, replaces }: NewSource): (holder: Holder) => boolean {
  return (holder) =>
    holder.id === replaces || (creator !== undefined && holder.source !== undefined && carriesMark(holder.source, creator));
}

/**
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
