#!/usr/bin/env bash
# Runs a command on this repo's Node.js (see tools/node-env.sh): `bash tools/with-node.sh vitest run`.
# npm scripts use it so that `npm test` runs the tests on Node >= 22 even from a shell whose own
# `node` is older.
set -euo pipefail
# shellcheck source=tools/node-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/node-env.sh"
exec "$@"
