// A Source's inputs as `check` parses them (what the engine hands to diff, create and update), for
// tests that start from a declaration; a declaration that does not parse fails the test. The
// declaration may be in either shape (secrets in the deployment, or apart in `deploymentSecrets`
// as the dynamic resource sends them): the dynamic shell's edge (dynamic/shape.ts) merges them.
import { checkSource } from "../../provider/src/core/check";
import type { SourceInputs } from "../../provider/src/core/codec";
import { containsUnknown } from "../../provider/src/core/unknowns";
import { toCore } from "../../provider/src/dynamic/shape";
import { pulumiCheckFailure } from "../../provider/src/pulumi-names/paths";

/** The core's shape: the API's names, each secret where it lives in the deployment. */
export function checkedSource(news: Record<string, unknown>): SourceInputs {
  const result = checkSource(toCore(news));
  if (!("inputs" in result)) throw new Error(result.failures.map((f) => pulumiCheckFailure(f).reason).join("; "));
  if (containsUnknown(news)) throw new Error("a declaration with values not known yet is not parsed");
  return result.inputs as SourceInputs;
}
