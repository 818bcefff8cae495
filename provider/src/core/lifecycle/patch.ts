// The PATCHes that bring a Source to the declared state. PATCH replaces whole lists and objects, so
// a changed deployment (or a changed secret inside it) is sent whole, with the program's secrets;
// top-level attributes that did not change are not sent. A deployment sent keeps the Source's create
// mark in its annotation (create-mark.ts): a replacement, an interrupted create, finds it by it.
//
// The real service refuses every change to a disabled Source but enabling it (a public Terraform
// provider for this API enables first, then updates). So a disabled Source is enabled alone
// first, and a Source to be disabled is changed first, then disabled: one PATCH when the Source
// stays enabled, up to three (enable, change, disable) for a change to a Source that stays disabled.
import { pick, WRITABLE_SOURCE_ATTRIBUTES, type Source, type SourcePatchAttributes } from "@asset-delivery/sdk";
import { redeploys, type SourceDiff } from "../diff";
import type { Session } from "../session";
import type { DeclaredAttributes } from "../codec";
import { annotationKeepingMark } from "../create-mark";

export interface PatchPlan {
  patches: SourcePatchAttributes[];
  /**
   * Whether the PATCHes start a deployment: a changed deployment field, or enabling. A rename does
   * not, and neither does a secret alone (sent again unchanged or not: secrets cannot be read back to tell).
   */
  deploys: boolean;
}

/** `liveAnnotation`: the Source's, whose create mark a deployment PATCH keeps (create-mark.ts). */
export function planPatches(
  { changed, deploymentFields }: Pick<SourceDiff, "changed" | "deploymentFields">,
  declared: DeclaredAttributes,
  liveEnabled: boolean,
  liveAnnotation?: string,
): PatchPlan {
  // The changed writable attributes but `enabled`, which the PATCHes around this one set.
  const change: SourcePatchAttributes = pick(
    declared,
    WRITABLE_SOURCE_ATTRIBUTES.filter((name) => name !== "enabled" && changed.includes(name)),
  );
  if (changed.includes("deployment")) {
    const annotation = annotationKeepingMark(declared.deployment.annotation, liveAnnotation);
    change.deployment = annotation === undefined ? declared.deployment : { ...declared.deployment, annotation };
  }
  const enables = declared.enabled && !liveEnabled;
  const deploys = enables || (redeploys(deploymentFields) && declared.enabled);
  if (Object.keys(change).length === 0)
    return { patches: declared.enabled === liveEnabled ? [] : [{ enabled: declared.enabled }], deploys };
  return { patches: [...(liveEnabled ? [] : [{ enabled: true }]), change, ...(declared.enabled ? [] : [{ enabled: false }])], deploys };
}

/** Sends the PATCHes in order; the Source as the last one left it (undefined when there were none). */
export async function sendPatches(session: Session, id: string, patches: readonly SourcePatchAttributes[]): Promise<Source | undefined> {
  let source: Source | undefined;
  for (const patch of patches) source = await session.client.sources.update(id, patch);
  return source;
}
