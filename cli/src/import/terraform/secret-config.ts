// Secrets from the Terraform state into the stack's configuration, encrypted by the stack's secrets
// provider: `pulumi config set --secret KEY` with the value on standard input, so that it is never
// in a file, a log, or a command line (which other users of the machine can read in the process list).
import { spawnSync } from "node:child_process";
import { DriftError } from "../../drift/failure";

export interface SecretSetting {
  /** The config key: `sourceSecrets.cdn-photos.s3SecretKey` (with path) or `cdnPhotosS3SecretKey`. */
  key: string;
  value: string;
  /** The key is a path into an object (`--path`). */
  path: boolean;
}

export function setSecretConfig(workDir: string, stack: string, settings: readonly SecretSetting[], env: NodeJS.ProcessEnv): void {
  for (const { key, value, path } of settings) {
    const run = spawnSync(
      "pulumi",
      ["config", "set", "--stack", stack, "--secret", ...(path ? ["--path"] : []), key, "--non-interactive"],
      {
        cwd: workDir,
        env,
        input: value,
        encoding: "utf8",
      },
    );
    if (run.error) throw new DriftError(`the Pulumi CLI could not be run to set ${key}: ${run.error.message}`);
    if (run.status !== 0) {
      const reason = run.stderr.split("\n").find((line) => line.startsWith("error:")) ?? `exit code ${run.status}`;
      throw new DriftError(`pulumi config set --secret ${key} failed: ${reason}`);
    }
  }
}
