// Which waiting video job runs next: accounts take turns, and none has more than its share of
// jobs in flight, so one account's slow or stalled jobs cannot hold every worker while another
// account's job waits. Within an account, oldest first.

export interface QueuedJob {
  id: string;
  accountId: string;
}

export interface QueueState {
  /** Ids of the jobs being rendered. */
  running: ReadonlySet<string>;
  /** Jobs in flight per account. */
  inFlight: ReadonlyMap<string, number>;
  /** When each account last had a job started (a counter); accounts never served go first. */
  lastStarted: ReadonlyMap<string, number>;
  /** The most jobs one account may have in flight. */
  perAccount: number;
}

/** `waiting` oldest first; undefined when every waiting job is running or its account is at its cap. */
export function nextJob<J extends QueuedJob>(waiting: readonly J[], state: QueueState): J | undefined {
  const inFlight = (account: string) => state.inFlight.get(account) ?? 0;
  const lastStarted = (account: string) => state.lastStarted.get(account) ?? -1;
  let best: J | undefined;
  for (const job of waiting) {
    if (state.running.has(job.id) || inFlight(job.accountId) >= state.perAccount) continue;
    if (best === undefined) {
      best = job;
      continue;
    }
    if (job.accountId === best.accountId) continue; // the account's older job is already the candidate
    const fewer = inFlight(job.accountId) - inFlight(best.accountId);
    if (fewer < 0 || (fewer === 0 && lastStarted(job.accountId) < lastStarted(best.accountId))) best = job;
  }
  return best;
}
