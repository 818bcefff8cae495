// Breaking changes caught before a release: this build's plugin schema and the exported TypeScript
// API of @asset-delivery/sdk and /provider compared with the last recorded release's
// (test/upgrade/recorded/v<version>/schema.json, api/), each breaking change listed by path
// (schema-changes.ts, api-report.ts), and every one of them acknowledged in test/upgrade/breaking-changes.json,
// whose lists tools/set-version.sh writes into the CHANGELOG entry (and whose presence makes it
// refuse a patch version, or a minor one from 1.0 on). An unacknowledged change fails here with
// what changed and how to acknowledge it; an acknowledged change that is no longer made fails too.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { packageSchema } from "../../provider/src/plugin/schema";
import { currentVersion, RECORDED_DIR, recordedVersions } from "./recorded-stacks";
import { apiReports, breakingApiChanges } from "./api-report";
import { breakingSchemaChanges } from "./schema-changes";

const ACKNOWLEDGED_FILE = path.join(__dirname, "breaking-changes.json");

interface Acknowledged {
  /** The recorded release these changes are breaking against. */
  since: string;
  schema: string[];
  api: string[];
}

function acknowledged(): Acknowledged {
  return JSON.parse(fs.readFileSync(ACKNOWLEDGED_FILE, "utf8")) as Acknowledged;
}

/** The last recorded release: the version this build's users upgrade from (set-version.sh records each release). */
function lastRelease(): string {
  const versions = recordedVersions();
  if (versions.length === 0) throw new Error(`no release recorded under ${RECORDED_DIR}: run bash tools/record-upgrade-states.sh`);
  return versions[versions.length - 1]!;
}

/** The failure message: exactly what changed, and how to acknowledge it (or that it is no longer made). */
function unacknowledgedReport(kind: "schema" | "api", since: string, found: readonly string[], listed: readonly string[]): string {
  const missing = found.filter((change) => !listed.includes(change));
  const stale = listed.filter((change) => !found.includes(change));
  const lines: string[] = [];
  if (missing.length > 0)
    lines.push(
      `${missing.length} breaking change(s) of the ${kind} since v${since}, not acknowledged:`,
      ...missing.map((change) => `  - ${change}`),
      `A program, stack or SDK user of v${since} can meet each after upgrading. If it is meant, add each line above (without "  - ")`,
      `to "${kind}" in test/upgrade/breaking-changes.json: the next release must then be a new minor version (0.x) or major (from 1.0),`,
      `and tools/set-version.sh writes the list into its CHANGELOG entry. If it is not meant, undo it.`,
    );
  if (stale.length > 0)
    lines.push(
      `acknowledged in test/upgrade/breaking-changes.json ("${kind}") but no longer made: remove them:`,
      ...stale.map((change) => `  - ${change}`),
    );
  return lines.join("\n");
}

describe("breaking changes since the last recorded release", () => {
  const since = lastRelease();
  const ack = acknowledged();

  it("test/upgrade/breaking-changes.json is about the last recorded release", () => {
    expect(ack.since, `test/upgrade/breaking-changes.json: "since" must be the last recorded release, ${since}`).toBe(since);
  });

  it("every breaking change of the plugin's schema is acknowledged", () => {
    const before = JSON.parse(fs.readFileSync(path.join(RECORDED_DIR, `v${since}`, "schema.json"), "utf8")) as object;
    const found = breakingSchemaChanges(before, packageSchema(currentVersion()));
    const report = unacknowledgedReport("schema", since, found, ack.schema);
    expect(report, report).toBe("");
  });

  it("every breaking change of the exported TypeScript API of @asset-delivery/sdk and /provider is acknowledged", () => {
    const found = Object.entries(apiReports()).flatMap(([pkg, now]) => {
      const before = fs
        .readFileSync(path.join(RECORDED_DIR, `v${since}`, "api", `${pkg}.api.txt`), "utf8")
        .split("\n")
        .filter(Boolean);
      return breakingApiChanges(before, now);
    });
    const report = unacknowledgedReport("api", since, found, ack.api);
    expect(report, report).toBe("");
  }, 120_000);
});
