#!/usr/bin/env node
// The `asset-delivery` command line: dispatches `asset-delivery <command> ...` to cli/src/commands.
import { AdminError } from "@asset-delivery/server";
import { UsageError, type Command } from "./command";
import { accountsCommand } from "./commands/accounts";
import { demoCommand } from "./commands/demo";
import { driftCommand } from "./commands/drift";
import { keysCommand } from "./commands/keys";
import { reportsCommand } from "./commands/reports";
import { serveCommand } from "./commands/serve";
import { usageCommand } from "./commands/usage";

export const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  accounts: accountsCommand,
  keys: keysCommand,
  demo: demoCommand,
  reports: reportsCommand,
  usage: usageCommand,
  drift: driftCommand,
};

function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `Usage: asset-delivery <command> [options]   (asset-delivery <command> --help for details)\n\nCommands:\n${lines.join("\n")}\n`;
}

/** parseArgs reports unknown or malformed options with these codes: usage errors, not crashes. */
function isArgumentError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("ERR_PARSE_ARGS_");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(overview());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${overview()}`);
    return 2;
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
