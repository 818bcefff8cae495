// The drift report as Markdown, ready to post as a pull-request comment: a summary line, then per
// drifted Source its Pulumi name, id, status, a table of field / declared / live, and the two ways
// out (revert, or keep the server's values, with the declaration Pulumi printed for it). What the
// server holds is printed through the sdk's `printable` (in code spans, and the declaration's lines).
import { printable } from "@asset-delivery/sdk";
import { isSecretDrift, type DriftReport, type FieldDrift, type SourceDrift, type WayOut } from "./report";

const STATUS_TEXT = {
  changed: "changed on the server",
  retired: "retired: disabled on the server",
  gone: "gone: the server no longer has this Source",
} as const;

export function renderMarkdown(report: DriftReport): string {
  const unmanaged = unmanagedSection(report);
  if (report.drifted.length === 0) return [noDriftLine(report), ...unmanaged].join("\n") + "\n";
  const { stack, sourceCount, drifted } = report;
  const lines = [
    `Drift: ${drifted.length} of ${plural(sourceCount, "Source")} ${drifted.length === 1 ? "differs" : "differ"} from stack ${code(stack)}.`,
  ];
  for (const source of drifted) lines.push("", ...sourceSection(source));
  if (report.declarationsUnavailable)
    lines.push("", `Pulumi's import code generation could not print the declarations: ${printable(report.declarationsUnavailable)}`);
  lines.push(
    "",
    `<sub>Declared: the stack's state as last applied. Live: the server now. Secrets are never shown.${refreshNote(report)}</sub>`,
  );
  return [...lines, ...unmanaged].join("\n") + "\n";
}

/** Nothing when every enabled Source is managed; else a table of those that are not. */
function unmanagedSection({ stack, unmanaged }: DriftReport): string[] {
  if (unmanaged.length === 0) return [];
  const count = unmanaged.length === 1 ? "1 enabled Source of the account is" : `${unmanaged.length} enabled Sources of the account are`;
  return [
    "",
    `Unmanaged: ${count} managed by no resource of stack ${code(stack)} (\`asset-delivery import --stack ${stack}\` declares ${unmanaged.length === 1 ? "it" : "them"}).`,
    "",
    "| Source | Name | Type | Subdomains |",
    "| --- | --- | --- | --- |",
    ...unmanaged.map(
      (source) => `| ${code(source.id)} | ${code(source.name)} | ${source.type} | ${source.serviceSubdomains.map(code).join(", ")} |`,
    ),
  ];
}

function noDriftLine({ stack, sourceCount }: DriftReport): string {
  if (sourceCount === 0) return `No drift: stack ${code(stack)} manages no Sources.`;
  if (sourceCount === 1) return `No drift: the one Source of stack ${code(stack)} matches the server.`;
  return `No drift: all ${sourceCount} Sources of stack ${code(stack)} match the server.`;
}

function sourceSection(source: SourceDrift): string[] {
  const heading = `#### ${code(source.name)} · Source ${code(source.id)}: ${STATUS_TEXT[source.status]}`;
  const table =
    source.fields.length === 0 ? [] : ["", "| Field | Declared | Live |", "| --- | --- | --- |", ...source.fields.map(fieldRow)];
  return [heading, ...table, "", ...wayOutLines(source.wayOut)];
}

function wayOutLines({ revert, keep, keepNote, declaration }: WayOut): string[] {
  const commands = (list: readonly string[]) => list.map(code).join(", then ");
  const lines = [
    `- Revert (the server gets the declaration back): ${commands(revert)}`,
    `- Keep the server's values: ${commands(keep)}${keepNote ? `, ${keepNote}` : ""}`,
  ];
  if (!declaration) return lines;
  const settings = declaration.secretConfig.map((key) => `\`pulumi config set --secret ${key} <value>\``);
  return [
    ...lines,
    "",
    "```" + (FENCE_LANGUAGE[declaration.language] ?? declaration.language),
    printable(declaration.code.trimEnd(), { keepLineBreaks: true }),
    "```",
    ...(settings.length > 0 ? ["", `Its secrets come from config: ${settings.join(", ")}.`] : []),
  ];
}

/** Code fences by Pulumi runtime. */
const FENCE_LANGUAGE: Readonly<Record<string, string>> = { nodejs: "typescript", python: "python", yaml: "yaml", go: "go" };

/** Where `pulumi refresh` names a field differently, and why. */
function refreshNote({ drifted }: DriftReport): string {
  const flagged = drifted.some((source) => source.fields.some((field) => isSecretDrift(field) && field.flag !== undefined));
  const lists = drifted.some((source) =>
    source.fields.some((field) => !isSecretDrift(field) && (Array.isArray(field.declared) || Array.isArray(field.live))),
  );
  const notes = [
    ...(lists ? [" A list is compared whole (an API update replaces it whole); `pulumi refresh` names its entries."] : []),
    ...(flagged
      ? [
          " A write-only secret is never returned by the API: its change is seen through the flag shown, and a dynamic Source's `pulumi refresh` shows only that flag.",
        ]
      : []),
  ];
  return notes.join("");
}

function fieldRow(field: FieldDrift): string {
  if (isSecretDrift(field)) {
    const revealedBy = field.flag === undefined ? "" : ` (${code(`${field.flag}: ${field.live === "set"}`)})`;
    return `| ${code(field.field)} | *secret, ${field.declared}* | *changed: ${field.live}*${revealedBy} |`;
  }
  return `| ${code(field.field)} | ${value(field.declared)} | ${value(field.live)} |`;
}

function value(content: unknown): string {
  return content === undefined ? "*absent*" : code(JSON.stringify(content));
}

/** A code span that holds any text inside a table cell: pipes escaped, a fence longer than any backtick run inside. */
function code(value: string): string {
  const text = printable(value);
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longestRun + 1);
  const padded = longestRun > 0 ? ` ${text} ` : text;
  return `${fence}${padded.replace(/\|/g, "\\|")}${fence}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
