// What a write refused for host names held outside the run's shown changes says in Pulumi's words:
// the giving Source's change not shown yet (`--parallel 1`, a dependency), or, for a create, a
// resource renamed without `aliases`, which Pulumi creates anew before it retires the old Source,
// still holding the names (the core speaks of Sources only: core/hand-over/).
import { HandOverError } from "../core";
import { docsUrl } from "../repository";

/** Where "Moving domains between Sources" is read: the docs of the project, online. */
export const MOVING_DOMAINS_DOCS = docsUrl("provider.md", "Moving domains between Sources");

export const RENAME_HINT =
  "If this resource was renamed without aliases, Pulumi creates the new Source before it retires the old one, " +
  "which still holds these names: rename it with aliases instead (the Source is kept and changed in place), " +
  `see "Moving domains between Sources": ${MOVING_DOMAINS_DOCS}`;

/**
 * A write waits only while Pulumi shows more changes; with `--parallel 1` it shows at most one more
 * while a write waits, and none that depends on the waiting resource, so the giving Source's change
 * may come too late for a write registered before it.
 */
export const ORDER_HINT =
  "Pulumi may not have shown the holder's change yet (with --parallel 1 a waiting write sees at most one more, " +
  "and none that depends on it): if this run gives the name from that Source, make this resource depend on it " +
  `(dependsOn), so that the giving Source goes first (a swap cannot be ordered so: see "Moving domains between Sources", ${MOVING_DOMAINS_DOCS})`;

/** An update's error, with the order hint when its wait for a holder's change ended without one. */
export function withOrderHint(error: unknown): unknown {
  if (!(error instanceof HandOverError) || !error.waited) return error;
  return new HandOverError(`${error.message}. ${ORDER_HINT}`, true);
}

/** A create's error, with the order and rename hints when its wait for a holder's change ended without one. */
export function withRenameHint(error: unknown): unknown {
  if (!(error instanceof HandOverError) || !error.waited) return error;
  return new HandOverError(`${error.message}. ${ORDER_HINT}. ${RENAME_HINT}`, true);
}
