// What a refused or timed-out hand-over says: the field, the name, and the other Source by id and
// name (and its error, when its change failed), in the API's names. The shells add the engine's
// own words where they fit (a rename without aliases: engine/rename-hint.ts). Names and ids from
// the server are printed through the sdk's `printable`.
import { printable } from "@asset-delivery/sdk";
import type { ChangeFacts, Hostname, Holder, Refusal, Wait } from "./plan";

function named({ field, name }: Hostname): string {
  return `deployment.${field} "${printable(name)}"`;
}

function who(change: Pick<ChangeFacts, "id" | "name">): string {
  return change.id === undefined ? `Source "${printable(change.name)}"` : `Source ${printable(change.id)} ("${printable(change.name)}")`;
}

function holderOf(holder: Holder): string {
  return `Source ${printable(holder.id)} ("${printable(holder.name)}"${holder.enabled ? "" : ", retired"})`;
}

/** Why a create does not take a holder over (take-over.ts), and how to. */
const NOT_TAKEN_OVER =
  "not a Source created for this resource by an interrupted run, nor one retired Source holding every declared hostname that is held: " +
  "to take it over, set adoptSourceId to its id";

/** A create's refused POST (lifecycle/adopt.ts): a holder of its names that the take-over rule does not let it take. */
export function holdsMessage(holder: Holder, names: readonly string[]): string {
  return `${holderOf(holder)} holds ${names.map((name) => `"${printable(name)}"`).join(", ")}: ${NOT_TAKEN_OVER}`;
}

/** When the refused take is another change's, which the target waits for: that chain, named. */
function via(by: ChangeFacts, target: ChangeFacts): string {
  return by === target ? "" : ` (${who(target)} waits for ${who(by)}, which releases what it takes)`;
}

function errorText(error: unknown): string {
  return printable(error instanceof Error ? error.message : String(error));
}

export function refusalMessage(refusal: Refusal, target: ChangeFacts): string {
  switch (refusal.kind) {
    case "kept":
      return (
        `${who(refusal.by)} cannot take ${named(refusal.hostname)}: it is held by ${holderOf(refusal.holder)}, which this run ` +
        `does not release (its declaration keeps it). Remove it from that Source in the same change${via(refusal.by, target)}`
      );
    case "failed":
      return (
        `${who(refusal.by)} cannot take ${named(refusal.hostname)}: ${who(refusal.releaser)} was to release it, ` +
        `and its update failed: ${errorText(refusal.error)}${via(refusal.by, target)}`
      );
    case "unbreakable-cycle":
      return (
        `${refusal.cycle.map(who).join(", ")} take each other's host names, and none can release its own first ` +
        `(each would be left without a service subdomain, or is disabled): give one of them a service subdomain it keeps for this run`
      );
  }
}

/** A holder no change of the run released: after a write's wait of `seconds`, or (none) at the end of a preview. */
export function waitMessage(wait: Wait, target: ChangeFacts, seconds?: number): string {
  const when =
    seconds === undefined ? "" : ` (none was shown in the ${seconds} s this write waited: the holder's change may not have been shown yet)`;
  // A create takes over only its own Source or a retired one, when that Source holds every name held (take-over.ts).
  const notOurs = wait.by === target && target.creates ? `; it is ${NOT_TAKEN_OVER}` : "";
  return (
    `${who(wait.by)} cannot take ${named(wait.hostname)}: it is held by ${holderOf(wait.holder)}, and no change of this run ` +
    `releases it${when}${via(wait.by, target)}${notOurs}`
  );
}

/** A check failure's rule for a name that cannot be taken (its path is the name's place in the declaration). */
export function checkRule(refusal: Refusal): string {
  if (refusal.kind === "kept")
    return `"${printable(refusal.hostname.name)}" is held by ${holderOf(refusal.holder)}, which this run does not release`;
  return refusalMessage(refusal, refusal.kind === "unbreakable-cycle" ? refusal.cycle[0]! : refusal.by);
}
