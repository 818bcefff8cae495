#!/usr/bin/env node
// The `asset-delivery` command line: dispatches `asset-delivery <command> ...` to cli/src/commands.
import * as fs from "node:fs";
import * as path from "node:path";
import { exitUnlessSupportedNode } from "@asset-delivery/sdk/node-version";
import { UsageError, type Command } from "./command";

// Each command is loaded only when it runs: `serve` need not load Pulumi, nor `drift` Fastify.
export const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import("./commands/serve.js")).serveCommand,
  accounts: async () => (await import("./commands/accounts.js")).accountsCommand,
  keys: async () => (await import("./commands/keys.js")).keysCommand,
  users: async () => (await import("./commands/users.js")).usersCommand,
  demo: async () => (await import("./commands/demo.js")).demoCommand,
  reports: async () => (await import("./commands/reports.js")).reportsCommand,
  usage: async () => (await import("./commands/usage.js")).usageCommand,
  drift: async () => (await import("./commands/drift.js")).driftCommand,
  purge: async () => (await import("./commands/purge.js")).purgeCommand,
  import: async () => (await import("./commands/import.js")).importCommand,
};

// The commands that run the local server or work on its database. They need @asset-delivery/server
// (Fastify, and better-sqlite3's native addon), an optional peer of this package: a CI job that only
// reviews drift installs the command without it.
const SERVER = "@asset-delivery/server";
const SERVER_COMMANDS: ReadonlySet<string> = new Set(["serve", "accounts", "keys", "demo", "reports", "usage", "users"]);

const serverRange = (
  JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8")) as { peerDependencies: Record<string, string> }
).peerDependencies[SERVER]!;

/** A command that needs the server package, run where it is not installed: exit code 1 and how to install it. */
export class MissingServerError extends Error {
  override name = "MissingServerError";
  constructor(command: string) {
    super(
      `asset-delivery ${command} needs the package ${SERVER} (the local server and its SQLite database), which is not installed here.\n` +
        `Install it beside this one: npm install --save-dev ${SERVER}@${serverRange}\n` +
        "(drift, import and purge only talk to the API and work without it.)",
    );
  }
}

function isMissingServer(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === "MODULE_NOT_FOUND" && typeof message === "string" && message.includes(`'${SERVER}'`);
}

async function loadCommand(name: string, load: () => Promise<Command>): Promise<Command> {
  try {
    return await load();
  } catch (error) {
    if (SERVER_COMMANDS.has(name) && isMissingServer(error)) throw new MissingServerError(name);
    throw error;
  }
}

async function overview(): Promise<string> {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const summary = async (name: string, load: () => Promise<Command>) => {
    try {
      return (await loadCommand(name, load)).summary;
    } catch (error) {
      if (error instanceof MissingServerError) return `(needs ${SERVER}, not installed)`;
      throw error;
    }
  };
  const lines = await Promise.all(
    Object.entries(COMMANDS).map(async ([name, load]) => `  ${name.padEnd(width)}  ${await summary(name, load)}`),
  );
  return `Usage: asset-delivery <command> [options]   (asset-delivery <command> --help for details)\n\nCommands:\n${lines.join("\n")}\n`;
}

/** parseArgs reports unknown or malformed options with these codes: usage errors, not crashes. */
function isArgumentError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("ERR_PARSE_ARGS_");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(await overview());
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`Unknown command "${name}".\n\n${await overview()}`);
    return 2;
  }
  let command: Command;
  try {
    command = await loadCommand(name, load);
  } catch (error) {
    if (!(error instanceof MissingServerError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(command.usage + "\n");
    return 0;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError || isArgumentError(error)) {
      process.stderr.write(`asset-delivery ${name}: ${(error as Error).message}\n\n${command.usage}\n`);
      return 2;
    }
    // Loaded here, not up front: only a server command fails this way, and it has loaded the server already.
    const { AdminError } = SERVER_COMMANDS.has(name) ? await import("@asset-delivery/server") : { AdminError: undefined };
    if (AdminError && error instanceof AdminError) {
      process.stderr.write(`asset-delivery ${name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** Runs the command line of this process and sets its exit code. */
export function run(): void {
  exitUnlessSupportedNode("asset-delivery"); // bin/asset-delivery.js checked already; `node dist/main.js` did not
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`asset-delivery: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) run();
