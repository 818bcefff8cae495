// When a Source's deployment has settled: the one rule that `waitForDeployment` and the provider use.
//
// The real service starts deploying a change after a lag, so a read right after the change can
// still say `deployed`, about the deployment before it (a public provider for this API waits 5 s
// before it polls). A read therefore only counts when its `date_deployed` is not earlier than the
// change: the moment of the change is taken on the caller's clock just before the request is sent.
// `date_deployed` has whole seconds, so the comparison is in whole seconds.
import type { Source } from "../schemas";

/** What a settled read needs of a Source (a full one, or one selected with these fields). */
export type DeploymentState = { attributes: Pick<Source["attributes"], "enabled" | "deployment_status" | "date_deployed"> };

/**
 * Whether this read shows the Source settled: `disabled` while it is disabled (a disabled Source
 * does not deploy), or `deployed` by a deployment that completed no earlier than `changedAt`
 * (milliseconds since the epoch; omitted: any deployment counts).
 */
export function isDeploymentSettled(source: DeploymentState, changedAt?: number): boolean {
  const { deployment_status: status, enabled, date_deployed: deployedAt } = source.attributes;
  if (status === "disabled") return !enabled;
  if (status !== "deployed") return false;
  return changedAt === undefined || (deployedAt !== null && deployedAt >= Math.floor(changedAt / 1000));
}

/** Whether a `deployed` read shows a deployment that predates the change (for messages). */
export function predatesChange(source: DeploymentState, changedAt: number | undefined): boolean {
  return source.attributes.deployment_status === "deployed" && !isDeploymentSettled(source, changedAt);
}
