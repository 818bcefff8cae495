// After a write, wait (unless told not to) until the Source is `deployed`, or `disabled` when it
// is declared disabled. A Source that does not get there in time was still written: the error
// carries its id and state, so that Pulumi records it instead of forgetting it.
import { DeploymentTimeoutError, type Source } from "@asset-delivery/sdk";
import { PROVIDER_KEY } from "../serialized-provider";
import type { Session } from "../session";
import { sourceOutputs, type SourceInputs, type SourceState } from "../source-state";

/** Pulumi's dynamic provider turns an error with `id` into "created (or updated) but not initialized". */
export class SourceNotReadyError extends Error {
  override readonly name = "SourceNotReadyError";
  constructor(
    readonly id: string,
    readonly properties: SourceState,
    readonly reasons: string[],
  ) {
    super(reasons.join("; "));
  }
}

export function isSettled(source: Source): boolean {
  const { deployment_status: status, enabled } = source.attributes;
  return status === "deployed" || (status === "disabled" && !enabled);
}

export async function settle(session: Session, source: Source, inputs: SourceInputs): Promise<Source> {
  if (!inputs.waitForDeployment || isSettled(source)) return source;
  const seconds = inputs.deploymentTimeoutSeconds;
  try {
    return await session.client.sources.waitForDeployment(source.id, { timeoutMs: seconds * 1000 });
  } catch (error) {
    if (!(error instanceof DeploymentTimeoutError)) throw error;
    const properties = { ...sourceOutputs(source, inputs), [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
    throw new SourceNotReadyError(source.id, properties, [
      `${error.message}; raise deploymentTimeoutSeconds (now ${seconds}) or set waitForDeployment: false, then run pulumi up again`,
    ]);
  }
}
