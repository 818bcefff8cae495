// `asset-delivery purge URL...`: removes assets and all their derivatives from the caches, through
// the API (the call follows the vendor's public docs; the spec does not show it).
import { text } from "node:stream/consumers";
import { parseArgs } from "node:util";
import { connect, MissingSettingsError, resolveSettings, type ProviderSettings, type SettingName } from "@asset-delivery/provider/core";
import { UsageError, type Command } from "../command";

const usage = `asset-delivery purge URL [URL ...] [--sub-image --source-id ID] [--base-url URL] [--api-key-stdin]

Purges each URL (its query is ignored: every derivative of the path goes), paced to the API's limit
of 10 purges per second. Each URL's host must be a service subdomain or custom domain of one of the
account's Sources. A URL purged less than 10 seconds ago is reported "already purging" (not an error).

  --sub-image   the URLs are images used inside others (marks, blends): purge those too
  --source-id   with --sub-image: the Source whose images use them
  --base-url    the API (default ASSET_DELIVERY_BASE_URL)
  --api-key-stdin  read the key (with the Purge permission) from standard input; else ASSET_DELIVERY_API_KEY
  --api-key KEY    the key on the command line, where other users of the machine (ps) and the shell's
                   history can read it: said on standard error when used
ASSET_DELIVERY_PACING paces the purges as it paces the provider's calls.
Exit code: 0 all purged, 1 any purge refused or failed, 2 bad arguments.`;

export const purgeCommand: Command = {
  summary: "Purge assets (URLs) from the caches, through the API",
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        "sub-image": { type: "boolean" },
        "source-id": { type: "string" },
        "base-url": { type: "string" },
        "api-key": { type: "string" },
        "api-key-stdin": { type: "boolean" },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw new UsageError("give at least one URL to purge");
    if (values["api-key"] !== undefined && values["api-key-stdin"]) throw new UsageError("give --api-key or --api-key-stdin, not both");
    if (values["api-key"] !== undefined) {
      process.stderr.write(
        "asset-delivery purge: warning: --api-key puts the key on the command line, where other users of this machine (ps) and the shell's history can read it: set ASSET_DELIVERY_API_KEY or pipe it to --api-key-stdin\n",
      );
    }
    const apiKey = values["api-key-stdin"] ? (await text(process.stdin)).trim() : values["api-key"];
    // The provider's settings (core/settings.ts): the flags where given, else ASSET_DELIVERY_*, with the pacing.
    const flags: Partial<Record<SettingName, string>> = { baseUrl: values["base-url"], apiKey };
    let settings: ProviderSettings;
    try {
      settings = resolveSettings((name) => (name === "trustedSecrets" ? undefined : flags[name]));
    } catch (error) {
      if (!(error instanceof MissingSettingsError)) throw new UsageError((error as Error).message);
      if (error.missing.includes("baseUrl")) throw new UsageError("the API's address is needed: --base-url URL or ASSET_DELIVERY_BASE_URL");
      throw new UsageError("an API key is needed: ASSET_DELIVERY_API_KEY or --api-key-stdin");
    }

    const { client, close } = connect(settings);
    const options = { subImage: values["sub-image"], sourceId: values["source-id"] };
    let failed = 0;
    try {
      for (const url of positionals) {
        try {
          const result = await client.purges.create(url, options);
          process.stdout.write(result.status === "accepted" ? `purging ${url} (purge ${result.purgeId})\n` : `already purging ${url}\n`);
        } catch (error) {
          failed++;
          process.stderr.write(`asset-delivery purge: ${url}: ${(error as Error).message}\n`);
        }
      }
    } finally {
      await close();
    }
    return failed === 0 ? 0 : 1;
  },
};
