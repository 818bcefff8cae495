// What a create refused for host names held outside the run says in Pulumi's words: the usual
// cause is a resource renamed without `aliases`, which Pulumi creates anew before it retires the
// old Source, still holding the names (the core speaks of Sources only: core/hand-over/).
import { HandOverError } from "../core/hand-over/coordinator";

export const RENAME_HINT =
  "If this resource was renamed without aliases, Pulumi creates the new Source before it retires the old one, " +
  "which still holds these names: rename it with aliases instead (the Source is kept and changed in place), " +
  'see "Moving domains between Sources" in docs/provider.md';

/** A create's error, with the rename hint when its wait for a holder's change ended without one. */
export function withRenameHint(error: unknown): unknown {
  if (!(error instanceof HandOverError) || !error.waited) return error;
  return new HandOverError(`${error.message}. ${RENAME_HINT}`, true);
}
