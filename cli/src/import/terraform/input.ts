// The Terraform state as the user gives it: a file, or standard input (`-`), read whole and parsed
// (state.ts) before the stack or the API is touched.
import * as fs from "node:fs";
import { DriftError } from "../../drift/failure";
import { parseTerraformState, type TerraformSource } from "./state";

export interface StateInput {
  /** How messages name it: the file, or `standard input`. */
  origin: string;
  sources: TerraformSource[];
}

export async function readTerraformState(statePath: string): Promise<StateInput> {
  const origin = statePath === "-" ? "standard input" : statePath;
  const text = statePath === "-" ? await readStandardInput() : readStateFile(statePath);
  return { origin, sources: parseTerraformState(text, origin) };
}

function readStateFile(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new DriftError(`cannot read the Terraform state ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
