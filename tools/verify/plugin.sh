#!/usr/bin/env bash
# Starts a release's plugin where users will run it, before anything is published: installs the
# tarball as a user would (`pulumi plugin install --file`, into a fresh PULUMI_HOME, with automatic
# plugin downloads off, so that no other copy can stand in), then runs a YAML program's lifecycle on
# it (tools/verify/lifecycle.sh) against a running server.
#
#   ASSET_DELIVERY_BASE_URL=http://127.0.0.1:8787 ASSET_DELIVERY_API_KEY=... \
#     bash tools/verify/plugin.sh dist/release/plugin/pulumi-resource-assetdelivery-v<version>-<os>-<arch>.tar.gz
#
# The release workflow's `verify` job runs it on each platform's GitHub runner (linux-arm64,
# darwin-amd64, darwin-arm64, windows-amd64 in Git Bash) against tools/verify/server.sh;
# test/release/arm64-plugin.test.ts runs the linux-arm64 tarball here under qemu. Needs `pulumi`
# (with its YAML language host) on PATH. State goes to PULUMI_BACKEND_URL (default `file://~`).
set -euo pipefail
# shellcheck source=tools/verify/lifecycle.sh
source "$(dirname "${BASH_SOURCE[0]}")/lifecycle.sh"

[ $# -eq 1 ] && [ -f "$1" ] || verify_die "usage: bash tools/verify/plugin.sh TARBALL (with ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY set)"
[ -n "${ASSET_DELIVERY_BASE_URL:-}" ] && [ -n "${ASSET_DELIVERY_API_KEY:-}" ] || verify_die "ASSET_DELIVERY_BASE_URL and ASSET_DELIVERY_API_KEY must name the server and a key with the Sources permission"
command -v pulumi >/dev/null 2>&1 || verify_die "no pulumi on PATH"

tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[[ $(basename "$tarball") =~ ^pulumi-resource-assetdelivery-v([0-9][^-]*(-[^-]+)?)-([a-z]+)-([a-z0-9]+)\.tar\.gz$ ]] ||
  verify_die "not a plugin tarball's name: $(basename "$tarball")"
version="${BASH_REMATCH[1]}"
platform="${BASH_REMATCH[3]}-${BASH_REMATCH[4]}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
PULUMI_HOME="$(native "${work}/pulumi-home")"
export PULUMI_HOME PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://~}"
# No `pulumi-resource-assetdelivery` on PATH (an npm install's node_modules/.bin) may stand in.
export PULUMI_IGNORE_AMBIENT_PLUGINS=true PULUMI_CONFIG_PASSPHRASE=verify PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true

pulumi plugin install resource assetdelivery "$version" --file "$(native "$tarball")" --non-interactive

mkdir -p "${work}/project"
cd "${work}/project"
# A subdomain of its own per run: the runs of several platforms may share one server.
cat >Pulumi.yaml <<YAML
name: verify-plugin
runtime: yaml
config:
  ttl:
    type: integer
resources:
  site:
    type: assetdelivery:index:Source
    properties:
      name: Release check ${platform}
      deployment:
        type: webproxy
        serviceSubdomains: ["verify-${platform}-$(date +%s)-$$"]
        cacheTtlValue: \${ttl}
    options:
      version: ${version}
outputs:
  id: \${site.id}
YAML
run_lifecycle "$platform" "$version"
