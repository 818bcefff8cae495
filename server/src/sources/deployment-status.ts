// When a Source says `deploying`, `deployed` or `disabled`, and which `date_deployed` it shows, at
// a given time: the one rule, written twice because it runs in two places. SQLite evaluates it for
// reads and lists (so that lists filter and sort on it without loading rows); TypeScript evaluates
// it for the Source a create or an update has just written, and to date the deployment a new one
// replaces. test/server/deployment-status.test.ts runs both on the same rows and requires they agree.

/** The columns the rule reads, as the service holds them (milliseconds, and Unix seconds for the previous deployment). */
export interface DeploymentTimes {
  enabled: boolean;
  /** Milliseconds: when the latest deployment starts (reads show the one before until then). */
  deployStartsAt: number;
  /** Milliseconds: when the latest deployment completes. */
  deployReadyAt: number;
  /** Unix seconds of the deployment completed before the latest one. */
  previousDeployedAt: number | null;
}

export type DeploymentStatus = "deploying" | "deployed" | "disabled";

/**
 * Unix seconds of the latest deployment once completed: its second, or the one after the
 * deployment before it if that is later. A Source's deployments are dated in strictly increasing
 * seconds, as the real service's, which take seconds, are: a client can then tell a deployment
 * from the one before it by `date_deployed` alone.
 */
export function completedDeploymentSecond({ deployReadyAt, previousDeployedAt }: DeploymentTimes): number {
  return Math.max(Math.floor(deployReadyAt / 1000), previousDeployedAt === null ? 0 : previousDeployedAt + 1);
}

/** `date_deployed` at `now` (milliseconds): the latest deployment's once completed, else the one before it (null if none). */
export function dateDeployedAt(times: DeploymentTimes, now: number): number | null {
  return times.deployReadyAt <= now ? completedDeploymentSecond(times) : times.previousDeployedAt;
}

/** `deployment_status` at `now`: until a change's deployment starts, a Source deployed before still says `deployed`. */
export function deploymentStatusAt(times: DeploymentTimes, now: number): DeploymentStatus {
  if (!times.enabled) return "disabled";
  if (times.deployReadyAt <= now) return "deployed";
  if (times.deployStartsAt > now && times.previousDeployedAt !== null) return "deployed";
  return "deploying";
}

// The same rule over the `sources` table's columns, with @now in milliseconds. The integer
// division is the floor of Math.floor: the columns hold whole milliseconds.
export const DATE_DEPLOYED_SQL =
  "(CASE WHEN deploy_ready_at <= @now THEN max(deploy_ready_at / 1000, coalesce(previous_deployed_at + 1, 0)) ELSE previous_deployed_at END)";
export const DEPLOYMENT_STATUS_SQL =
  "(CASE WHEN enabled = 0 THEN 'disabled' WHEN deploy_ready_at <= @now THEN 'deployed' " +
  "WHEN deploy_starts_at > @now AND previous_deployed_at IS NOT NULL THEN 'deployed' ELSE 'deploying' END)";
