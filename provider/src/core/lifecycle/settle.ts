// After a write, wait (unless told not to) until the Source has settled by the sdk's one rule
// (DeploymentWatch): `deployed` by a deployment after the writes that started one, or `disabled`
// when it is declared disabled. A Source that does not get there in time, or whose wait is
// cancelled, was still written: the error carries its id and state, so that the shell has it
// recorded instead of forgotten.
import { DeploymentTimeoutError, type Source } from "@asset-delivery/sdk";
import type { Session } from "../session";
import { PLAIN_INSTRUCTIONS } from "../instructions";
import { sourceOutputs, type SourceInputs, type SourceState } from "../codec";

/** A Source written but not settled: each shell hands it to its engine as created (or updated) but not ready, in its own error. */
export class SourceNotReadyError extends Error {
  override readonly name = "SourceNotReadyError";
  constructor(
    readonly id: string,
    /** The state to record, in the core's shape. */
    readonly properties: SourceState,
    readonly reasons: string[],
  ) {
    super(reasons.join("; "));
  }
}

export function isSourceNotReady(error: unknown): error is SourceNotReadyError {
  return error instanceof SourceNotReadyError;
}

/** What the writes left: the Source as the last response showed it, and what was deployed before them. */
export interface Written {
  source: Source;
  /**
   * The `date_deployed` read before the writes, when they started a deployment: null before a
   * create; absent when they started none (a rename), so the first `deployed` read counts.
   */
  deployedBefore?: number | null;
}

/** The reference of writes that may start a deployment: what was read before them, when they do. */
export function deployedBefore(deploys: boolean, before: number | null): Pick<Written, "deployedBefore"> {
  return deploys ? { deployedBefore: before } : {};
}

/**
 * Waits for `deploymentTimeoutSeconds`, or the shell's bound on the write (`timeoutSeconds`; 0 or
 * absent when none) when shorter.
 */
export async function settle(
  session: Session,
  { source, deployedBefore }: Written,
  inputs: SourceInputs,
  timeoutSeconds = 0,
): Promise<Source> {
  if (!inputs.options.waitForDeployment) return source;
  const declared = inputs.options.deploymentTimeoutSeconds;
  const seconds = timeoutSeconds > 0 ? Math.max(1, Math.floor(Math.min(declared, timeoutSeconds))) : declared;
  try {
    const options = { timeoutMs: seconds * 1000, deployedBefore, written: source, signal: session.signal };
    return await session.client.sources.waitForDeployment(source.id, options);
  } catch (error) {
    // Cancelled (the provider's signal): the Source was written all the same, and is handed back to be recorded.
    if (session.signal?.aborted && error === session.signal.reason && error instanceof Error)
      throw new SourceNotReadyError(source.id, sourceOutputs(source, inputs), [error.message]);
    if (!(error instanceof DeploymentTimeoutError)) throw error;
    throw new SourceNotReadyError(source.id, sourceOutputs(source, inputs), [
      `${error.message}; raise deploymentTimeoutSeconds (now ${seconds}) or set waitForDeployment: false, then ${(session.instructions ?? PLAIN_INSTRUCTIONS).runAgain}`,
    ]);
  }
}
