#!/usr/bin/env bash
# Starts `asset-delivery serve` in the background for the release workflow's checks (the `verify` and
# `after-publish` jobs) and makes an Account Admin key, then prints the two variables the plugin reads,
# as lines for $GITHUB_ENV:
#
#   bash tools/verify/server.sh PATH/TO/asset-delivery >> "$GITHUB_ENV"
#
# The server listens on 127.0.0.1:8787 with deployments immediate, its database and log in a fresh
# folder; it stops with the job.
set -euo pipefail
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: bash tools/verify/server.sh PATH/TO/asset-delivery" >&2; exit 2; }
cli="$1"
dir="$(mktemp -d)"
"$cli" serve --db "${dir}/verify.db" --port 8787 --deploy-delay-ms 0 --deploy-lag-ms 0 >"${dir}/server.log" 2>&1 &
for _ in $(seq 60); do
  grep -q "listening on" "${dir}/server.log" && break
  kill -0 $! 2>/dev/null || break
  sleep 1
done
grep -q "listening on" "${dir}/server.log" || { cat "${dir}/server.log" >&2; echo "asset-delivery serve did not start" >&2; exit 1; }
key="$("$cli" demo --db "${dir}/verify.db" | sed -n 's/.*"key":"\([^"]*\)".*/\1/p')"
[ -n "$key" ] || { echo "asset-delivery demo gave no key" >&2; exit 1; }
[ -z "${GITHUB_ACTIONS:-}" ] || echo "::add-mask::${key}" >&2
echo "ASSET_DELIVERY_BASE_URL=http://127.0.0.1:8787"
echo "ASSET_DELIVERY_API_KEY=${key}"
