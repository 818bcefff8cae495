// The one "settled deployment" rule (isDeploymentSettled), as a pure function.
import { describe, expect, it } from "vitest";
import { isDeploymentSettled, type DeploymentState } from "@asset-delivery/sdk";

const read = (
  deployment_status: DeploymentState["attributes"]["deployment_status"],
  date_deployed: number | null,
  enabled = true,
): DeploymentState => ({
  attributes: { deployment_status, date_deployed, enabled },
});
const CHANGED_AT = 1_767_268_800_400; // ms; its second is 1_767_268_800

describe("isDeploymentSettled", () => {
  it("without a change time, any deployed read counts", () => {
    expect(isDeploymentSettled(read("deployed", 5))).toBe(true);
    expect(isDeploymentSettled(read("deploying", 5))).toBe(false);
  });

  it("a deployed read older than the change's second predates it", () => {
    expect(isDeploymentSettled(read("deployed", 1_767_268_799), CHANGED_AT)).toBe(false);
    expect(isDeploymentSettled(read("deployed", null), CHANGED_AT)).toBe(false);
    expect(isDeploymentSettled(read("deployed", 1_767_268_800), CHANGED_AT)).toBe(true);
    expect(isDeploymentSettled(read("deployed", 1_767_268_805), CHANGED_AT)).toBe(true);
  });

  it("disabled counts only while the Source is disabled; deploying and deleted never", () => {
    expect(isDeploymentSettled(read("disabled", 1, false), CHANGED_AT)).toBe(true);
    expect(isDeploymentSettled(read("disabled", 1, true), CHANGED_AT)).toBe(false);
    expect(isDeploymentSettled(read("deploying", 1_767_268_805), CHANGED_AT)).toBe(false);
    expect(isDeploymentSettled(read("deleted", 1_767_268_805), CHANGED_AT)).toBe(false);
  });
});
