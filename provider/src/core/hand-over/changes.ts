// A Source's change as the hand-over plan sees it (plan.ts), from the core's values: an update's
// state and checked inputs, a create's inputs, or a check's inputs and the earlier ones.
import { HOSTNAME_FIELDS } from "@asset-delivery/sdk";
import type { SourceInputs, SourceState, UncheckedInputs } from "../codec";
import { isUnknown } from "../unknowns";
import { carriesMark, type Creator } from "../create-mark";
import { handOverOf, hostnamesOf, releaseOnlyDeployment, type ChangeFacts, type Holder, type HostnameLists } from "./plan";

/** What a create knows of its resource: who creates it (its create mark), and the Source it replaces, if it is a replacement. */
export interface NewSource {
  creator?: Creator;
  replaces?: string;
}

/** The deployment's host name lists when every one is known (a preview may not know them yet). */
export function knownLists(deployment: unknown): HostnameLists | undefined {
  if (deployment === null || typeof deployment !== "object") return undefined;
  const lists = deployment as Record<string, unknown>;
  const known = HOSTNAME_FIELDS.every((field) => {
    const list = lists[field];
    return (
      list === undefined || list === null || (Array.isArray(list) && list.every((name) => typeof name === "string" && !isUnknown(name)))
    );
  });
  return known ? lists : undefined;
}

/** An update of Source `id` from its state to the declared inputs; undefined when a list is not known yet. */
export function updateChange(id: string, olds: SourceState, news: SourceInputs): (ChangeFacts & { id: string }) | undefined {
  const before = knownLists(olds.deployment);
  const after = knownLists(news.deployment);
  if (!before || !after) return undefined;
  const { releases, takes } = handOverOf(before, after);
  return {
    id,
    name: typeof news.name === "string" ? news.name : id,
    creates: false,
    releases,
    takes,
    declares: new Set(hostnamesOf(after).keys()),
    canReleaseFirst: olds.enabled && releases.length > 0 && takes.length > 0 && releaseOnlyDeployment(after, takes) !== undefined,
    progress: {},
  };
}

/**
 * What a write of `news` takes that the earlier declaration (`before`: the state's or the earlier
 * inputs' deployment; none for a create) did not hold: a create takes every name. An adoption
 * (`adoptSourceId`) is the adopted Source's change, so its own names are no take, and it POSTs no
 * new Source (`creates`). A create's `creator`, whose create mark lets it take over the Source an
 * interrupted create left, and `replaces`: the Source it replaces (run-replacements.ts), which it
 * takes over when it keeps names that Source holds.
 */
export function takingChange(news: UncheckedInputs, before?: unknown, { creator, replaces }: NewSource = {}): ChangeFacts | undefined {
  const after = knownLists(news.deployment);
  const held = before === undefined ? {} : knownLists(before);
  if (!after || !held) return undefined;
  const adopted = news.options?.adoptSourceId;
  return {
    ...(typeof adopted === "string" && { id: adopted }),
    name: typeof news.name === "string" ? news.name : "",
    creates: before === undefined && typeof adopted !== "string",
    releases: [],
    takes: handOverOf(held, after).takes,
    declares: new Set(hostnamesOf(after).keys()),
    canReleaseFirst: false,
    ...((creator !== undefined || replaces !== undefined) && {
      takesOver: (holder: Holder) =>
        holder.id === replaces || (creator !== undefined && holder.source !== undefined && carriesMark(holder.source, creator)),
    }),
    progress: {},
  };
}
