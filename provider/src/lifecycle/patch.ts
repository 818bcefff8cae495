// The PATCH that brings a Source to the declared state. PATCH replaces whole lists and objects, so
// a changed deployment (or a changed secret inside it) is sent whole, with the program's secrets;
// top-level attributes that did not change are not sent.
import type { SourceCreateAttributes, SourcePatchAttributes } from "@asset-delivery/sdk";
import type { SourceDiff } from "../diff";

export function patchFor(changed: SourceDiff["changed"], declared: SourceCreateAttributes): SourcePatchAttributes | undefined {
  const patch: SourcePatchAttributes = {};
  if (changed.includes("name")) patch.name = declared.name;
  if (changed.includes("enabled")) patch.enabled = declared.enabled;
  if (changed.includes("deployment") || changed.includes("deploymentSecrets")) patch.deployment = declared.deployment;
  return Object.keys(patch).length > 0 ? patch : undefined;
}
