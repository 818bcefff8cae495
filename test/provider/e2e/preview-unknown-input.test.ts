// A preview through the real Pulumi CLI, as a reviewer reads it in a pull request: an existing
// Source whose one input depends on a resource still to be created shows only that input changing,
// not its API defaults and provider options as removed (check fills them in whatever is unknown).
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server";
import { programStack, removeStacksAndServer, TEST_PROGRAMS, type ProgramStack } from "../../support/program-stack";

const STEP_TIMEOUT = 180_000;

const photos = {
  name: "Photos",
  deployment: { type: "webfolder", serviceSubdomains: ["e2e-unknown-photos"], webfolderBaseUrl: "https://origin.example.com/images/" },
};
const later = {
  name: "Later",
  deployment: { type: "webfolder", serviceSubdomains: ["e2e-unknown-later"], webfolderBaseUrl: "https://origin.example.com/later/" },
};

let server: TestServer;
let program: ProgramStack;

beforeAll(async () => {
  server = await startTestServer({ deployDelayMs: 0, deployLagMs: 0 });
  program = await programStack(path.join(TEST_PROGRAMS, "sources"), "unknown", { baseUrl: server.url, apiKey: server.adminKey });
  await program.set({ sources: { photos }, secretFields: { photos: ["password"] } });
  await program.setSecret({ secretValues: { photos: { password: "origin-password" } } });
}, STEP_TIMEOUT);

afterAll(() => removeStacksAndServer({ stacks: [program], server }));

/** The property lines (`~ name: ...`, `- cacheTtlError: 300`) of one resource's step in a `--diff` preview's text. */
function changedProperties(text: string, resource: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim().startsWith("[urn=") && line.trim().endsWith(`::${resource}]`));
  if (start === -1) throw new Error(`no step of ${resource} in the preview:\n${text}`);
  const end = lines.findIndex((line, i) => i > start && (/^\s*[~+-] \S+: \(\w+\)$/.test(line) || line.includes("--outputs:--")));
  return lines
    .slice(start + 1, end)
    .filter((line) => /^\s*[~+-] \w+\s*:/.test(line))
    .map((line) => line.trim().replace(/\s+:/, ":"));
}

describe("a preview with one input not known yet", () => {
  it(
    "shows only that input changing",
    async () => {
      expect((await program.stack.up()).summary.resourceChanges).toEqual({ create: 2 });
      // `photos` now takes its name from the id of `later`, which the preview has not created.
      await program.set({ sources: { later, photos }, nameFromIdOf: { photos: "later" } });
      const preview = await program.stack.preview({ diff: true });
      expect(preview.changeSummary).toEqual({ create: 1, update: 1, same: 1 });
      // Not `- cacheTtlBehavior: "respect_origin"`, `- enabled: true`, `- waitForDeployment: true`...
      expect(changedProperties(preview.stdout, "photos")).toEqual(['~ name: "Photos" => [unknown]']);
    },
    STEP_TIMEOUT,
  );
});
