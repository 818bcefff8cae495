// What the stack already holds, so that import adds only what is new and renames nothing: the
// Sources its state manages (ids and resource names), and the declarations already written, not
// yet applied (in the stack's configuration, or in the TypeScript module that --out names).
import * as fs from "node:fs";
import { isPlainObject } from "@asset-delivery/sdk";
import { declaredSources, resourceNames } from "../drift";

export interface Existing {
  /** Source ids managed or already declared for adoption. */
  ids: Set<string>;
  /** Resource names in use. */
  names: Set<string>;
}

/** From the exported state: every resource name of the stack (any type) and the managed Sources' ids, dynamic or native. */
export function fromState(state: unknown, into: Existing): void {
  for (const source of declaredSources(state)) into.ids.add(source.id);
  for (const name of resourceNames(state)) into.names.add(name);
}

/** Pulumi's bulk import file (`pulumi import --file`): its resources' names and ids. */
export interface PulumiImportFile {
  resources: { type: string; name: string; id: string }[];
}

/** From an import file written before: its names and ids, so that a rerun adds only what is new. */
export function fromImportFile(file: PulumiImportFile, into: Existing): void {
  for (const resource of file.resources) {
    into.names.add(resource.name);
    into.ids.add(resource.id);
  }
}

/** From the configured declarations (`<project>:sources`, name → Source arguments). */
export function fromDeclarations(declared: Record<string, unknown>, into: Existing): void {
  for (const [name, args] of Object.entries(declared)) {
    into.names.add(name);
    if (isPlainObject(args) && typeof args.adoptSourceId === "string") into.ids.add(args.adoptSourceId);
  }
}

/** From a TypeScript module import wrote before: its `new Source("name", ...)` names and adopted ids. */
export function fromModule(file: string, into: Existing): void {
  if (!fs.existsSync(file)) return;
  const text = fs.readFileSync(file, "utf8");
  for (const [, name] of text.matchAll(/new Source\(\s*"((?:[^"\\]|\\.)*)"/g)) into.names.add(JSON.parse(`"${name}"`) as string);
  for (const [, id] of text.matchAll(/adoptSourceId"?\s*:\s*"([A-Za-z0-9]+)"/g)) into.ids.add(id!);
}
