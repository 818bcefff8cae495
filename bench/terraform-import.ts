// The way in from Terraform at scale: `asset-delivery import --from-terraform` of a teamjourney/imgix
// state of 1,000 S3 Sources with --trust-state-secrets, into a native (YAML) stack with the
// passphrase secrets provider, as a user runs it, against the emulator with its rate limits off.
// Measured in one run: the import's wall time, its GETs (counted at a proxy in front of the server)
// and its Pulumi commands (counted by a `pulumi` first on PATH), beside the cost of the one command
// per secret it replaced (`pulumi config set --secret`, value on standard input: one measured here,
// times the number of secrets and the record).
//
//   TS_NODE_PROJECT=bench/tsconfig.json node -r ts-node/register bench/terraform-import.ts
//   (as `npm run bench -- terraform-import` runs it; env BENCH_SOURCES, default 1000)
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createClient } from "@asset-delivery/sdk";
import { pulumiBinDir, pulumiEnv, repoRoot } from "../test/support/pulumi";
import { countSource, countState } from "../test/cli/terraform/fixtures";

import { startCountingProxy } from "./lib/counting-proxy.cjs";
import { check, summarize, timed } from "./lib/report.cjs";
import { createServeData, startServeProcess } from "../test/support/serve-process.cjs";

const SOURCES = Number(process.env.BENCH_SOURCES ?? 1000);
const TARGETS = { seconds: 75, getsPerHundred: 1, commands: 6 };
const CLI_BIN = path.join(repoRoot(), "cli", "bin", "asset-delivery.js");
const secretOf = (i: number) => `bench-tf-s3-secret-${i}`;

function run(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${path.basename(file)} ${args[0]} failed: ${stderr || error.message}`)) : resolve(stdout),
    ),
  );
}

async function main() {
  const data = createServeData("asset-delivery-bench-tf-");
  const server = await startServeProcess(data.dbPath, ["--rate-limits", "off", "--deploy-delay-ms", "0", "--deploy-lag-ms", "0"]);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "asset-delivery-bench-tf-"));
  const proxy = await startCountingProxy(server.url);
  try {
    // Setup, not timed: the Sources, the state, a YAML project and its stack.
    const client = createClient({ baseUrl: server.url, apiKey: data.adminKey, pacing: false });
    const ids: string[] = [];
    for (let i = 0; i < SOURCES; i += 20)
      ids.push(
        ...(
          await Promise.all(
            Array.from({ length: Math.min(20, SOURCES - i) }, (_, j) =>
              client.sources.create(countSource("bench-tf", i + j, secretOf(i + j))),
            ),
          )
        ).map((source) => source.id),
      );
    await client.close();
    const stateFile = path.join(folder, "terraform.tfstate");
    fs.writeFileSync(stateFile, countState("bench-tf", ids, secretOf));
    const project = path.join(folder, "project");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: tfbench\nruntime: yaml\n");
    const counting = path.join(folder, "bin");
    fs.mkdirSync(counting);
    const log = path.join(folder, "commands.log");
    fs.writeFileSync(
      path.join(counting, "pulumi"),
      `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\nexec '${path.join(pulumiBinDir(), "pulumi")}' "$@"\n`,
      { mode: 0o755 },
    );
    const pulumi = pulumiEnv({ stateDir: path.join(folder, "state"), passphrase: "bench-terraform-import" });
    const env: NodeJS.ProcessEnv = { ...process.env, ...pulumi, ASSET_DELIVERY_BASE_URL: proxy.url, ASSET_DELIVERY_API_KEY: data.adminKey };
    delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
    await run(path.join(pulumiBinDir(), "pulumi"), ["stack", "init", "dev", "--non-interactive"], project, env);

    // The cost of one secret the old way, in the same run: one `pulumi config set --secret`.
    const one = await timed(async () =>
      spawnSync(path.join(pulumiBinDir(), "pulumi"), ["config", "set", "--secret", "--stack", "dev", "oneSecret", "--non-interactive"], {
        cwd: project,
        env,
        input: "one-secret-value",
      }),
    );
    spawnSync(path.join(pulumiBinDir(), "pulumi"), ["config", "rm", "--stack", "dev", "oneSecret"], { cwd: project, env });

    proxy.reset();
    const imported = await timed(() =>
      run(process.execPath, [CLI_BIN, "import", "--from-terraform", stateFile, "--stack", "dev", "--trust-state-secrets"], project, {
        ...env,
        PATH: `${counting}${path.delimiter}${env.PATH}`,
      }),
    );
    const gets = proxy.counts.byRequest;
    const commands = fs.readFileSync(log, "utf8").trim().split("\n");
    const stackFile = fs.readFileSync(path.join(project, "Pulumi.dev.yaml"), "utf8");
    const encrypted = (stackFile.match(/secure: v1:/g) ?? []).length;
    const before = (SOURCES + 1) * one.seconds;
    console.log(
      `  ${SOURCES} Sources: import ${imported.seconds.toFixed(1)} s, ${proxy.counts.requests} requests ${JSON.stringify(gets)}, ` +
        `${commands.length} Pulumi commands (${commands.join(", ")}), ${encrypted} secrets encrypted in Pulumi.dev.yaml; ` +
        `one \`pulumi config set --secret\` ${one.seconds.toFixed(2)} s: one per secret and the record would be ${before.toFixed(0)} s ` +
        `(${(before / imported.seconds).toFixed(1)}x the import)`,
    );
    summarize("terraform-import", [
      check(`import of ${SOURCES}`, Number(imported.seconds.toFixed(1)), TARGETS.seconds, { atMost: true, unit: " s" }),
      check("GETs", proxy.counts.requests, Math.ceil(SOURCES / 100) * TARGETS.getsPerHundred, { atMost: true, unit: "" }),
      check("Pulumi commands", commands.length, TARGETS.commands, { atMost: true, unit: "" }),
      check("secrets encrypted", encrypted, SOURCES + 1, { unit: "" }),
    ]);
  } finally {
    await proxy.close();
    await server.stop();
    data.remove();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
