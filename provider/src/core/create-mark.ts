// The create mark: how the provider knows, after a run was killed in the middle of a create, that
// a Source on the server is the one it created for this very resource, and not another stack's.
//
// A create writes the mark into the deployment's `annotation` (a free comment): a digest of the
// resource's URN, which names the project, the stack and the resource. When a later create of the
// same resource finds its hostnames taken, the holder is taken over only if it carries the same
// mark. A stack copied from `prod` to `staging` declares the same hostnames and names, but its URNs
// name another stack: its creates are still refused. See docs/interrupted-runs.md for the choice.
import { createHash } from "node:crypto";
import { annotationSchema, type Source } from "@asset-delivery/sdk";

const MARK = /\s*\[pulumi-create:[0-9a-f]{32}\]$/;

/** `[pulumi-create:<first 32 hex digits of the SHA-256 of the URN>]`. */
export function createMark(urn: string): string {
  return `[pulumi-create:${createHash("sha256").update(urn).digest("hex").slice(0, 32)}]`;
}

/**
 * The annotation a create sends: the declared one with the mark after it, or, when none is
 * declared, a sentence naming the resource. A declared annotation too long to take the mark is
 * sent as it is (such a Source is not recognised after a kill: the refusal names it).
 */
export function annotationWithMark(declared: string | undefined, urn: string): string | undefined {
  const mark = createMark(urn);
  const annotation = declared === undefined ? `Created by Pulumi for ${urn} ${mark}` : `${declared} ${mark}`;
  if (annotationSchema.safeParse(annotation).success) return annotation;
  return declared ?? `Created by Pulumi ${mark}`;
}

/** Whether the Source was created for the resource of this URN. */
export function carriesMark(source: Source, urn: string): boolean {
  return source.attributes.deployment.annotation.endsWith(createMark(urn));
}

/** An annotation without the create mark: what the program declared. */
export function withoutMark(annotation: string): string {
  return annotation.replace(MARK, "");
}
