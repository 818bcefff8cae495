// A preview's estimate of the release-only PATCHes its declared changes need (one per cycle): the
// writes planned one after another as the coordinator plans them, on copies, sending nothing.
import { planFor, type ChangeFacts, type Holder } from "./plan";

export function releasesFirstPlanned(changes: readonly ChangeFacts[], holders: ReadonlyMap<string, Holder>): number {
  const copies = changes
    .map((facts) => ({ ...facts, progress: { ...facts.progress } }))
    .sort((a, b) => (a.id ?? "").localeCompare(b.id ?? ""));
  let releases = 0;
  for (const target of copies) {
    if (target.takes.length === 0) continue; // a change that takes nothing waits for no release
    const plan = planFor(target, copies, holders);
    if (plan.kind !== "ready") continue;
    for (const step of plan.steps) {
      if (step.kind === "release-first" && !step.change.progress.released) releases++;
      step.change.progress.released = true;
    }
    target.progress.released = true;
  }
  return releases;
}
