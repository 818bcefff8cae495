// Everything a Pulumi file backend keeps of a stack, not only its current checkpoint: the backups
// it takes before each update (`.pulumi/backups`) and the history of updates (`.pulumi/history`:
// each update's record and the checkpoint it left). A secret that reached any of them in plain text
// stays on disk, and in a backend's copy, after the checkpoint is clean again.
import * as fs from "node:fs";
import * as path from "node:path";
import { gunzipSync } from "node:zlib";

export interface StateFile {
  /** The path under the backend's `.pulumi` folder. */
  name: string;
  text: string;
}

/** The files of a file backend rooted at `stateDir` (its `.pulumi` folder), gzipped ones unpacked, by kind. */
export function stateFiles(stateDir: string): { checkpoints: StateFile[]; backups: StateFile[]; history: StateFile[] } {
  const root = path.join(stateDir, ".pulumi");
  const read = (kind: string): StateFile[] => {
    const dir = path.join(root, kind);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => fs.statSync(path.join(dir, file)).isFile())
      .sort()
      .map((file) => {
        const bytes = fs.readFileSync(path.join(dir, file));
        return { name: path.join(kind, file), text: (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8") };
      });
  };
  return { checkpoints: read("stacks"), backups: read("backups"), history: read("history") };
}

/** Each of `secrets` (by name) found in plain text in any of the backend's files, as "<name> in <file>". */
export function secretsInStateFiles(files: ReturnType<typeof stateFiles>, secrets: Record<string, string>): string[] {
  return [...files.checkpoints, ...files.backups, ...files.history].flatMap((file) =>
    Object.entries(secrets)
      .filter(([, value]) => file.text.includes(value))
      .map(([name]) => `${name} in ${file.name}`),
  );
}
