// End-to-end test program of the policy pack: declares the dynamic Sources of the stack's `sources`
// config (resource name -> SourceArgs), in order, so that the same declarations drive this program
// and a Pulumi YAML one of native Sources (test/policy/e2e/policy-stack.ts). Values are written as
// YAML writes them: `${origin.id}` in a string is the id of the Source `origin` (declared before
// this one), a value not known during the preview of that Source's creation; `{ "fn::secret": v }`
// is v marked secret.
import * as pulumi from "@pulumi/pulumi";
import { Source, type SourceArgs } from "@asset-delivery/provider";

const declared = new pulumi.Config().requireObject<Record<string, unknown>>("sources");
const ids = new Map<string, pulumi.Output<string>>();

/** A string with `${name.id}` references: those Sources' ids put in. */
function interpolated(text: string): pulumi.Input<string> {
  const parts = text.split(/\$\{([\w-]+)\.id\}/);
  if (parts.length === 1) return text;
  // Odd parts are the names of the Sources referred to.
  const values = parts.map((part, index) => {
    if (index % 2 === 0) return part;
    const id = ids.get(part);
    if (id === undefined) throw new Error(`\${${part}.id}: no Source "${part}" is declared before it`);
    return id;
  });
  return pulumi.all(values).apply((resolved) => resolved.join(""));
}

/** A declared value as an input. */
function input(value: unknown): pulumi.Input<unknown> {
  if (typeof value === "string") return interpolated(value);
  if (Array.isArray(value)) return value.map(input);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === "fn::secret") return pulumi.secret(input(entries[0]![1]));
  return Object.fromEntries(entries.map(([key, member]) => [key, input(member)]));
}

for (const [name, args] of Object.entries(declared)) {
  const source = new Source(name, input(args) as SourceArgs);
  ids.set(name, source.id);
}
