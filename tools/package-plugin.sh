#!/usr/bin/env bash
# Builds the native plugin's tarball in Pulumi's layout:
#
#   bash tools/package-plugin.sh     # -> dist/plugin/pulumi-resource-assetdelivery-v<version>-linux-amd64.tar.gz
#   pulumi plugin install resource assetdelivery <version> --file dist/plugin/pulumi-resource-assetdelivery-v<version>-linux-amd64.tar.gz
#
# The tarball holds, at its root, the executable `pulumi-resource-assetdelivery` (a script that runs
# the plugin on the `node` on PATH, which must be 22 or newer: the plugin says so otherwise), the
# generated `schema.json`, and `node_modules/` with @asset-delivery/provider and @asset-delivery/sdk as
# `npm pack` makes them (from the built dist/: run `npm run build` first) and their production
# dependencies, @pulumi/pulumi at the repo's version among them. The version is the provider
# package's: the plugin's, the schema's and the npm package's are one number. Nothing is downloaded
# but npm registry packages (from npm's cache when `npm ci` ran). Prints the tarball's path last.
# linux-amd64 names the machine it is built on: the plugin is JavaScript, but the name is what
# `pulumi plugin install` expects for this platform (Node's native dependencies: none).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=tools/node-env.sh
source "${REPO_ROOT}/tools/node-env.sh"
log() { printf '[package-plugin] %s\n' "$*" >&2; }

VERSION="$(node -p 'require(process.argv[1]).version' "${REPO_ROOT}/provider/package.json")"
PULUMI_SDK_VERSION="$(node -p 'require(process.argv[1]).devDependencies["@pulumi/pulumi"]' "${REPO_ROOT}/package.json")"
NAME="pulumi-resource-assetdelivery-v${VERSION}-linux-amd64"
OUT_DIR="${REPO_ROOT}/dist/plugin"
[ -f "${REPO_ROOT}/provider/dist/plugin/main.js" ] || { log "provider/dist is missing: run npm run build first"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stage="${work}/stage"
mkdir -p "$stage" "${work}/tarballs" "$OUT_DIR"

# npm's own variables of a calling `npm run` would leak into the install below.
npm_clean() { env -u npm_config_workspace -u npm_config_workspaces -u npm_config_include_workspace_root npm "$@"; }

log "packing @asset-delivery/sdk and @asset-delivery/provider ${VERSION}..."
(cd "$REPO_ROOT" && npm_clean pack --silent --ignore-scripts --pack-destination "${work}/tarballs" --workspace=sdk --workspace=provider >/dev/null)

log "installing them with their production dependencies (@pulumi/pulumi ${PULUMI_SDK_VERSION})..."
printf '{ "name": "pulumi-resource-assetdelivery", "version": "%s", "private": true }\n' "$VERSION" >"${stage}/package.json"
(cd "$stage" && npm_clean install --silent --omit=dev --no-audit --no-fund --prefer-offline --no-package-lock --ignore-scripts \
  "${work}"/tarballs/*.tgz "@pulumi/pulumi@${PULUMI_SDK_VERSION}")

cat >"${stage}/pulumi-resource-assetdelivery" <<'SCRIPT'
#!/bin/sh
# The Pulumi resource plugin `assetdelivery`: runs @asset-delivery/provider's plugin on the node on PATH.
dir="$(cd "$(dirname "$0")" && pwd)"
command -v node >/dev/null 2>&1 || { echo "pulumi-resource-assetdelivery needs Node.js 22 or newer on PATH; none was found" >&2; exit 1; }
exec node "${dir}/node_modules/@asset-delivery/provider/bin/pulumi-resource-assetdelivery" "$@"
SCRIPT
chmod +x "${stage}/pulumi-resource-assetdelivery"

log "writing schema.json (the schema the plugin serves)..."
node -e 'const { packageSchema } = require(process.argv[1]); process.stdout.write(JSON.stringify(packageSchema(process.argv[2]), null, 2) + "\n")' \
  "${stage}/node_modules/@asset-delivery/provider/dist/plugin/schema.js" "$VERSION" >"${stage}/schema.json"
cp "${REPO_ROOT}/provider/README.md" "${stage}/README.md"

tarball="${OUT_DIR}/${NAME}.tar.gz"
rm -f "${stage}/package.json"
tar -C "$stage" -czf "${tarball}.tmp" .
mv -f "${tarball}.tmp" "$tarball"
log "built $(du -h "$tarball" | cut -f1) ${tarball#"$REPO_ROOT"/}"
echo "$tarball"
