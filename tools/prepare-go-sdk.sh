#!/usr/bin/env bash
# Prepares this machine for Go programs on the generated Go SDK (sdks/go): downloads the modules its
# go.sum pins from the Go module proxy and compiles (and vets) the SDK once, which fills Go's build
# cache with github.com/pulumi/pulumi/sdk/v3 and its dependencies (shared by every program that
# requires the same versions: examples/go-native, the e2e tests' programs).
#
#   bash tools/prepare-go-sdk.sh
#
# Idempotent. The first time, the compile of sdk/v3's dependency graph (grpc, protobuf, otel, ...)
# takes ~3.5 CPU-minutes: ~2 min on an idle 2-core machine (9 min measured at a load of 8 to 12);
# ~1 s when the caches are warm. After it, the first `pulumi up` of a Go program compiles only the
# SDK's package and the program, and links (~25-45 s on a busy machine).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v go >/dev/null 2>&1 || { echo "[prepare-go-sdk] ERROR: Go (>= 1.26.6, as sdk/v3 requires) is needed for Go programs, and none is on PATH" >&2; exit 1; }
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=readonly
cd "${REPO_ROOT}/sdks/go"
start=${SECONDS}
go mod download
go build ./...
go vet ./... # the generated code as Go's own checks see it (seconds once built)
printf '[prepare-go-sdk] modules and build cache ready for sdks/go (%s; took %ss)\n' "$(go version | cut -d' ' -f3)" "$((SECONDS - start))"
