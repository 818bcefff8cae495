#!/usr/bin/env bash
# Installs what building and rehearsing a release needs beyond `npm ci`, into .tools/ (git-ignored):
#
#   bash tools/install-release-tools.sh
#
# - .tools/release-venv: PyPI's build (the wheel and sdist), twine (`twine check`, uploads) and
#   pypiserver (the rehearsal's local PyPI);
# - .tools/release-registries: Verdaccio 6.8.0, the rehearsal's local npm registry, from
#   tools/release-registries/package-lock.json (its node-fetch overridden to 2.7.0, without which
#   6.8.0 does not install; 6.10 wants Node 22 for itself, and the rehearsal runs it on the repo's Node).
# Idempotent: a stamp per folder records what it was made from; seconds when current (~40 s from
# nothing, from npm's and pip's caches).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=tools/node-env.sh
source "${REPO_ROOT}/tools/node-env.sh"
log() { printf '[install-release-tools] %s\n' "$*" >&2; }
PYTHON_TOOLS=("build==1.6.1" "twine==7.0.0" "pypiserver==2.4.2")
VENV="${REPO_ROOT}/.tools/release-venv"
REGISTRIES="${REPO_ROOT}/.tools/release-registries"

mkdir -p "${REPO_ROOT}/.tools"
exec 9>"${REPO_ROOT}/.tools/.release-tools.lock"
flock 9 # test files and scripts may run this at once

want="$(python3 --version) ${PYTHON_TOOLS[*]}"
if [ "$(cat "${VENV}/.stamp" 2>/dev/null || true)" != "$want" ]; then
  log "installing ${PYTHON_TOOLS[*]} into .tools/release-venv (PyPI)"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "${VENV}/bin/pip" install --quiet --disable-pip-version-check "${PYTHON_TOOLS[@]}"
  echo "$want" >"${VENV}/.stamp"
fi

want="$(sha256sum "${REPO_ROOT}/tools/release-registries/package-lock.json" | cut -c1-16)"
if [ "$(cat "${REGISTRIES}/.stamp" 2>/dev/null || true)" != "$want" ]; then
  log "installing Verdaccio into .tools/release-registries (npm ci)"
  rm -rf "$REGISTRIES" && mkdir -p "$REGISTRIES"
  cp "${REPO_ROOT}/tools/release-registries/package.json" "${REPO_ROOT}/tools/release-registries/package-lock.json" "$REGISTRIES/"
  (cd "$REGISTRIES" && npm ci --silent --ignore-scripts --no-audit --no-fund)
  echo "$want" >"${REGISTRIES}/.stamp"
fi
