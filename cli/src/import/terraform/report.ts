// What `import --from-terraform` prints: the mapping from Terraform addresses to Pulumi names, the
// Sources left out and why, the secrets set (their config keys, never their values), what the first
// `pulumi up` will send for them (or that they are trusted as the server's), the settings carried
// over or not, and the next steps on both sides: Pulumi's, then Terraform's (forget the Sources
// without destroying them).
import { intervalName, printable, type RateTable, type Source } from "@asset-delivery/sdk";
import { hourlyEstimate } from "@asset-delivery/provider/core";
import { PULUMI_INSTRUCTIONS, TRUSTED_SECRETS_KEY } from "@asset-delivery/provider";
import type { CarriedSettings } from "./settings";
import type { TerraformSource } from "./state";
import { removedBlocks, stateRmCommands } from "./forget";

export interface TerraformImported {
  source: TerraformSource;
  live: Source;
  /** The Pulumi resource name. */
  name: string;
  settings: CarriedSettings;
  /** camelCase write-only field → the state's value. Never printed. */
  secrets: Record<string, string>;
  /** Secrets of the state that do not fit the live Source. */
  secretNotes: string[];
  /** Secrets the Source's type requires that the state does not hold (camelCase). */
  secretsMissing: string[];
  /** Secrets of `secrets` the live Source says it does not hold (its presence flag): never trusted (camelCase). */
  secretsNotHeld: string[];
}

export interface Skipped {
  source: TerraformSource;
  reason: string;
}

export interface TerraformReport {
  origin: string;
  stack: string;
  target: string;
  /** Pulumi's import file for the native resource (else `<project>:sources`). */
  native: boolean;
  /** The Pulumi project's runtime (`nodejs`, `python`, `yaml`, `go`), for how to reference a secret. */
  runtime: string;
  imported: readonly TerraformImported[];
  skipped: readonly Skipped[];
  /** The config key a secret went to. */
  secretKey: (name: string, field: string) => string;
  /** Every Source of the state: Terraform forgets them all. */
  all: readonly TerraformSource[];
  /** `--trust-state-secrets`: the secrets count as the server's (assetdelivery:trustedSecrets). */
  trusted: boolean;
  /** With `trusted`: Sources an earlier import declared whose secrets are now trusted too. */
  declaredBefore?: number;
  /** Sources the trusted record held that the stack's state now manages: their entries removed. */
  recordPruned?: number;
  /** Sources the trusted record holds after this import. */
  recordKept?: number;
  /** The limits the stack's provider paces its writes to (false: no pacing), for the first `up`'s estimate. */
  limits: RateTable | false;
}

