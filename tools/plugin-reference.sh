#!/usr/bin/env bash
# Writes docs/registry/reference.md from the schema the native plugin serves (run `npm run build`
# first); test/plugin/reference.test.ts fails when the committed file is not what this writes.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=tools/node-env.sh
source "${REPO_ROOT}/tools/node-env.sh"
cd "$REPO_ROOT"
node -e '
const { packageSchema } = require("./provider/dist/plugin/schema.js");
const { referenceMarkdown } = require("./provider/dist/plugin/reference.js");
process.stdout.write(referenceMarkdown(packageSchema(require("./provider/package.json").version)));
' >docs/registry/reference.md
echo "wrote docs/registry/reference.md"
