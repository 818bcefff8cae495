// When a Source's deployment has settled: the one rule that `waitForDeployment` and the provider use.
//
// The real service starts deploying a change after a lag, so a read right after the change can
// still say `deployed`, about the deployment before it (a public provider for this API waits 5 s
// before it polls). The rule uses only what the spec promises (`deployment_status`,
// `date_deployed`, `enabled`), never the client's clock, which may be ahead of or behind the
// service's: a `deployed` read counts when its `date_deployed` is later than the one read before
// the change, or when a read since the change has shown the Source not deployed (`deploying`): two
// deployments within one whole second have the same `date_deployed`.
import type { Source } from "../api";

/** What the rule needs of a read (a full Source, or one selected with these fields). */
export type DeploymentState = { attributes: Pick<Source["attributes"], "enabled" | "deployment_status" | "date_deployed"> };

/** The reads of one wait for one change, from the first read after it (the write's own response, when there is one). */
export class DeploymentWatch {
  private sawUndeployed = false;

  /**
   * @param deployedBefore the `date_deployed` read before the change: null when the Source had no
   * deployment (before a create); undefined when no change started a deployment (a rename), so any
   * `deployed` read counts.
   */
  constructor(readonly deployedBefore?: number | null) {}

  /**
   * Takes the next read; whether it shows the Source settled: `disabled` while it is disabled (a
   * disabled Source does not deploy), or `deployed` by a deployment after the change.
   */
  settledBy(read: DeploymentState): boolean {
    const { deployment_status: status, enabled } = read.attributes;
    if (status === "disabled") return !enabled;
    if (status !== "deployed") {
      this.sawUndeployed = true;
      return false;
    }
    return !this.predates(read);
  }

  /** Whether a `deployed` read shows the deployment before the change (for messages); reads are not taken. */
  predatesChange(read: DeploymentState): boolean {
    return read.attributes.deployment_status === "deployed" && this.predates(read);
  }

  private predates({ attributes: { date_deployed: deployedAt } }: DeploymentState): boolean {
    if (this.deployedBefore === undefined || this.sawUndeployed) return false;
    return deployedAt === null || (this.deployedBefore !== null && deployedAt <= this.deployedBefore);
  }
}
