#!/usr/bin/env bash
# Checks the five publishable packages (and, at the end, the generated Node.js SDK) as the registry
# and their users will see them, from their built dist/ (run `npm run build` first; `npm run
# check:packages` does both): publint (the package.json against the packed files, warnings count
# as errors), Are the Types Wrong (every
# `exports` entry resolves to JavaScript and matching types, for node10, node16 and bundlers), and
# `npm publish --dry-run` (nothing is published). Exits non-zero on the first problem.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

for pkg in sdk server provider cli policy; do
  printf '\n== @asset-delivery/%s\n' "$pkg"
  (
    cd "$pkg"
    npx --no-install publint --strict
    npx --no-install attw --pack . --format table-flipped
    npm publish --dry-run --ignore-scripts 2>&1 | grep -Ev '^npm notice [0-9.]+ ?[kM]?B ' # the file list is publint's business
  )
done

# The generated Node.js SDK, as Pulumi publishes its generated SDKs: from its built bin/ folder
# (tools/generate-sdks.sh). Are the Types Wrong and the dry run as above; not publint, which refuses
# the `repository` URL Pulumi's generator writes from the schema (npm itself accepts it, as on
# Pulumi's own SDKs) and which no hand may change in generated code.
printf '\n== @asset-delivery/pulumi (sdks/nodejs/bin)\n'
(
  cd sdks/nodejs/bin
  npx --no-install attw --pack . --format table-flipped
  npm publish --dry-run --ignore-scripts 2>&1 | grep -Ev '^npm notice [0-9.]+ ?[kM]?B '
)
