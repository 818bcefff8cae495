// `asset-delivery drift --accept NAME...`: keeps the server's values for Sources declared in the
// stack's configuration (`<project>:sources`, read by `sourcesFromConfig`), by writing each drifted
// field's live value into Pulumi.<stack>.yaml. With the state refreshed (`pulumi refresh`), the next
// preview shows no change for them. Secrets are never written here: a Source whose secret differs
// is refused before anything is written (its secrets are declared with `pulumi config set --secret`).
import * as fs from "node:fs";
import { isMap, isScalar, parseDocument, type Document } from "yaml";
import { isPlainObject } from "@asset-delivery/sdk";
import { DriftError } from "./failure";
import type { AcceptedField } from "./compare";

export interface Acceptance {
  /** The resource name, as in `<project>:sources`. */
  name: string;
  /** The live values to write, by path inside the declaration (`["deployment", "defaultParams", "w"]`); undefined removes the field. */
  fields: AcceptedField[];
}

/**
 * Writes the accepted values into the configuration file, keeping every other value and comment.
 * `key` is `<project>:sources`; its value may be a YAML map (as `asset-delivery import` writes it)
 * or a JSON string (as `pulumi config set` stores an object).
 */
export function acceptIntoConfig(file: string, key: string, accepted: readonly Acceptance[]): void {
  if (!fs.existsSync(file)) throw new DriftError(`${file} does not exist: the stack declares no Sources in its configuration`);
  const document = parseDocument(fs.readFileSync(file, "utf8"));
  if (document.errors.length > 0) throw new DriftError(`${file} is not valid YAML: ${document.errors[0]!.message}`);
  const section = document.getIn(["config", key], true);
  if (isMap(section)) {
    for (const { name, fields } of accepted) {
      if (!section.has(name)) throw new DriftError(`${name} is not declared in ${key} of ${file}`);
      for (const { path, live } of fields) setOrDelete(document, ["config", key, name, ...path], live);
    }
  } else if (isScalar(section) && typeof section.value === "string") {
    const declarations: unknown = JSON.parse(section.value);
    if (!isPlainObject(declarations)) throw new DriftError(`${file}: config.${key} is not an object of name → Source arguments`);
    for (const { name, fields } of accepted) {
      const declaration = declarations[name];
      if (!isPlainObject(declaration)) throw new DriftError(`${name} is not declared in ${key} of ${file}`);
      for (const { path, live } of fields) setIn(declaration, path, live);
    }
    section.value = JSON.stringify(declarations);
  } else {
    throw new DriftError(`${file} has no ${key}: the stack declares no Sources in its configuration`);
  }
  fs.writeFileSync(file, document.toString());
}

function setOrDelete(document: Document, path: string[], value: unknown): void {
  if (value === undefined) document.deleteIn(path);
  else document.setIn(path, document.createNode(value));
}

function setIn(target: Record<string, unknown>, [head, ...rest]: string[], value: unknown): void {
  if (rest.length === 0) {
    if (value === undefined) delete target[head!];
    else target[head!] = value;
    return;
  }
  if (!isPlainObject(target[head!])) target[head!] = {};
  setIn(target[head!] as Record<string, unknown>, rest, value);
}
