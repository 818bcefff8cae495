// `asset-delivery import`: declares the account's Sources that a stack does not manage yet, so
// that `pulumi up` adopts them (see cli/src/import). Exit code 0 done (or nothing to do), 1 error,
// 2 bad arguments.
import { parseArgs } from "node:util";
import { oneOfSetting, STACK_SOURCE_OPTIONS, UsageError, type Command } from "../command";
import { DriftError } from "../drift";
import { IMPORT_FORMATS, importSources } from "../import";
import { parseFilters } from "../sources/filters";

const usage = `asset-delivery import --stack NAME [--cwd DIR] [--filter FIELD=VALUE ...]
                      [--format config|typescript|pulumi-import] [--out FILE] [--dry-run]

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
Credentials: the stack's config assetdelivery:baseUrl and assetdelivery:apiKey, else
ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY.`;

export const importCommand: Command = {
  summary: "Bring the account's unmanaged Sources under a stack: declares them with adoptSourceId",
  usage,
  async run(args) {
    const options = parseOptions(args);
    try {
      const outcome = await importSources(options);
      if (options.dryRun && outcome.written !== "") process.stdout.write(`${outcome.written}\n`);
      process.stdout.write(outcome.report);
      return 0;
    } catch (error) {
      if (!(error instanceof DriftError)) throw error;
      process.stderr.write(`asset-delivery import: ${error.message}\n`);
      return 1;
    }
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
