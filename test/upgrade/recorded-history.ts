// A release's recorded folder (test/upgrade/recorded/v<version>/) is evidence of what that release
// wrote only while it stays as recorded: a `--force` re-recording from today's build would make the
// upgrade test compare today's code with itself. So the folder is tied to git history: its
// manifest.json names the commit whose code was recorded (`sourceCommit`, an ancestor of the commit
// that added the folder), and each recorded file must be, byte for byte, as the commit that added it
// has it. Two changes are allowed, each shown for what it is: `sourceCommit` added to a manifest
// recorded before the field existed, and a file derived again from the source commit's code by a
// newer version of its generator (the API reports, api-report.ts), acknowledged by its content's
// hash in REDERIVED, with every line of the version it derives again kept and lines only added.
//
// This needs the repository's history. A shallow clone (actions/checkout's default, fetch-depth 1)
// lacks it; there the folder is checked against a digest of its files pinned in the test
// (folderDigest), which a full clone checks against history too, so the pin cannot drift unseen.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { repoRoot } from "../support/pulumi";
import { RECORDED_DIR } from "./recorded-stacks";

/** A recorded file derived again from its release's source commit, acknowledged by the hash of its content. */
export interface Rederived {
  /** Its path in the repository. */
  file: string;
  /** sha256 of the content kept now. */
  sha256: string;
  /**
   * The commit whose version of the file this one derives again: each of its lines is kept,
   * unchanged and in order; lines are only added (a generator that reports more, never otherwise).
   */
  linesOf: string;
  /** How it was derived again, and why. */
  why: string;
}

function git(args: readonly string[]): string {
  return execFileSync("git", args, { cwd: repoRoot(), encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["pipe", "pipe", "pipe"] });
}

/** Why the recorded folders cannot be checked against history here (not a git checkout, a shallow clone), or undefined. */
export function historyProblem(): string | undefined {
  try {
    if (git(["rev-parse", "--is-inside-work-tree"]).trim() !== "true") return `${repoRoot()} is not a git work tree`;
  } catch (error) {
    return `${repoRoot()} is not a git checkout (git rev-parse failed: ${String(error).split("\n")[0]})`;
  }
  if (git(["rev-parse", "--is-shallow-repository"]).trim() === "true")
    return (
      "this clone is shallow: the recorded releases are checked against the commits that added them, which it lacks. " +
      "Fetch the whole history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)"
    );
  return undefined;
}

/** The repository path of a recorded version's folder, with `/`. */
export function recordedFolder(version: string): string {
  return path
    .relative(repoRoot(), path.join(RECORDED_DIR, `v${version}`))
    .split(path.sep)
    .join("/");
}

/** Each file of `folder` with the commit that first added it (oldest first): `git log --diff-filter=A`. */
function addingCommits(folder: string): Map<string, string> {
  const added = new Map<string, string>();
  let commit = "";
  for (const line of git(["log", "--diff-filter=A", "--reverse", "--format=commit %H", "--name-only", "--", folder]).split("\n")) {
    if (line.startsWith("commit ")) commit = line.slice("commit ".length);
    else if (line !== "" && !added.has(line)) added.set(line, commit);
  }
  return added;
}

