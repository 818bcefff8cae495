// How import shows what it adds: the TypeScript module (--format typescript), and the report on
// stdout: each imported Source, the Sources left out, and per Source the write-only secrets the
// server holds, which the API never returns, with the exact command that declares each. Names, ids
// and values from the server go through the sdk's `printable` (in a literal: the same value).
import type { SourceImport } from "@asset-delivery/provider";
import { printable } from "@asset-delivery/sdk";

export interface ImportedSource {
  /** The resource name given to it. */
  name: string;
  declaration: SourceImport;
  type: string;
}

/** Statements of a TypeScript module, one `new Source(...)` per Source; with the module's header when `whole`. */
export function renderModule(imported: readonly ImportedSource[], stack: string, whole: boolean): string {
  const header = [
    `// Sources made outside Pulumi, declared by \`asset-delivery import --stack ${stack}\` as the server has`,
    "// them and adopted by id, so that `pulumi up` takes them over without a change. Review, then keep",
    "// this as your own code. Write-only secrets are not declared: the server keeps the stored ones.",
    'import { Source } from "@asset-delivery/provider";',
    "",
  ];
  const statements = imported.flatMap(({ name, declaration, type }) => {
    const held = declaration.secrets.filter((secret) => secret.set !== false).map((secret) => secret.field);
    const note = held.length > 0 ? ` Holds write-only ${held.join(", ")} (kept as stored unless declared).` : "";
    return [
      `// Source ${printable(declaration.args.adoptSourceId)} (${type}).${note}`,
      `new Source(${printable(JSON.stringify(name))}, ${literal(declaration.args, "")});`,
      "",
    ];
  });
  return [...(whole ? header : []), ...statements].join("\n");
}

/** A JSON value as a TypeScript literal: keys unquoted where they are identifiers. */
function literal(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[${value.map((item) => literal(item, indent)).join(", ")}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = indent + "  ";
    const lines = entries.map(
      ([key, item]) => `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : printable(JSON.stringify(key))}: ${literal(item, inner)},`,
    );
    return `{\n${lines.join("\n")}\n${indent}}`;
  }
  return printable(JSON.stringify(value));
}

export interface ImportReport {
  stack: string;
  /** Where the declarations go, e.g. `Pulumi.dev.yaml (asset-delivery:sources)`. */
  target: string;
  imported: readonly ImportedSource[];
  /** Matching Sources left out because the stack already manages or declares them. */
  alreadyManaged: number;
  dryRun: boolean;
  /** How a secret is declared for the target: a command, or undefined when it is declared in code. */
  secretCommand?: (name: string, field: string) => string;
  /** The target is Pulumi's import file (native plugin): the next step is `pulumi import --file`. */
  importFile?: boolean;
}

export function renderReport(report: ImportReport): string {
  const { stack, target, imported, alreadyManaged, dryRun } = report;
  const lines: string[] = [];
  const verb = dryRun ? "Would import" : "Imported";
  if (imported.length === 0) lines.push(`Nothing to import: every matching Source is already managed by stack ${stack}.`);
  else lines.push(`${verb} ${imported.length} Source${imported.length === 1 ? "" : "s"} into ${target}:`);
  for (const { name, declaration, type } of imported)
    lines.push(
      `  ${printable(name)}  ${printable(declaration.args.adoptSourceId)}  ${type}  ${printable(JSON.stringify(declaration.args.name))}`,
    );
  if (alreadyManaged > 0)
    lines.push(`Left out ${alreadyManaged} matching Source${alreadyManaged === 1 ? "" : "s"} the stack already manages or declares.`);

  const holding = imported
    .map((source) => ({ source, held: source.declaration.secrets.filter((secret) => secret.set !== false) }))
    .filter(({ held }) => held.length > 0);
  if (holding.length > 0) {
    lines.push(
      "",
      "Secrets: the API never returns write-only fields. These Sources hold some; undeclared, they stay as stored on",
      "the server (adoption keeps them). To manage one from Pulumi, declare it:",
    );
    for (const { source, held } of holding) {
      lines.push(`  ${printable(source.name)}:`);
      for (const secret of held) {
        const known = secret.set === undefined ? " (the API does not say whether it is set)" : "";
        lines.push(
          `    ${report.secretCommand ? report.secretCommand(source.name, secret.field) : `deployment.${secret.field}: <a secret input>`}${known}`,
        );
      }
    }
  }
  if (imported.length > 0 && !dryRun && report.importFile)
    lines.push(
      "",
      `Next: \`pulumi import --stack ${stack} --file ${target} --out <program file>\` reads each Source (no change is sent)`,
      "and prints the declarations to add to the program.",
    );
  else if (imported.length > 0 && !dryRun)
    lines.push("", "Next: review the declarations, then `pulumi up` adopts them (no change is sent for a Source declared as it is).");
  return lines.join("\n") + "\n";
}
