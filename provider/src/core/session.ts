// What a lifecycle step (create, read, update, delete) works with: the provider object's
// connection to the API, where its warnings go, the words of its messages, and the signal that
// cancels its waits.
import type { Connection } from "./connection";
import type { Instructions } from "./instructions";
import type { Warn } from "./log";
import type { TrustedSecrets } from "./trusted-secrets";

export type Session = Connection & {
  warn: Warn;
  /** What its messages tell the user to do (core/instructions.ts); default the plain words. */
  instructions?: Instructions;
  /** Aborted when the engine cancels the run: a wait for a deployment ends at once with its reason. */
  signal?: AbortSignal | undefined;
  /**
   * Secrets the user declared the server holds (trusted-secrets.ts), read where Pulumi has no state
   * of the Source yet: parsed then, so that a bad record fails those steps only, not a refresh or a destroy.
   */
  trustedSecrets?: () => TrustedSecrets;
};
