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
#   sdks/java's pom.xml and version.txt, the plugin.json files) and the registry reference
#   (tools/plugin-reference.sh); examples/java's dependency on the Java SDK;
# - CHANGELOG.md: a `## X.Y.Z (date)` entry on top, listing the commits since the previous version's
#   tag (vA.B.C), to be edited into notes for users before the commit, and the breaking changes;
# - test/upgrade/recorded/vX.Y.Z/: this release's stacks, database and schema for the upgrade test
#   (tools/record-upgrade-states.sh), and test/upgrade/breaking-changes.json emptied for the next one.
# Breaking changes: test/upgrade/breaking-changes.json lists those since the last recorded release
# (npm test fails while one is made and not listed: test/upgrade/breaking-changes.test.ts, run here
# first); with any listed, a version that does not say so is refused: 0.x needs a new minor, from
# 1.0 a new major.
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

# Breaking changes since the last recorded release: every one acknowledged, and the version saying so.
log "checking breaking changes since the last recorded release (test/upgrade/breaking-changes.test.ts)..."
node_modules/.bin/vitest run --project full test/upgrade/breaking-changes.test.ts >&2 ||
  die "test/upgrade/breaking-changes.test.ts failed: acknowledge or undo each breaking change it lists"
breaking="$(node -p 'const a = require("./test/upgrade/breaking-changes.json"); [...a.schema.map((c) => "- schema: " + c), ...a.api.map((c) => "- API: " + c)].join("\n")')"
if [ -n "$breaking" ]; then
  IFS=. read -r old_major old_minor _ <<<"$OLD"
  IFS=. read -r new_major new_minor new_patch <<<"$NEW"
  if [ "$old_major" = 0 ]; then
    { [ "$new_major" -gt 0 ] || { [ "$new_minor" -gt "$old_minor" ] && [ "$new_patch" = 0 ]; }; } ||
      die "breaking changes since ${OLD} (test/upgrade/breaking-changes.json) need a new minor version (0.$((old_minor + 1)).0), not ${NEW}:"$'\n'"${breaking}"
  else
    { [ "$new_major" -gt "$old_major" ] && [ "$new_minor" = 0 ] && [ "$new_patch" = 0 ]; } ||
      die "breaking changes since ${OLD} (test/upgrade/breaking-changes.json) need a new major version ($((old_major + 1)).0.0), not ${NEW}:"$'\n'"${breaking}"
  fi
fi

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
# examples/java's dependency on the Java SDK (the SDK's own pom is regenerated below, from the schema).
sed -i "/<artifactId>assetdelivery<\/artifactId>/{n;s#<version>${OLD}</version>#<version>${NEW}</version>#}" examples/java/pom.xml
grep -A1 "<artifactId>assetdelivery</artifactId>" examples/java/pom.xml | grep -q "<version>${NEW}</version>" || die "examples/java/pom.xml: the SDK's version was not ${OLD}"
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
[ -z "$breaking" ] || entry="$(printf '%s\n\n### Breaking changes (since %s)\n\n%s\n' "$entry" "$OLD" "$breaking")"
if [ -f CHANGELOG.md ]; then
  { head -n 2 CHANGELOG.md; printf '%s\n\n' "$entry"; tail -n +3 CHANGELOG.md; } >CHANGELOG.md.tmp
else
  printf '# Changelog\n\n%s\n' "$entry" >CHANGELOG.md.tmp
fi
mv CHANGELOG.md.tmp CHANGELOG.md

# This release's stacks for the upgrade test of every later build; breaking changes count from here.
log "recording the stacks of ${NEW} (tools/record-upgrade-states.sh)..."
bash tools/record-upgrade-states.sh
printf '{\n  "since": "%s",\n  "schema": [],\n  "api": []\n}\n' "$NEW" >test/upgrade/breaking-changes.json
log "done: review CHANGELOG.md, commit (test/upgrade/recorded/v${NEW} too), then: git tag v${NEW} && git push origin v${NEW}"
