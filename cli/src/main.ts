#!/usr/bin/env node
// The `asset-delivery` command line: dispatches `asset-delivery <command> ...` to cli/src/commands.
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

async function overview(): Promise<string> {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = await Promise.all(
    Object.entries(COMMANDS).map(async ([name, load]) => `  ${name.padEnd(width)}  ${(await load()).summary}`),
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
  const command = await load();
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
    // Loaded here, not up front: a command that failed this way has loaded the server already.
    const { AdminError } = await import("@asset-delivery/server");
    if (error instanceof AdminError) {
      process.stderr.write(`asset-delivery ${name}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** Runs the command line of this process and sets its exit code. */
export function run(): void {
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
