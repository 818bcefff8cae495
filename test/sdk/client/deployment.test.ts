// The one "settled deployment" rule (DeploymentWatch): reads since a change, judged by what the spec
// promises (`deployment_status`, `date_deployed`, `enabled`) and nothing of the client's clock.
import { describe, expect, it } from "vitest";
import { DeploymentWatch, type DeploymentState } from "@asset-delivery/sdk";

const read = (
  deployment_status: DeploymentState["attributes"]["deployment_status"],
  date_deployed: number | null,
  enabled = true,
): DeploymentState => ({
  attributes: { deployment_status, date_deployed, enabled },
});
const BEFORE = 1_767_268_800; // the date_deployed read before the change

/** Whether each read, in turn, settles one watch. */
const settledBy = (watch: DeploymentWatch, reads: DeploymentState[]) => reads.map((r) => watch.settledBy(r));

describe("DeploymentWatch", () => {
  it("without a reference (no change started a deployment), any deployed read counts", () => {
    expect(settledBy(new DeploymentWatch(), [read("deploying", 5), read("deployed", 5)])).toEqual([false, true]);
  });

  it("does not trust a deployed read dated no later than the one read before the change", () => {
    const watch = new DeploymentWatch(BEFORE);
    expect(settledBy(watch, [read("deployed", BEFORE - 60), read("deployed", BEFORE), read("deployed", null)])).toEqual([
      false,
      false,
      false,
    ]);
    expect(watch.predatesChange(read("deployed", BEFORE))).toBe(true);
    expect(watch.settledBy(read("deployed", BEFORE + 1))).toBe(true);
    expect(watch.predatesChange(read("deployed", BEFORE + 1))).toBe(false);
  });

  it("trusts a deployed read after it has seen the Source not deployed since the change, even in the same second", () => {
    const watch = new DeploymentWatch(BEFORE);
    expect(settledBy(watch, [read("deployed", BEFORE), read("deploying", BEFORE), read("deployed", BEFORE)])).toEqual([false, false, true]);
    expect(watch.predatesChange(read("deployed", BEFORE))).toBe(false);
  });

  it("after a create (nothing deployed before), any deployed read with a date counts", () => {
    expect(settledBy(new DeploymentWatch(null), [read("deploying", null), read("deployed", 1)])).toEqual([false, true]);
    expect(new DeploymentWatch(null).settledBy(read("deployed", BEFORE))).toBe(true);
  });

  it("counts disabled only while the Source is disabled; deleted never", () => {
    expect(new DeploymentWatch(BEFORE).settledBy(read("disabled", BEFORE, false))).toBe(true);
    expect(new DeploymentWatch(BEFORE).settledBy(read("disabled", BEFORE, true))).toBe(false);
    expect(new DeploymentWatch(BEFORE).settledBy(read("deleted", BEFORE + 5))).toBe(false);
  });

  it("has no notion of time: a read's date far ahead of or behind any clock is judged the same", () => {
    // A service whose clock is a year behind the client's, and one a year ahead.
    for (const skew of [-365 * 86_400, 365 * 86_400]) {
      const watch = new DeploymentWatch(BEFORE + skew);
      expect(settledBy(watch, [read("deployed", BEFORE + skew), read("deployed", BEFORE + skew + 2)])).toEqual([false, true]);
    }
  });
});
