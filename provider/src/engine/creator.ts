// Who creates a Source, for its create mark (core/create-mark.ts), as both shells say it: Pulumi,
// for the resource of this URN. The mark it makes, `[pulumi-create:<digest of the URN>]`, is the
// one every release has written: Sources created by an interrupted run of an earlier release are
// still recognised (test/provider/create-mark.test.ts).
import type { Creator } from "../core/create-mark";

export function pulumiCreator(urn: string): Creator {
  return { tool: "Pulumi", resource: urn };
}
