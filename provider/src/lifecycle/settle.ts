// After a write, wait (unless told not to) until the Source has settled by the sdk's one rule
// (isDeploymentSettled): `deployed` by a deployment no older than the write that started one, or
// `disabled` when it is declared disabled. A Source that does not get there in time was still
// written: the error carries its id and state, so that Pulumi records it instead of forgetting it.
import { DeploymentTimeoutError, isDeploymentSettled, type Source } from "@asset-delivery/sdk";
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

/** What a write left: the Source as its response showed it, and when the write that starts a deployment was sent. */
export interface Written {
  source: Source;
  /** Milliseconds since the epoch, taken before the request; absent when no write started a deployment (or a create did). */
  changedAt?: number;
}

export async function settle(session: Session, { source, changedAt }: Written, inputs: SourceInputs): Promise<Source> {
  if (!inputs.waitForDeployment || isDeploymentSettled(source, changedAt)) return source;
  const seconds = inputs.deploymentTimeoutSeconds;
  try {
    return await session.client.sources.waitForDeployment(source.id, { timeoutMs: seconds * 1000, changedAt });
  } catch (error) {
    if (!(error instanceof DeploymentTimeoutError)) throw error;
    const properties = { ...sourceOutputs(source, inputs), [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
    throw new SourceNotReadyError(source.id, properties, [
      `${error.message}; raise deploymentTimeoutSeconds (now ${seconds}) or set waitForDeployment: false, then run pulumi up again`,
    ]);
  }
}
