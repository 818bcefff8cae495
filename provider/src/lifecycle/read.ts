// `read` (refresh): the Source as the server has it, through the read coalescer. Write-only
// secrets cannot be read back, so the state keeps the declared ones. A Source the server no longer
// has, or has marked `deleted`, is dropped from the stack (an empty id).
import type { Session } from "../session";
import { inputsFromSource, sourceOutputs, type SourceInputs } from "../source-state";

export interface ReadResult {
  id: string;
  props: Record<string, unknown>;
  inputs?: Record<string, unknown>;
}

export async function readSource(session: Session, id: string, state: SourceInputs): Promise<ReadResult> {
  const source = await session.reads.read(id);
  if (!source || source.attributes.deployment_status === "deleted") return { id: "", props: {} };
  return { id: source.id, props: sourceOutputs(source, state), inputs: inputsFromSource(source, state) };
}
