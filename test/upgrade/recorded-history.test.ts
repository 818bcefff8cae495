// Each recorded release is what that release's code wrote, and stays so (recorded-history.ts): its
// manifest names the commit whose code was recorded, and every recorded file is as the commit that
// added it has it. A shallow clone cannot show either: there the folder's files are held to the digest
// pinned below, which a full clone holds to history as well.
import { describe, expect, it } from "vitest";
import {
  changesSinceRecorded,
  folderDigest,
  historyProblem,
  isAncestor,
  isCommit,
  recordingCommit,
  type Rederived,
} from "./recorded-history";
import { readManifest, recordedVersions } from "./recorded-stacks";

const API_REPORT_0_1_0 =
  "v0.1.0's code (sourceCommit 7d25f28, a clean build of sdk/ and provider/ in a scratch extract) reported again by api-report.ts with construct signatures and static members (issue 55): the lines of the recorded report unchanged, those lines added. Before that, 758311c had derived it again from the same code with the reporter's fix (no compiler counters in symbol names).";

/** 758311c: v0.1.0's reports derived again with the reporter's fix: the lines the later derivation keeps, adding others. */
const REPORTER_FIXED = "758311c2c66170c7203b61db5f4b85f1f9a7ddae";

/**
 * Recorded files derived again from their release's source commit (a newer version of their
 * generator, or a repair run on the release's tag), each acknowledged by its content's hash.
 */
const REDERIVED: Rederived[] = [
  {
    file: "test/upgrade/recorded/v0.1.0/api/provider.api.txt",
    sha256: "6da2a74784a15386cee40214fa0c94e795e2a52701665849880c22adb8655d7f",
    linesOf: REPORTER_FIXED,
    why: API_REPORT_0_1_0,
  },
  {
    file: "test/upgrade/recorded/v0.1.0/api/sdk.api.txt",
    sha256: "9b15796ce0258b74e6d853618832622e5f053e7130c806bbb2a5a288b314e06c",
    linesOf: REPORTER_FIXED,
    why: API_REPORT_0_1_0,
  },
];

/**
 * Each recorded folder's folderDigest, pinned when it was recorded (or derived again, as REDERIVED
 * says). Written here, not by record-states.ts, so a re-recording cannot update it.
 */
const PINNED_DIGESTS: Record<string, string> = {
  "0.1.0": "bbedfd56867c321e53a5b7c4f4b29530ec449f10394b40f725330ff09549047f",
};

describe.each(recordedVersions())("the recorded v%s", (version) => {
  it("has the digest of its files pinned in this test (checked with or without git history)", () => {
    expect(PINNED_DIGESTS[version], `no digest pinned for v${version} in recorded-history.test.ts`).toMatch(/^[0-9a-f]{64}$/);
    expect(folderDigest(version), `test/upgrade/recorded/v${version}: its files are not as recorded`).toBe(PINNED_DIGESTS[version]);
  });

  it("names the commit whose code it recorded (manifest.json sourceCommit), an ancestor of the commit that added it (a shallow clone: a commit id)", () => {
    const { sourceCommit } = readManifest(version);
    expect(sourceCommit, `test/upgrade/recorded/v${version}/manifest.json: sourceCommit`).toMatch(/^[0-9a-f]{40}$/);
    // Without history the commit cannot be looked up; the pinned digest above covers the manifest.
    if (historyProblem()) return;
    expect(isCommit(sourceCommit), `sourceCommit ${sourceCommit} is no commit of this repository`).toBe(true);
    const added = recordingCommit(version);
    expect(added, `test/upgrade/recorded/v${version}/manifest.json is in no commit`).toBeDefined();
    expect(isAncestor(sourceCommit, added!), `sourceCommit ${sourceCommit} is not an ancestor of ${added}, which added the recording`).toBe(
      true,
    );
  });

  it("every recorded file is as the commit that added it has it (git history), or acknowledged as derived again from that code", () => {
    const problem = historyProblem();
    if (problem) {
      // A shallow clone: the pinned digest is what can be checked (the test above); say why here.
      expect(folderDigest(version), `${problem}; checked against the pinned digest instead`).toBe(PINNED_DIGESTS[version]);
      return;
    }
    const changes = changesSinceRecorded(version, REDERIVED);
    expect(changes, `a release's recorded files are kept as recorded:\n${changes.join("\n")}`).toEqual([]);
  });
});