/** The commit that added the folder's manifest.json: the recording's own commit. */
export function recordingCommit(version: string): string | undefined {
  return addingCommits(recordedFolder(version)).get(`${recordedFolder(version)}/manifest.json`);
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export function isAncestor(ancestor: string, descendant: string): boolean {
  try {
    git(["merge-base", "--is-ancestor", ancestor, descendant]);
    return true;
  } catch {
    return false;
  }
}

/** Whether `sha` names a commit of this repository. */
export function isCommit(sha: string): boolean {
  try {
    git(["cat-file", "-e", `${sha}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

const sha256 = (content: Buffer) => createHash("sha256").update(content).digest("hex");

/**
 * One sha256 over the recorded folder of `version` as it is on disk: its files' paths (from the
 * folder, with `/`) and contents' sha256, in path order. Read without git, so a shallow clone can
 * compare it with a pinned value.
 */
export function folderDigest(version: string): string {
  const folder = path.join(repoRoot(), recordedFolder(version));
  const lines = fs
    .readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((file) => fs.statSync(path.join(folder, file)).isFile())
    .map((file) => `${file.split(path.sep).join("/")}\t${sha256(fs.readFileSync(path.join(folder, file)))}`)
    .sort();
  return sha256(Buffer.from(lines.join("\n"), "utf8"));
}

/**
 * How the working tree's recorded folder of `version` differs from what its commits added: one line
 * per file changed, removed or never committed, naming the commit it is compared with. Empty when
 * every file is as recorded (or one of the two allowed changes).
 */
export function changesSinceRecorded(version: string, rederived: readonly Rederived[]): string[] {
  const folder = recordedFolder(version);
  const added = addingCommits(folder);
  const present = git(["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", folder])
    .split("\0")
    .filter((file) => file !== "" && fs.existsSync(path.join(repoRoot(), file)));
  const changes: string[] = [];
  for (const file of present) if (!added.has(file)) changes.push(`${file}: in no commit (a recording is committed as it was written)`);
  // The blob each file had when added, one `git ls-tree` per adding commit.
  const recordedBlob = new Map<string, string>();
  for (const commit of new Set(added.values()))
    for (const line of git(["ls-tree", "-r", "--full-tree", commit, "--", folder]).split("\n").filter(Boolean)) {
      const [meta, file] = line.split("\t") as [string, string];
      if (added.get(file) === commit) recordedBlob.set(file, meta.split(" ")[2]!);
    }
  for (const [file, commit] of added) {
    const where = `${file}: changed since ${commit.slice(0, 12)} added it`;
    const absolute = path.join(repoRoot(), file);
    if (!fs.existsSync(absolute)) {
      changes.push(`${file}: removed since ${commit.slice(0, 12)} added it`);
      continue;
    }
    if (git(["hash-object", "--", file]).trim() === recordedBlob.get(file)) continue;
    const content = fs.readFileSync(absolute);
    if (file === `${folder}/manifest.json` && manifestWithSourceCommitAdded(git(["show", `${commit}:${file}`]), content.toString("utf8")))
      continue;
    const acknowledged = rederived.find((entry) => entry.file === file);
    if (acknowledged?.sha256 === sha256(content)) {
      const { linesOf } = acknowledged;
      const lost = linesNotKept(git(["show", `${linesOf}:${file}`]), content.toString("utf8"));
      if (lost.length === 0) continue;
      changes.push(
        `${where}: derived again, but ${lost.length} of the lines ${linesOf.slice(0, 12)} has are not kept, unchanged and in order, as REDERIVED says (the first: ${JSON.stringify(lost[0])})`,
      );
      continue;
    }
    changes.push(
      acknowledged
        ? `${where}, and not as acknowledged in REDERIVED (sha256 ${sha256(content)}, acknowledged ${acknowledged.sha256})`
        : `${where} (sha256 now ${sha256(content)})`,
    );
  }
  return changes.sort();
}

/** The lines of `before` that `after` does not keep, unchanged and in order (none: only lines were added). */
function linesNotKept(before: string, after: string): string[] {
  const kept = after.split("\n");
  const lost: string[] = [];
  let from = 0;
  for (const line of before.split("\n")) {
    const at = kept.indexOf(line, from);
    if (at === -1) lost.push(line);
    else from = at + 1;
  }
  return lost;
}

/** Whether `now` is the manifest `then` with only `sourceCommit` added (then had none). */
function manifestWithSourceCommitAdded(then: string, now: string): boolean {
  const [before, after] = [JSON.parse(then), JSON.parse(now)] as [Record<string, unknown>, Record<string, unknown>];
  if ("sourceCommit" in before || typeof after.sourceCommit !== "string") return false;
  const { sourceCommit: _added, ...rest } = after;
  return isDeepStrictEqual(rest, before);
}
