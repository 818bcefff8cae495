#!/usr/bin/env bash
# Runs the tests that prove the low end of what we support: the consumer test (packed packages in a
# project outside the repo), the provider's end-to-end tests and the examples' type-check, on the
# oldest supported pair — Node 22, @pulumi/pulumi at the bottom of the provider's peer range and the
# matching CLI.
# The whole suite runs on the primary pair (Node 24, the newest @pulumi/pulumi, CLI) in `npm test`.
#
#   bash tools/test-oldest-pair.sh     # after `npm ci` and `npm run build`
#
# It installs Node 22 into .tools/node-22 and the oldest CLI into .tools/pulumi-oldest (cached), and
# swaps @pulumi/pulumi in node_modules for the oldest version without saving it; the version in
# package.json is put back at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The bottom of the provider's peer range: provider/package.json "peerDependencies", ">=X <4".
OLDEST_PULUMI="$(node -p 'require("./provider/package.json").peerDependencies["@pulumi/pulumi"].match(/>=\s*(\d+\.\d+\.\d+)/)[1]')"
DEV_PULUMI="$(node -p 'require("./package.json").devDependencies["@pulumi/pulumi"]')"

node22_bin="$(bash tools/install-node.sh 22 | tail -n 1)"
bash tools/install-pulumi.sh oldest
cli_version="$(.tools/pulumi-oldest/bin/pulumi version)"
[ "$cli_version" = "v${OLDEST_PULUMI}" ] || { echo "the oldest CLI is ${cli_version}, the peer range starts at ${OLDEST_PULUMI}" >&2; exit 1; }

restore() { npm install --no-save --no-audit --no-fund "@pulumi/pulumi@${DEV_PULUMI}" >/dev/null; }
trap restore EXIT
export PATH="${node22_bin}:${PATH}"
echo "==> node $(node --version), @pulumi/pulumi ${OLDEST_PULUMI}, pulumi ${cli_version}"
npm install --no-save --no-audit --no-fund "@pulumi/pulumi@${OLDEST_PULUMI}"
# Not the language hosts' Go tests (test/toolchain/language-hosts-go.test.ts): `go test` of
# tools/pulumi-cli, the same Go and code whatever Node.js, @pulumi/pulumi and CLI run beside it;
# npm test runs them.
PULUMI_CLI_ROOT="$PWD/.tools/pulumi-oldest" CONSUMER_PULUMI_VERSION="$OLDEST_PULUMI" \
  npx vitest run --project full test/consumer test/provider/e2e test/provider/examples-types.test.ts test/toolchain \
  --exclude test/toolchain/language-hosts-go.test.ts
