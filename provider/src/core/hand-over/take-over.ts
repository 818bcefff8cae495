// Which holder of its names is a create's own Source, for the take-over rule (plan.ts
// `takenOverHolder`), which the hand-over plan applies before the create is sent and the create
// again after the API refused its POST (lifecycle/adopt.ts).
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
