// Who creates a Source, for its create mark (core/create-mark.ts), as both shells say it: Pulumi,
// for the resource of this URN. The mark it makes, `[pulumi-create:<digest of the URN>]`, is the
// one every release has written: Sources created by an interrupted run of an earlier release are
// still recognised (test/provider/create-mark.test.ts). Its scope, the URN's stack and project, lets
// a hand-over know a holder created with the default annotation is a resource of the same stack.
import type { Creator } from "../core/create-mark";

export function pulumiCreator(urn: string): Creator {
  return { tool: "Pulumi", resource: urn, scope: stackScope(urn) };
}

/** `urn:pulumi:<stack>::<project>::`: what every URN of the stack starts with. */
function stackScope(urn: string): string | undefined {
  const [head, project] = urn.split("::");
  return head?.startsWith("urn:pulumi:") && project !== undefined ? `${head}::${project}::` : undefined;
}
