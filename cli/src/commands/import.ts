// `asset-delivery import`: declares the account's Sources that a stack does not manage yet, so
// that `pulumi up` adopts them (see cli/src/import). Exit code 0 done (or nothing to do), 1 error,
// 2 bad arguments.
import { parseArgs } from "node:util";
import { oneOfSetting, STACK_SOURCE_OPTIONS, UsageError, type Command } from "../command";
import { DriftError } from "../drift";
import { IMPORT_FORMATS, importSources } from "../import";
import { importFromTerraform, pruneTrustedSecrets, TERRAFORM_IMPORT_FORMATS } from "../import/terraform";
import { parseFilters } from "../sources/filters";

const usage = `asset-delivery import --stack NAME [--cwd DIR] [--filter FIELD=VALUE ...]
                      [--format config|typescript|pulumi-import] [--out FILE] [--dry-run]
asset-delivery import --from-terraform STATE --stack NAME [--cwd DIR]
                      [--format pulumi-import|config] [--out FILE] [--trust-state-secrets]
asset-delivery import --prune-trusted-secrets --stack NAME [--cwd DIR]

Declares every Source of the account that the stack does not manage yet, as the server has it and
with adoptSourceId, so that \`pulumi up\` takes it over without sending a change. Running it again
adds only Sources that are new since, and renames nothing.

  --stack    the stack that will manage the Sources
  --cwd      the Pulumi project's folder (default: the current folder)
  --filter   narrow the Sources as the API does: FIELD=VALUE must hold (substring match for text),
             or:FIELD=VALUE at least one of these; repeatable. Fields: name, enabled,
             deployment.type, deployment.service_subdomains, deployment.custom_domains, ...
             e.g. --filter deployment.type=s3 --filter or:name=shop --filter or:name=blog
  --format   config (default): into the stack's configuration, Pulumi.<stack>.yaml
             <project>:sources (name -> Source arguments, as the root program reads them);
             typescript: a module with one \`new Source(...)\` per Source (needs --out);
             pulumi-import: Pulumi's bulk import file for the native plugin (needs --out), then
             \`pulumi import --file FILE\` reads each Source (no write) and prints its declaration
  --out      the TypeScript module or import file to write; added to when it exists
  --dry-run  print what would be written, write nothing
Secrets cannot be read from the API: the output names, per Source, the write-only fields it holds
and the command that declares each; undeclared, they stay as stored.

--from-terraform STATE: the Sources a Terraform or OpenTofu state manages (format version 4, as
\`terraform state pull\` prints it; - reads standard input), of teamjourney/imgix (imgix_source) or
Instawork/imgixyz (imgixyz_source), wherever declared (modules, count, for_each). Each is read from
the service by its id (the live Source is declared; one gone or retired is reported and skipped),
named after its Terraform address, and declared: pulumi-import (default): Pulumi's import file for
the native plugin (--out, default import.json); config: <project>:sources with adoptSourceId. The
state's secrets go into the stack's configuration as Pulumi secrets (never printed); the output
maps addresses to names and prints the removed blocks or terraform state rm commands that make
Terraform forget the Sources without disabling them. Nothing is written to the API. The API never
returns a secret, so the first \`pulumi up\` sends one update per Source with secrets (the output
says how many and the least time the hourly budget gives them), unless --trust-state-secrets: the
state's secrets count as what the server has (assetdelivery:trustedSecrets, by Source id; not a
secret the Source says it lacks, as password_set does), and a declared value equal to the state's
is not sent. Each entry is needed until the stack's state records its Source; every import drops
those, and --prune-trusted-secrets does it alone (after \`pulumi import\` or the first \`pulumi up\`).

Credentials: the stack's config assetdelivery:baseUrl and assetdelivery:apiKey, else
ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY.`;

export const importCommand: Command = {
  summary: "Bring the account's unmanaged Sources under a stack: declares them with adoptSourceId",
  usage,
  async run(args) {
    if (args.some((arg) => arg === "--from-terraform" || arg.startsWith("--from-terraform="))) return fromTerraform(args);
    if (args.includes("--prune-trusted-secrets")) return pruneTrusted(args);
    const options = parseOptions(args);
    return printed(async () => {
      const outcome = await importSources(options);
      return (options.dryRun && outcome.written !== "" ? `${outcome.written}\n` : "") + outcome.report;
    });
  },
};

function parseOptions(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      ...STACK_SOURCE_OPTIONS,
      out: { type: "string" },
      "dry-run": { type: "boolean" },
    },
    strict: true,
  });
  if (!values.stack) throw new UsageError("--stack NAME is required");
  const format = oneOfSetting(values.format, "--format", IMPORT_FORMATS, "config");
  if (format !== "config" && !values.out) throw new UsageError(`--format ${format} needs --out FILE`);
  if (format === "config" && values.out)
    throw new UsageError("--out is for --format typescript or pulumi-import; the config format writes Pulumi.<stack>.yaml");
  return {
    stack: values.stack,
    workDir: values.cwd ?? process.cwd(),
    query: parseFilters(values.filter ?? []),
    format,
    out: values.out,
    dryRun: values["dry-run"] ?? false,
  };
}

async function fromTerraform(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      "from-terraform": { type: "string" },
      stack: { type: "string" },
      cwd: { type: "string" },
      format: { type: "string" },
      out: { type: "string" },
      "trust-state-secrets": { type: "boolean" },
    },
    strict: true,
  });
  if (!values["from-terraform"]) throw new UsageError("--from-terraform STATE: the state file (or - for standard input) is required");
  if (!values.stack) throw new UsageError("--stack NAME is required");
  const format = oneOfSetting(values.format, "--format", TERRAFORM_IMPORT_FORMATS, "pulumi-import");
  if (format === "config" && values.out)
    throw new UsageError("--out is for --format pulumi-import; the config format writes Pulumi.<stack>.yaml");
  const { stack, "from-terraform": statePath } = values;
  return printed(async () => {
    const outcome = await importFromTerraform({
      statePath,
      stack,
      workDir: values.cwd ?? process.cwd(),
      format,
      out: values.out,
      trustStateSecrets: values["trust-state-secrets"] ?? false,
    });
    return outcome.report;
  });
}

async function pruneTrusted(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { "prune-trusted-secrets": { type: "boolean" }, stack: { type: "string" }, cwd: { type: "string" } },
    strict: true,
  });
  if (!values.stack) throw new UsageError("--stack NAME is required");
  const { stack } = values;
  return printed(() => pruneTrustedSecrets({ stack, workDir: values.cwd ?? process.cwd() }));
}

/** Runs an import and prints what it returns; a refusal (DriftError: bad input, a state it cannot use) is its message and exit 1. */
async function printed(run: () => Promise<string>): Promise<number> {
  try {
    process.stdout.write(await run());
    return 0;
  } catch (error) {
    if (!(error instanceof DriftError)) throw error;
    process.stderr.write(`asset-delivery import: ${error.message}\n`);
    return 1;
  }
}
