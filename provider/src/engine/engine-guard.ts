// A provider process must not outlive the Pulumi engine that started it. The engine starts each
// plugin in a process group of its own, so a `kill -9` of the `pulumi` process group (a CI job
// cancelled or timed out) leaves the plugin running, listening, forever: nothing in @pulumi/pulumi's
// dynamic-provider host notices the engine going away. Worse, once the engine's end of stderr is
// closed, one write to stderr fails with EPIPE, the host's `uncaughtException` handler writes that
// error to stderr again (EPIPE again) and keeps every one in a Set: a loop at full CPU that grows
// without bound (docs/interrupted-runs.md).
//
// The guard, installed once per process (the dynamic host, when it loads the provider; the native
// plugin, at start):
// - checks the engine's gRPC address as Pulumi's Go providers do (`rpcutil.Healthcheck`: the
//   grpc.health.v1 Check, UNIMPLEMENTED counting as alive), every second instead of every five
//   minutes, and at once when a hint comes (stdin closed, a write to stdout or stderr failed, a
//   Log call to the engine failed);
// - keeps a failed write to stdout or stderr from ever becoming an uncaught exception;
// - ends the process once the engine no longer answers.
import type * as grpcModule from "@grpc/grpc-js";
import { grpcRuntime } from "./grpc";

/** The engine's address among a provider process's arguments (the engine passes it last), if any. */
export function engineAddress(argv: readonly string[]): string | undefined {
  return argv
    .slice(2)
    .reverse()
    .find((arg) => /^[\w.-]+:\d+$/.test(arg));
}

export type EngineHealth = "alive" | "gone";

const CHECK_TIMEOUT_MS = 5000;

/**
 * One health check of the engine: `gone` only when it cannot be reached (UNAVAILABLE: nothing
 * listens on its port any more); any answer, an error status included, is alive, and so is no
 * answer within `timeoutMs` (an engine that is busy, or stopped, is not gone).
 */
export function checkEngine(client: grpcModule.Client, timeoutMs: number): Promise<EngineHealth> {
  const grpc = grpcRuntime();
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      // An empty HealthCheckRequest (no service name) is an empty message.
      () => Buffer.alloc(0),
      (bytes: Buffer) => bytes,
      {},
      { deadline: Date.now() + timeoutMs },
      (error) => {
        resolve(error?.code === grpc.status.UNAVAILABLE ? "gone" : "alive");
      },
    );
  });
}

export interface EngineGuardOptions {
  /** The engine's gRPC address (`127.0.0.1:PORT`), as the engine passed it. */
  engineAddress: string;
  /** Time between checks. Default 1000 ms. */
  intervalMs?: number;
  /** Checks in a row that must find the engine gone. Default 2. */
  failuresToExit?: number;
  /** What happens once the engine is gone. Default: the process ends. */
  onGone?: () => void;
}

export interface EngineGuard {
  /** Checks now (a hint that the engine may be gone). */
  hint(): void;
  stop(): void;
}

/** Watches the engine and ends the process once it is gone (see the top of this file). */
export function guardEngine(options: EngineGuardOptions): EngineGuard {
  const grpc = grpcRuntime();
  const intervalMs = options.intervalMs ?? 1000;
  const failuresToExit = options.failuresToExit ?? 2;
  const onGone = options.onGone ?? (() => process.exit(1));
  const client = new grpc.Client(options.engineAddress, grpc.credentials.createInsecure());
  let failures = 0;
  let checking = false;
  let stopped = false;

  const check = async (): Promise<void> => {
    if (checking || stopped) return;
    checking = true;
    try {
      // A hint, or a run of failures, is confirmed by checks in a row, a short pause apart.
      while (!stopped && (await checkEngine(client, CHECK_TIMEOUT_MS)) === "gone") {
        if (++failures >= failuresToExit) {
          stop();
          onGone();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(200, intervalMs)).unref());
      }
      failures = 0;
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), intervalMs).unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    client.close();
  };
  return { hint: () => void check(), stop };
}

let processGuard: EngineGuard | undefined;

/**
 * Installs the guard for this process, once: `engineAddress` is the one the engine passed (default:
 * found in the process's arguments). Without an engine address (a test, a script) only the stdio
 * protection is installed. Returns the guard, if any, for hints.
 */
export function guardProviderProcess(address = engineAddress(process.argv)): EngineGuard | undefined {
  if (processGuard) return processGuard;
  // A failed write to stdout or stderr (EPIPE once the engine has closed its end) is a hint, never
  // an uncaught exception: @pulumi/pulumi's host would write that one to stderr again, and so on.
  const onStdioError = () => processGuard?.hint();
  process.stdout.on("error", onStdioError);
  process.stderr.on("error", onStdioError);
  if (address === undefined) return undefined;
  processGuard = guardEngine({ engineAddress: address });
  // The engine holds the other end of stdin: its end (EOF) is a hint too, never proof (some hosts
  // start plugins with stdin closed), so only the health check decides.
  if (!process.stdin.isTTY) {
    process.stdin.on("end", onStdioError).on("error", onStdioError).resume();
    process.stdin.unref?.();
  }
  return processGuard;
}

/** The process's guard, if one is installed: for hints (a Log call to the engine failed). */
export function engineGuard(): EngineGuard | undefined {
  return processGuard;
}

/** How long a task before the engine's shutdown may take: the engine kills the process 5 s after its signal. */
const SHUTDOWN_TASK_MS = 3000;

/**
 * Runs `task` when the engine ends this process, then ends it as the signal would have. The engine
 * ends a provider process with SIGINT to its process group (CTRL_BREAK on Windows, SIGBREAK to
 * Node.js), waits up to 5 s, then kills it; its log still takes messages meanwhile (Pulumi's plugin
 * host delivers what its plugins say as they shut down before it closes its sinks).
 */
export function beforeEngineShutdown(task: () => Promise<void>): void {
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGBREAK"];
  const onSignal = (signal: NodeJS.Signals) => {
    for (const other of signals) process.off(other, onSignal);
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_TASK_MS).unref());
    void Promise.race([task().catch(() => {}), timeout]).finally(() => process.kill(process.pid, signal));
  };
  for (const signal of signals) process.on(signal, onSignal);
}
