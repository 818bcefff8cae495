#!/usr/bin/env bash
# The quick start's first command: installs everything this repo needs, starts the local
# Management API server with a demo account, and runs `pulumi up` of the root project's `dev`
# stack against it. Safe to run again: each step skips what is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${ASSET_DELIVERY_PORT:-8787}"
DB=".data/quickstart.db"
BASE_URL="http://127.0.0.1:${PORT}"
step() { printf '\n==> %s\n' "$*"; }

step "System packages the tests need (ffmpeg, python3-venv; only when missing)"
bash tools/install-system-packages.sh

step "Node.js >= 22 (yours when it is; else Node 24 into .tools/node, from the npm registry)"
bash tools/install-node.sh >/dev/null
# shellcheck source=tools/node-env.sh
source tools/node-env.sh
echo "node $(node --version) at $(command -v node)"

step "npm packages"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ .tools/node/bin/node -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  echo "up to date"
fi

step "Pulumi CLI (built from source on first run: several minutes)"
bash tools/install-pulumi.sh

step "Building the packages"
npm run build --silent

# shellcheck source=tools/pulumi-env.sh
source tools/pulumi-env.sh
mkdir -p .data

step "Local Management API server on ${BASE_URL}"
if curl -fsS "${BASE_URL}/openapi.json" >/dev/null 2>&1; then
  echo "already running"
else
  nohup node cli/bin/asset-delivery.js serve --port "${PORT}" --db "${DB}" >.data/server.log 2>&1 &
  echo $! >.data/server.pid
  for _ in $(seq 1 100); do
    curl -fsS "${BASE_URL}/openapi.json" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -fsS "${BASE_URL}/openapi.json" >/dev/null || { cat .data/server.log; echo "the server did not start" >&2; exit 1; }
  echo "started (pid $(cat .data/server.pid), log .data/server.log)"
fi

step "Demo account and API key"
ASSET_DELIVERY_API_KEY="$(node cli/bin/asset-delivery.js demo --db "${DB}" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).key))')"
export ASSET_DELIVERY_API_KEY ASSET_DELIVERY_BASE_URL="${BASE_URL}"
echo "a fresh Account Admin key of account \"demo\" (passed to Pulumi in ASSET_DELIVERY_API_KEY, never written to a file)"

step "pulumi up (stack dev)"
pulumi stack select dev --create --non-interactive >/dev/null
pulumi up --stack dev --yes --skip-preview --non-interactive

step "Outputs of stack dev"
pulumi stack output --stack dev --json

cat <<MSG

The server keeps running at ${BASE_URL} (stop it with: kill \$(cat .data/server.pid)).
Next: \`npm test\` runs the whole test suite; docs/provider.md says how to use your own stacks.
MSG
