#!/usr/bin/env bash
# Records this release's stacks for the upgrade test: test/upgrade/recorded/v<version>/ (the version
# in provider/package.json), from the code as it is now. tools/set-version.sh runs it for the
# version being released; docs/releasing.md says when else.
#
#   bash tools/record-upgrade-states.sh           # refuses to overwrite a version already recorded
#   bash tools/record-upgrade-states.sh --force   # records that version again
#
# Needs what the end-to-end tests need: `npm run build`, the Pulumi CLI and its language hosts
# (tools/install-pulumi.sh), the Python virtualenv (tools/install-python.sh) and the Go SDK's
# modules (tools/prepare-go-sdk.sh). The programs are test/upgrade/programs/ and the root example;
# what is recorded and how: test/upgrade/record-states.ts. About 2-3 minutes.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
# shellcheck source=tools/node-env.sh
source tools/node-env.sh
[ -f provider/dist/plugin/main.js ] || { echo "[record-upgrade-states] ERROR: run npm run build first" >&2; exit 1; }
bash tools/install-python.sh >/dev/null
bash tools/prepare-go-sdk.sh >/dev/null
TS_NODE_PROJECT=test/tsconfig.json TS_NODE_TRANSPILE_ONLY=true \
  TS_NODE_COMPILER_OPTIONS='{"module":"CommonJS","moduleResolution":"Node10"}' \
  node -r ts-node/register test/upgrade/record-states.ts "$@"
