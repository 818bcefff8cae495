#!/usr/bin/env bash
# Sets one version everywhere and opens its CHANGELOG.md entry: the release command.
#
#   bash tools/set-version.sh 0.2.0      # then review, commit, tag v0.2.0 and push the tag
#
# - the five npm packages (sdk, server, provider, cli, policy) and their pins of one another, the
#   policy pack's package.json, package-lock.json;
# - the sdk's default User-Agent;
# - the plugin and its schema (both read provider/package.json) and so the generated SDKs,
#   regenerated (tools/generate-sdks.sh: sdks/nodejs's package.json, sdks/python's pyproject.toml,
#   the pulumi-plugin.json files) and the registry reference (tools/plugin-reference.sh);
# - CHANGELOG.md: a `## X.Y.Z (date)` entry on top, listing the commits since the previous version's
#   tag (vA.B.C), to be edited into notes for users before the commit.
# The Go SDK has no version in its files: its tag sdks/go/vX.Y.Z is the version (release.yml).
# test/release/versions.test.ts checks that every place agrees.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
# shellcheck source=tools/node-env.sh
source tools/node-env.sh
log() { printf '[set-version] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

NEW="${1:-}"
[[ $NEW =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] || die "usage: bash tools/set-version.sh X.Y.Z (a release version: three numbers)"
OLD="$(node -p 'require("./provider/package.json").version')"
[ "$NEW" != "$OLD" ] || die "the version is already ${NEW}"
log "${OLD} -> ${NEW}"

# Every package.json of ours: its version, and its exact pins of our other packages.
node - "$NEW" sdk server provider cli policy policy/pack <<'JS'
const fs = require("node:fs");
const [version, ...dirs] = process.argv.slice(2);
for (const dir of dirs) {
  const file = `${dir}/package.json`;
  const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
  manifest.version = version;
  for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      if (name.startsWith("@asset-delivery/")) manifest[field][name] = version;
    }
  }
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
}
JS
sed -i "s#^export const DEFAULT_USER_AGENT = \"asset-delivery-sdk/${OLD}\";#export const DEFAULT_USER_AGENT = \"asset-delivery-sdk/${NEW}\";#" sdk/src/client/options.ts
grep -q "asset-delivery-sdk/${NEW}\"" sdk/src/client/options.ts || die "sdk/src/client/options.ts: DEFAULT_USER_AGENT was not asset-delivery-sdk/${OLD}"
npm install --package-lock-only --ignore-scripts --no-audit --no-fund --prefer-offline >/dev/null

log "rebuilding and regenerating the SDKs and the reference at ${NEW}..."
node_modules/.bin/tsc -b
bash tools/generate-sdks.sh
bash tools/plugin-reference.sh >/dev/null

# CHANGELOG.md: the new entry above the previous ones.
since="v${OLD}"
if git rev-parse -q --verify "refs/tags/${since}" >/dev/null; then
  changes="$(git log --no-merges --format='- %s' "${since}..HEAD")"
else
  changes="- First release published to the registries: the npm packages, pulumi_assetdelivery on PyPI, the Go SDK module, and the plugin for linux, macOS and Windows."
fi
entry="$(printf '## %s (%s)\n\n%s\n' "$NEW" "$(date -u +%Y-%m-%d)" "$changes")"
if [ -f CHANGELOG.md ]; then
  { head -n 2 CHANGELOG.md; printf '%s\n\n' "$entry"; tail -n +3 CHANGELOG.md; } >CHANGELOG.md.tmp
else
  printf '# Changelog\n\n%s\n' "$entry" >CHANGELOG.md.tmp
fi
mv CHANGELOG.md.tmp CHANGELOG.md
log "done: review CHANGELOG.md, commit, then: git tag v${NEW} && git push origin v${NEW}"
