// The create mark: how the provider knows, after a run was killed in the middle of a create, that
// a Source on the server is the one it created for this very resource, and not another's.
//
// A create writes the mark into the deployment's `annotation` (a free comment): a digest of what
// identifies the resource in the tool that creates it (its `Creator`, which each shell gives; for
// Pulumi the resource's URN, which names the project, the stack and the resource). When a later
// create of the same resource finds its hostnames taken, the holder is taken over only if it
// carries the same mark. A copy of a project declares the same hostnames and names, but its
// resources are other resources: its creates are still refused. See docs/interrupted-runs.md.
import { createHash } from "node:crypto";
import { annotationSchema, type Source } from "@asset-delivery/sdk";

/** What creates a Source: the tool, as an annotation names it, and the resource it creates it for (its identity in that tool). */
export interface Creator {
  /** A single word (`Pulumi`): the mark carries it in lower case. */
  tool: string;
  resource: string;
  /**
   * What every resource of the same project and stack starts its `resource` with (for Pulumi, the
   * URN's stack and project): a Source created with the default annotation names its resource,
   * so a hand-over can know its holder is a resource of this run's stack (hand-over/).
   */
  scope?: string;
}

const MARK = /\s*\[[a-z]+-create:[0-9a-f]{32}\]$/;

/** `[<tool>-create:<first 32 hex digits of the SHA-256 of the resource>]`. */
export function createMark({ tool, resource }: Creator): string {
  return `[${tool.toLowerCase()}-create:${createHash("sha256").update(resource).digest("hex").slice(0, 32)}]`;
}

/**
 * The annotation a create sends: the declared one with the mark after it, or, when none is
 * declared, a sentence naming the resource. A declared annotation too long to take the mark is
 * sent as it is (such a Source is not recognised after a kill: the refusal names it).
 */
export function annotationWithMark(declared: string | undefined, creator: Creator): string | undefined {
  const mark = createMark(creator);
  const annotation = declared === undefined ? `Created by ${creator.tool} for ${creator.resource} ${mark}` : `${declared} ${mark}`;
  if (annotationSchema.safeParse(annotation).success) return annotation;
  return declared ?? `Created by ${creator.tool} ${mark}`;
}

/** Whether the Source was created for this creator's resource. */
export function carriesMark(source: Source, creator: Creator): boolean {
  return source.attributes.deployment.annotation.endsWith(createMark(creator));
}

/** An annotation without the create mark: what the program declared. */
export function withoutMark(annotation: string): string {
  return annotation.replace(MARK, "");
}

/**
 * Whether the Source was created (with the default annotation, which names its resource) for a
 * resource of `creator`'s scope. A declared annotation keeps only the mark's digest: not known.
 */
export function createdInScope(source: Source, { tool, scope }: Creator): boolean {
  const { annotation } = source.attributes.deployment;
  return scope !== undefined && MARK.test(annotation) && annotation.startsWith(`Created by ${tool} for ${scope}`);
}

/**
 * The annotation a deployment PATCH sends, so that the Source keeps its create mark (a PATCH
 * without one gets the server's generated text, and a declared one is sent as declared): the
 * declared annotation with the mark the live one ends with, or, none declared, the live one.
 * Undefined (the server's text) when the live annotation carries no mark.
 */
export function annotationKeepingMark(declared: string | undefined, live: string | undefined): string | undefined {
  const mark = live?.match(MARK)?.[0]?.trim();
  if (mark === undefined) return declared;
  if (declared === undefined) return live;
  const annotation = `${declared} ${mark}`;
  return annotationSchema.safeParse(annotation).success ? annotation : declared;
}
