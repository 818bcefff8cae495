// The PATCH that brings a Source to the declared state. PATCH replaces whole lists and objects, so
// a changed deployment (or a changed secret inside it) is sent whole, with the program's secrets;
// top-level attributes that did not change are not sent.
import type { SourcePatchAttributes } from "@asset-delivery/sdk";
import { apiAttributes, type SourceInputs } from "../source-state";

export function patchFor(changed: readonly string[], inputs: SourceInputs): SourcePatchAttributes | undefined {
  const declared = apiAttributes(inputs) as SourcePatchAttributes;
  const patch: SourcePatchAttributes = {};
  if (changed.includes("name")) patch.name = declared.name;
  if (changed.includes("enabled")) patch.enabled = declared.enabled;
  if (changed.includes("deployment") || changed.includes("deploymentSecrets")) patch.deployment = declared.deployment;
  return Object.keys(patch).length > 0 ? patch : undefined;
}
