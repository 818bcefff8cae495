// `read` (refresh): the Source as the server has it, through the read coalescer. Write-only
// secrets cannot be read back, so the state keeps the declared ones. A Source the server no longer
// has, or has marked `deleted`, is dropped from the stack (an empty id).
//
// The inputs that describe the server's Source are returned only when the Source differs from the
// state: otherwise the engine keeps the inputs it has, which already describe it (the program's, or
// those of an earlier refresh that saw drift). A refresh of an unchanged stack then carries half
// the data through the engine.
import deepEqual from "fast-deep-equal";
import { PROVIDER_KEY } from "../serialized-provider";
import type { Session } from "../session";
import { inputsFromSource, sourceOutputs, type SourceState } from "../source-state";

export interface ReadResult {
  id: string;
  props: Record<string, unknown>;
  inputs?: Record<string, unknown>;
}

export async function readSource(session: Session, id: string, state: SourceState): Promise<ReadResult> {
  const source = await session.reads.read(id);
  if (!source || source.attributes.deployment_status === "deleted") return { id: "", props: {} };
  const props = sourceOutputs(source, state);
  const { [PROVIDER_KEY]: _serializedProvider, ...stored } = state;
  if (deepEqual(props, stored)) return { id: source.id, props };
  return { id: source.id, props, inputs: inputsFromSource(source, state) };
}
