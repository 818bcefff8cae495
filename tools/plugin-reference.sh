#!/usr/bin/env bash
# Writes, from the schema the native plugin serves (run `npm run build` first), what the Pulumi
# Registry reads and what GitHub's readers read: provider/schema.json (the schema as JSON) and
# docs/reference.md (every resource, type, function and setting). test/plugin/reference.test.ts
# fails when a committed file is not what this writes.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=tools/node-env.sh
source "${REPO_ROOT}/tools/node-env.sh"
cd "$REPO_ROOT"
node -e '
const fs = require("node:fs");
const { packageSchema, schemaJson } = require("./provider/dist/plugin/schema");
const { referenceMarkdown } = require("./provider/dist/plugin/reference.js");
const schema = packageSchema(require("./provider/package.json").version);
fs.writeFileSync("provider/schema.json", schemaJson(schema));
fs.writeFileSync("docs/reference.md", referenceMarkdown(schema));
'
echo "wrote provider/schema.json and docs/reference.md"
