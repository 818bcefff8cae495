// Which of the state's Sources the import declares, and why it leaves out the others: a twin of
// another address, gone from the server, retired (Terraform destroyed it: disabled), or already
// managed or declared by the stack. A new one is named after its Terraform address, unique in the
// stack. Sources declared by an earlier import and not managed yet are kept apart: with
// --trust-state-secrets their secrets are trusted all the same.
import type { Source } from "@asset-delivery/sdk";
import type { Existing } from "../existing";
import { baseName, uniqueName } from "../names";
import type { Skipped, TerraformImported } from "./report";
import { carriedSettings } from "./settings";
import { secretsOf } from "./state-secrets";
import type { TerraformSource } from "./state";
import type { TrustedSource } from "./trusted-record";

export interface Selection {
  imported: TerraformImported[];
  skipped: Skipped[];
  declaredBefore: TrustedSource[];
}

/**
 * `live[i]` is the server's copy of `sources[i]` (undefined: gone); `existing` what the stack
 * manages or declares (new names are added to it); `managed` the ids its state manages.
 */
export function selectSources(
  sources: readonly TerraformSource[],
  live: readonly (Source | undefined)[],
  existing: Existing,
  managed: ReadonlySet<string>,
  stack: string,
): Selection {
  const selection: Selection = { imported: [], skipped: [], declaredBefore: [] };
  const seen = new Map<string, string>();
  for (const [index, source] of sources.entries()) {
    const found = live[index];
    const twin = seen.get(source.id);
    const skip = (reason: string) => selection.skipped.push({ source, reason });
    if (twin) skip(`the same Source as ${twin}`);
    else if (found === undefined) skip("no longer on the server (404): nothing to take over");
    else if (found.attributes.deployment_status === "deleted" || (source.enabled && !found.attributes.enabled))
      skip("retired on the server (disabled, while the state has it enabled): left out, as Terraform destroyed it");
    else if (existing.ids.has(source.id)) {
      skip(`already managed or declared by stack ${stack}`);
      if (!managed.has(source.id)) selection.declaredBefore.push({ live: found, ...secretsOf(source, found) });
    } else {
      const name = uniqueName(baseName(source.nameParts.join(" ")), existing.names);
      selection.imported.push({ source, live: found, name, settings: carriedSettings(source), ...secretsOf(source, found) });
    }
    seen.set(source.id, source.address);
  }
  return selection;
}
