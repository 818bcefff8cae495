// `read` (refresh): the Source as the server has it, through the read coalescer. Write-only
// secrets cannot be read back, so the state keeps the declared ones. A Source the server no longer
// has, or has marked `deleted`, is dropped from the stack (an empty id).
//
// The inputs that describe the server's Source are returned only when the Source differs from the
// state: otherwise the engine keeps the inputs it has, which already describe it (the program's, or
// those of an earlier refresh that saw drift). A refresh of an unchanged stack then carries half
// the data through the engine.
import deepEqual from "fast-deep-equal";
import type { Session } from "../session";
import { inputsFromSource, sourceOutputs, type SourceInputs, type SourceState } from "../codec";

/** The Source as read, and the inputs that describe it when it differs from the state; or gone (an empty id). */
export type ReadResult = { id: string; props: SourceState; inputs?: SourceInputs } | { id: ""; props: Record<string, never> };

export async function readSource(session: Session, id: string, state: SourceState): Promise<ReadResult> {
  const source = await session.reads.read(id);
  if (!source || source.attributes.deployment_status === "deleted") return { id: "", props: {} };
  const props = sourceOutputs(source, state);
  if (deepEqual(props, state)) return { id: source.id, props };
  return { id: source.id, props, inputs: inputsFromSource(source, state) };
}
