// Secrets from the Terraform state into the stack's configuration file, encrypted by the stack's
// secrets provider, each where `pulumi config set --secret [--path]` would put it, and never in a
// log or on a command line (which other users of the machine can read in the process list).
//
// With the passphrase provider (passphrase-crypter.ts) every value is encrypted here and the file
// written once: no Pulumi command, whatever the number of secrets. With any other provider, one
// `pulumi config set --secret KEY` per value, the value on standard input: Pulumi has no command
// that takes many values other than on its command line.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { Document, parseDocument } from "yaml";
import { DriftError } from "../../drift/failure";
import { passphraseCrypter } from "../passphrase-crypter";

export interface SecretSetting {
  /** The config key with its namespace: `asset-delivery:sourceSecrets`, `asset-delivery:photosS3SecretKey`. */
  key: string;
  /** Where in the key's value, for a structured one: `["photos", "s3SecretKey"]`; empty for the value itself. */
  path: readonly string[];
  value: string;
}

export interface StackConfigTarget {
  /** The stack's configuration file (Pulumi.<stack>.yaml). */
  file: string;
  stack: string;
  /** The project's folder, where Pulumi runs. */
  workDir: string;
  env: NodeJS.ProcessEnv;
}

export function writeSecretConfig(target: StackConfigTarget, settings: readonly SecretSetting[]): void {
  if (settings.length === 0) return;
  const text = fs.existsSync(target.file) ? fs.readFileSync(target.file, "utf8") : "";
  const document = text.trim() === "" ? new Document({}) : parseDocument(text);
  const parsed: unknown = document.errors.length === 0 ? document.toJS() : undefined;
  const crypter =
    parsed !== null && typeof parsed === "object"
      ? passphraseCrypter(parsed as Record<string, unknown>, target.env, target.workDir)
      : undefined;
  if (!crypter) return setWithPulumi(target, settings);
  for (const { key, path, value } of settings) {
    try {
      document.setIn(["config", key, ...path], document.createNode({ secure: crypter.encrypt(value) }));
    } catch (error) {
      throw new DriftError(`${target.file}: cannot set ${pulumiPath(key, path)}: ${(error as Error).message}`);
    }
  }
  fs.writeFileSync(target.file, document.toString());
}

function setWithPulumi({ stack, workDir, env }: StackConfigTarget, settings: readonly SecretSetting[]): void {
  for (const { key, path, value } of settings) {
    const name = pulumiPath(key, path);
    const run = spawnSync(
      "pulumi",
      ["config", "set", "--stack", stack, "--secret", ...(path.length > 0 ? ["--path"] : []), name, "--non-interactive"],
      { cwd: workDir, env, input: value, encoding: "utf8" },
    );
    if (run.error) throw new DriftError(`the Pulumi CLI could not be run to set ${name}: ${run.error.message}`);
    if (run.status !== 0) {
      const reason = run.stderr.split("\n").find((line) => line.startsWith("error:")) ?? `exit code ${run.status}`;
      throw new DriftError(`pulumi config set --secret ${name} failed: ${reason}`);
    }
  }
}

/** The key as `pulumi config set --path` takes it: `ns:sourceSecrets.photos.s3SecretKey`, a part that is not a plain word quoted. */
function pulumiPath(key: string, path: readonly string[]): string {
  return key + path.map((part) => (/^[A-Za-z0-9_-]+$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`)).join("");
}
