// Terraform's settings of a Source carried over to the Pulumi resource where it has one:
// `wait_for_deployed` → `waitForDeployment`, the `timeouts` block's create and update →
// `deploymentTimeoutSeconds` (the longer of the two: ours bounds both) and, for a native resource,
// the `customTimeouts` resource option. A value equal to the provider's default is left out; one
// the provider refuses is reported instead of carried.
import { PROVIDER_OPTION_DESCRIPTORS, providerOptionsSchema } from "@asset-delivery/provider/core";
import type { TerraformSource } from "./state";

export interface CarriedSettings {
  /** Provider options for the declaration, where they differ from the default. */
  options: { waitForDeployment?: boolean; deploymentTimeoutSeconds?: number };
  /** The `customTimeouts` resource option (create, update) for a native resource, as Pulumi writes durations. */
  customTimeouts?: { create?: string; update?: string };
  /** Settings that could not be carried over, with why. */
  notes: string[];
}

const defaultOf = (name: string) => PROVIDER_OPTION_DESCRIPTORS.find((option) => option.name === name)?.default;

export function carriedSettings(source: TerraformSource): CarriedSettings {
  const options: CarriedSettings["options"] = {};
  const notes: string[] = [];
  if (source.waitForDeployed !== undefined && source.waitForDeployed !== defaultOf("waitForDeployment"))
    options.waitForDeployment = source.waitForDeployed;

  const { create, update } = source.timeouts;
  if (create === undefined && update === undefined) return { options, notes };
  const longest = Math.max(create ?? 0, update ?? 0);
  const checked = providerOptionsSchema.shape.deploymentTimeoutSeconds.safeParse(longest);
  if (!checked.success)
    notes.push(`timeouts (${longest} s): deploymentTimeoutSeconds ${checked.error.issues[0]!.message}; left at its default`);
  else if (checked.data !== defaultOf("deploymentTimeoutSeconds")) options.deploymentTimeoutSeconds = checked.data;
  const customTimeouts = {
    ...(create !== undefined ? { create: `${create}s` } : {}),
    ...(update !== undefined ? { update: `${update}s` } : {}),
  };
  return { options, customTimeouts, notes };
}
