// Fuzzing the API from its own OpenAPI document with schemathesis (from PyPI, pinned in
// requirements.txt, in the git-ignored .venv that .ci/run creates, or this test when it is
// missing): every check on (the exceptions, each with its reason, in schemathesis.toml), a valid
// key, a fixed seed, few examples and a time bound. It must find no 5xx, no answer that breaks the
// document and no valid Source write refused.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServeData, startServeProcess, type ServeData, type ServeProcess } from "../support/serve-process.cjs";

const REPO = path.resolve(__dirname, "..", "..");
const VENV = path.join(REPO, ".venv");
const SCHEMATHESIS = path.join(VENV, "bin", "schemathesis");
const REQUIREMENTS = path.join(__dirname, "requirements.txt");
/**
 * The time bound of the run, there to catch a hang: about 40 s on 2 idle cores, 95 s alone on 2
 * cores at a load of 20, over 240 s there inside the whole suite. Since the Source writes must
 * succeed (schemathesis_hooks.py), more of them reach the server: 299 s alone at a load of 22,
 * most of it the coverage phase.
 */
const RUN_TIMEOUT_MS = 900_000;

/** Installs requirements.txt into .venv (created if absent) unless the pinned schemathesis is there. */
function ensureSchemathesis(): void {
  const pinned = /^schemathesis==(\S+)$/m.exec(fs.readFileSync(REQUIREMENTS, "utf8"))![1]!;
  const installed = fs.existsSync(SCHEMATHESIS) && spawnSync(SCHEMATHESIS, ["--version"], { encoding: "utf8" }).stdout.includes(pinned);
  if (installed) return;
  const steps: [string, string[]][] = [
    ["python3", ["-m", "venv", VENV]],
    [path.join(VENV, "bin", "pip"), ["install", "--quiet", "-r", REQUIREMENTS]],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { encoding: "utf8", timeout: 300_000 });
    if (result.status !== 0)
      throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stderr}${result.stdout}`);
  }
}

let data: ServeData;
let server: ServeProcess;
beforeAll(async () => {
  ensureSchemathesis();
  data = createServeData("asset-delivery-fuzz-");
  server = await startServeProcess(data.dbPath, ["--rate-limits", "off", "--deploy-delay-ms", "100"]);
}, 360_000);
afterAll(async () => {
  await server?.stop();
  data?.remove();
});

/** The part of the output worth reading when a run fails: its failures and summary. */
function failures(output: string): string {
  const at = output.indexOf("FAILURES");
  return at >= 0 ? output.slice(at, at + 8000) : output.slice(-8000);
}

describe("schemathesis over the OpenAPI document, every check on", () => {
  it(
    "finds no server error, no response that violates the document, and no valid write refused but for a rule the hooks name",
    () => {
      const run = spawnSync(
        SCHEMATHESIS,
        [
          "--config-file",
          path.join(__dirname, "schemathesis.toml"),
          "run",
          `${server.url}/openapi.json`,
          "--checks",
          "all",
          "--header",
          `Authorization: Bearer ${data.adminKey}`,
          // Bounded by examples, not by --max-time: with a time budget the fuzzing phase repeats
          // until it is spent and the stateful phase never runs.
          "--max-examples",
          "10",
          "--seed",
          "20260101",
          "--request-timeout",
          "10",
          // One worker: with several, schemathesis 4.32 itself may fail on a thread race (SystemError).
          "--workers",
          "1",
          "--no-color",
        ],
        // The hooks make the generated Source writes meet the rules no schema states, and give each
        // PATCH an existing Source (schemathesis.toml).
        {
          encoding: "utf8",
          timeout: RUN_TIMEOUT_MS,
          env: {
            ...process.env,
            SCHEMATHESIS_HOOKS: path.join(__dirname, "schemathesis_hooks.py"),
            // The hooks create the Sources a PATCH is sent to, through the same API and key.
            ASSET_DELIVERY_BASE_URL: server.url,
            ASSET_DELIVERY_API_KEY: data.adminKey,
          },
        },
      );
      const output = `${run.stdout}${run.stderr}`;
      expect(run.signal, `schemathesis ran past ${RUN_TIMEOUT_MS} ms`).toBeNull();
      expect(output, output.slice(-3000)).toMatch(/Tested:\s+13/);
      expect(run.status, failures(output)).toBe(0);
    },
    RUN_TIMEOUT_MS + 10_000,
  );
});
