#!/usr/bin/env bash
# Makes the generated Go SDK a Go module: writes DIR/go.mod and DIR/go.sum beside the package folder
# that `pulumi package gen-sdk --language go` wrote (DIR/assetdelivery). tools/generate-sdks.sh runs
# it after generating Go, into sdks/go or into its --out folder alike, so that the check comparing a
# regeneration with what is committed covers go.mod and go.sum too.
#
#   bash tools/go-sdk-module.sh sdks/go
#
# Deterministic: the module path comes from the generated code (the schema's
# language.go.importBasePath, less its last element, as Pulumi's generator does when it writes a
# go.mod itself), github.com/pulumi/pulumi/sdk/v3 is pinned to the version the repo's CLI is built
# from (tools/pulumi-cli/go.mod), and `go mod tidy` then resolves the rest by minimal version
# selection from those requirements alone: the same go.mod and go.sum on every machine and day.
# Needs Go and the Go module proxy (or a module cache holding those modules: the CLI's build fills it).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
die() { printf '[go-sdk-module] ERROR: %s\n' "$*" >&2; exit 1; }

[ $# -eq 1 ] && [ -d "$1" ] || die "usage: bash tools/go-sdk-module.sh DIR (the folder holding the generated package)"
DIR="$(cd "$1" && pwd)"

SDK_VERSION="$(sed -n 's#^[[:space:]]*github.com/pulumi/pulumi/sdk/v3 \(v[0-9.]*\)$#\1#p' "${REPO_ROOT}/tools/pulumi-cli/go.mod")"
[ -n "$SDK_VERSION" ] || die "no github.com/pulumi/pulumi/sdk/v3 requirement in tools/pulumi-cli/go.mod"

# Every generated file imports its package's helpers as "<importBasePath>/internal".
mapfile -t BASES < <(sed -n 's#^[[:space:]]*"\(.*\)/internal"$#\1#p' "$DIR"/*/*.go | sort -u)
[ ${#BASES[@]} -eq 1 ] || die "expected one import base path in ${DIR}/*/*.go, found ${#BASES[@]}: ${BASES[*]:-none}"
MODULE="$(dirname "${BASES[0]}")"

export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=mod
cd "$DIR"
rm -f go.mod go.sum
go mod init "$MODULE" 2>/dev/null
go mod edit -go=1.25 -require="github.com/pulumi/pulumi/sdk/v3@${SDK_VERSION}"
go mod tidy
