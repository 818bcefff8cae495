// `asset-delivery drift`: which Sources of a stack differ on the server from what the stack
// declares, and which enabled Sources it does not manage, as a pull-request comment (Markdown) or
// JSON. Exit codes as `terraform plan -detailed-exitcode`: 0 no drift, 2 drift, 1 error (bad
// arguments included, so that CI never mistakes a typo for drift).
import { parseArgs } from "node:util";
import { oneOfSetting, STACK_SOURCE_OPTIONS, type Command } from "../command";
import { acceptDrift, DriftError, driftReport, renderJson, renderMarkdown } from "../drift";
import { parseFilters } from "../sources/filters";

const FORMATS = ["markdown", "json"] as const;
export const DRIFT_EXIT = { none: 0, error: 1, drift: 2 } as const;

const usage = `asset-delivery drift --stack NAME [--cwd DIR] [--format markdown|json]
                     [--filter FIELD=VALUE ...] [--fail-on-unmanaged]
asset-delivery drift --stack NAME [--cwd DIR] --accept NAME [--accept NAME ...]

Compares each Source the stack manages (the dynamic Source and the native plugin's, in any
language), as its state last recorded it, with the Source on the server, and prints the
differences field by field, each with the commands that revert it or keep the server's values;
then lists the account's enabled Sources that no resource of the stack manages. Changes nothing:
no refresh, no update (the declarations of native Sources are printed by \`pulumi import\` into a
throwaway stack).

  --stack              the stack to review
  --cwd                the Pulumi project's folder (default: the current folder)
  --format             markdown (default; ready to post as a pull-request comment) or json
  --filter             narrow the unmanaged list as the API filters Sources: FIELD=VALUE must hold,
                       or:FIELD=VALUE at least one of these; repeatable (as for asset-delivery import)
  --fail-on-unmanaged  exit 2 when an enabled Source is unmanaged (otherwise they are listed only)
  --accept             keep the server's values of this Source, declared in the stack's
                       configuration (<project>:sources): rewrites Pulumi.<stack>.yaml; repeatable.
                       Then \`pulumi refresh\` records them, and the next preview shows no change.
Credentials: the stack's config assetdelivery:baseUrl and assetdelivery:apiKey, else
ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY. The stack's secrets are read with its secrets
provider (PULUMI_CONFIG_PASSPHRASE for a passphrase); secret values are never printed.
Exit code: 0 no drift, 2 drift found (or an unmanaged Source, with --fail-on-unmanaged), 1 error;
with --accept: 0 written, 1 error (nothing written).`;

export const driftCommand: Command = {
  summary: "Review drift: which Sources of a stack differ on the server (exit 0 none, 2 drift, 1 error)",
  usage,
  async run(args) {
    let options: ReturnType<typeof parseOptions>;
    try {
      options = parseOptions(args);
    } catch (error) {
      process.stderr.write(`asset-delivery drift: ${(error as Error).message}\n\n${usage}\n`);
      return DRIFT_EXIT.error;
    }
    try {
      if (options.accept.length > 0) {
        const { configFile, accepted } = await acceptDrift({ ...options, names: options.accept });
        for (const { name, count } of accepted)
          process.stdout.write(`Kept the server's values of ${name}: ${count} field${count === 1 ? "" : "s"} written to ${configFile}.\n`);
        return DRIFT_EXIT.none;
      }
      const report = await driftReport(options);
      process.stdout.write(options.format === "json" ? renderJson(report) : renderMarkdown(report));
      const failing = report.drifted.length > 0 || (options.failOnUnmanaged && report.unmanaged.length > 0);
      return failing ? DRIFT_EXIT.drift : DRIFT_EXIT.none;
    } catch (error) {
      const message = error instanceof DriftError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`asset-delivery drift: ${message}\n`);
      return DRIFT_EXIT.error;
    }
  },
};

function parseOptions(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      ...STACK_SOURCE_OPTIONS,
      "fail-on-unmanaged": { type: "boolean" },
      accept: { type: "string", multiple: true },
    },
    strict: true,
  });
  if (!values.stack) throw new Error("--stack NAME is required");
  return {
    stack: values.stack,
    workDir: values.cwd ?? process.cwd(),
    format: oneOfSetting(values.format, "format", FORMATS, "markdown"),
    query: parseFilters(values.filter ?? []),
    failOnUnmanaged: values["fail-on-unmanaged"] ?? false,
    accept: values.accept ?? [],
  };
}
