// The two ways out of each drifted Source, as commands a reviewer runs in the project's folder:
// - revert: `pulumi up --refresh` records what the server has, then sends the declaration again
//   (a plain `pulumi up` would see no change: the state still holds the declared values);
// - keep the server's values: `pulumi refresh` records them, and the declaration takes them: for a
//   Source declared in the stack's configuration (`sourcesFromConfig`), `asset-delivery drift
//   --accept NAME` rewrites Pulumi.<stack>.yaml; for a native Source declared in the program, the
//   declaration Pulumi's own import code generation prints (declarations/, added to the report
//   later); for a dynamic Source in a TypeScript program, the Live column says what to write
//   (Pulumi cannot import a dynamic resource, so it has no code generation for one).
import type { DeclaredSource } from "./declared-state";
import type { DriftStatus, WayOut } from "./report";

export interface WayOutContext {
  stack: string;
  /** The names the stack's configuration declares (`<project>:sources`). */
  configDeclared: ReadonlySet<string>;
}

export function wayOut(status: DriftStatus, source: DeclaredSource, { stack, configDeclared }: WayOutContext): WayOut {
  const target = `--stack ${shellWord(stack)} --target ${shellWord(source.urn)}`;
  const revert = [`pulumi up ${target} --refresh`];
  const refresh = `pulumi refresh ${target}`;
  if (status === "gone") return { revert, keep: [refresh], keepNote: "then remove its declaration: the server has no Source to keep" };
  if (source.shape === "dynamic" && configDeclared.has(source.name)) {
    return { revert, keep: [refresh, `asset-delivery drift --stack ${shellWord(stack)} --accept ${shellWord(source.name)}`] };
  }
  if (source.shape === "dynamic") {
    return {
      revert,
      keep: [refresh],
      keepNote: "then set the program's `new Source(...)` to the Live values (Pulumi cannot import a dynamic resource to print its code)",
    };
  }
  return { revert, keep: [refresh], keepNote: "then declare it in the program as below" };
}

/** A word for a POSIX shell: quoted when it holds anything but safe characters (a URN holds `$`). */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