export function renderTerraformReport(report: TerraformReport): string {
  const { imported, skipped, stack, native } = report;
  const lines: string[] = [];
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  lines.push(`${report.origin}: ${count(report.all.length, "Source")} managed by Terraform.`);
  if (imported.length === 0) lines.push(`Nothing to import into stack ${stack}.`);
  else {
    lines.push(
      `Imported ${count(imported.length, "Source")} into ${report.target} (read from the server by id; nothing was written to it):`,
    );
    lines.push(
      ...table([
        ["Terraform address", "Pulumi name", "Source id", "type"],
        ...imported.map(({ source, name, live }) => [source.address, name, live.id, live.attributes.deployment.type]),
      ]),
    );
  }
  if (skipped.length > 0) {
    lines.push("", `Left out ${count(skipped.length, "Source")}:`);
    for (const { source, reason } of skipped) lines.push(`  ${printable(source.address)} (${printable(source.id)}): ${reason}`);
  }

  const withSecrets = imported.filter(({ secrets }) => Object.keys(secrets).length > 0);
  if (withSecrets.length > 0) {
    lines.push("", `Secrets from the state, set in stack ${stack}'s configuration as Pulumi secrets (encrypted by its secrets provider):`);
    for (const { name, secrets } of withSecrets)
      for (const field of Object.keys(secrets)) lines.push(`  ${name}: deployment.${field} → ${report.secretKey(name, field)}`);
    if (native) {
      lines.push(
        "`pulumi import` prints each one empty (the API never returns a secret): replace the value with the reference",
        report.trusted
          ? "below. Then `pulumi preview --expect-no-changes` passes:"
          : "below. The next `pulumi up` records it (one PATCH per Source: the API cannot say whether a stored secret is\nthe same), then `pulumi preview --expect-no-changes` passes:",
      );
      for (const { name, secrets } of withSecrets)
        for (const field of Object.keys(secrets))
          lines.push(`  ${name}: deployment.${field}: ${secretReference(report.runtime, report.secretKey(name, field))}`);
    } else
      lines.push(
        report.trusted
          ? "sourcesFromConfig declares them with the Sources."
          : "sourcesFromConfig declares them with the Sources: the first `pulumi up` records them (one PATCH per Source that has some).",
      );
    lines.push(...firstUp(withSecrets.length, report));
  }
  if (report.declaredBefore)
    lines.push(
      "",
      `Trusted as what the server holds (--trust-state-secrets; in ${TRUSTED_SECRETS_KEY}): the secrets of ${count(report.declaredBefore, "Source")}`,
      "declared by an earlier import: the first `pulumi up` sends no update for a declared secret equal to the state's.",
    );
  if (report.recordPruned)
    lines.push(
      "",
      `Removed from ${TRUSTED_SECRETS_KEY} the secrets of ${count(report.recordPruned, "Source")} stack ${stack} now manages (its state records them).`,
    );
  if (report.trusted && report.recordKept)
    lines.push(
      "",
      `${TRUSTED_SECRETS_KEY} keeps a copy of the trusted secrets until the stack's state records each Source: after`,
      `${native ? "`pulumi import`" : "the first `pulumi up`"}, remove them: asset-delivery import --prune-trusted-secrets --stack ${stack}`,
    );
  const missing = imported.flatMap(({ name, secretsMissing }) =>
    secretsMissing.map(
      (field) =>
        `  ${name}: deployment.${field} is required and the state does not hold it: ` +
        (native
          ? `set it (pulumi config set --secret ${report.secretKey(name, field)}) and reference it`
          : "the server keeps the stored one"),
    ),
  );
  const notes = [
    ...missing,
    ...imported.flatMap(({ name, secretNotes, settings }) => [...secretNotes, ...settings.notes].map((note) => `  ${name}: ${note}`)),
  ];
  const unsupported = imported.flatMap(({ source }) =>
    source.notCarried.map((setting) => `  ${source.address}: ${setting} (no Pulumi counterpart)`),
  );
  if (notes.length + unsupported.length > 0) lines.push("", "Not carried over:", ...notes, ...unsupported);

  const settings = imported.filter(({ settings: s }) => Object.keys(s.options).length > 0 || (native && s.customTimeouts));
  if (settings.length > 0) {
    lines.push(
      "",
      native ? "Terraform's settings, to add to the declarations:" : "Terraform's settings, carried over into the declarations:",
    );
    for (const { name, settings: s } of settings) {
      const parts = Object.entries(s.options).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
      if (native && s.customTimeouts) parts.push(`customTimeouts (resource option): ${JSON.stringify(s.customTimeouts)}`);
      lines.push(`  ${name}: ${parts.join(", ")}`);
    }
  }

  lines.push("", "Next:");
  if (native)
    lines.push(
      `  pulumi import --stack ${stack} --file ${report.target} --out <program file>   (reads each Source; writes nothing)`,
      "  add the printed declarations to the program; `pulumi preview --expect-no-changes` passes.",
    );
  else lines.push(`  pulumi up --stack ${stack}   (adopts each Source: no write for one without secrets)`);
  lines.push(
    "Then make Terraform forget the Sources without destroying them (a destroy would disable each one):",
    "  Terraform or OpenTofu 1.7 and later: delete the resource blocks, add these, then `terraform apply`:",
    "",
    ...indent(removedBlocks(report.all.map((s) => s.configAddress)), "    "),
    "",
    "  Older versions:",
    ...indent(stateRmCommands(report.all.map((s) => s.address)), "    "),
  );
  return lines.join("\n") + "\n";
}

/**
 * What the first `pulumi up` sends for the secrets: with `--trust-state-secrets`, nothing (and what
 * is trusted); otherwise one update per Source with secrets, the least time the hourly budget gives
 * them (the preview's own estimate, core/write-budget.ts), and how to send none.
 */
function firstUp(sources: number, report: TerraformReport): string[] {
  if (report.trusted) {
    const notHeld = report.imported.flatMap(({ name, secretsNotHeld }) => secretsNotHeld.map((field) => `  ${name}: deployment.${field}`));
    return [
      `Trusted as what the server holds (--trust-state-secrets; recorded by Source id in ${TRUSTED_SECRETS_KEY}, a secret):`,
      "the first `pulumi up` sends no update for a declared secret equal to the state's; a different one is sent,",
      "as is any later change. A secret changed by hand since Terraform last wrote it stays unknown to Pulumi.",
      ...(notHeld.length > 0
        ? ["Not trusted: the server says the Source holds none (its presence flag), so the first `pulumi up` sends it:", ...notHeld]
        : []),
    ];
  }
  const updates = `${sources} update${sources === 1 ? "" : "s"}`;
  const { limits } = report;
  const estimate = !limits
    ? `${updates}: pacing is off, all sent at once (the service's hourly budget may refuse some)`
    : (hourlyEstimate({ createSource: 0, updateSource: sources }, limits, PULUMI_INSTRUCTIONS) ??
      `${updates}: within the budget (${limits.updateSource.limit} updates per ${intervalName(limits.updateSource.intervalMs)}), no wait`);
  return [
    `The first \`pulumi up\` sends one update per Source with secrets: ${estimate}.`,
    "To send none, trust the state's secrets as what the server holds: run this import with --trust-state-secrets",
    "before that `pulumi up` (again on this stack: the Sources it declared are trusted, nothing is declared twice).",
  ];
}

/** How a program of this runtime reads the secret config value `key`. */
function secretReference(runtime: string, key: string): string {
  switch (runtime) {
    case "yaml":
      return `\${${key}}`;
    case "python":
      return `pulumi.Config().require_secret("${key}")`;
    case "go":
      return `config.RequireSecret(ctx, "${key}")`;
    default:
      return `new pulumi.Config().requireSecret("${key}")`;
  }
}

function table(cells: string[][]): string[] {
  const rows = cells.map((row) => row.map((cell) => printable(cell)));
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ")}`.trimEnd());
}

function indent(text: string, by: string): string[] {
  return text.split("\n").map((line) => (line === "" ? "" : by + line));
}
