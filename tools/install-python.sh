#!/usr/bin/env bash
# Installs what Pulumi programs in Python need here, from PyPI and this repo only:
#
#   bash tools/install-python.sh      # then a program's Pulumi.yaml may name the venv:
#                                     #   runtime: {name: python, options: {virtualenv: <repo>/.tools/python/venv}}
#
# - .tools/python/dist/pulumi_assetdelivery-<version>-py3-none-any.whl: the generated Python SDK
#   (sdks/python, committed; tools/generate-sdks.sh regenerates it) built into a wheel with
#   `pip wheel`, from a copy so that the source tree stays clean;
# - .tools/python/venv: a virtual environment with PyPI's `pulumi` (the version PULUMI_PYTHON_VERSION
#   pins), that wheel, and mypy (the typechecker Pulumi.yaml's `typechecker: mypy` runs before each
#   run), which the tests' stacks run on (the Python language host is
#   tools/pulumi-cli/cmd/pulumi-language-python, built by tools/install-pulumi.sh).
#
# Idempotent, and safe to run concurrently (a lock): a stamp records what the venv was made from
# (Python, the pinned versions, the SDK's files); when nothing changed it only checks the stamp (0.1 s).
# Measured on 2 busy cores: ~60 s from nothing (venv, pulumi and mypy with their ~25 dependencies from
# pip's cache, the wheel), ~15 s when only the SDK changed.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PULUMI_PYTHON_VERSION="3.272.0" # PyPI's pulumi: the newest served here
MYPY_VERSION="2.4.1"
SDK_DIR="${REPO_ROOT}/sdks/python"
TOOLS_DIR="${REPO_ROOT}/.tools/python"
VENV="${TOOLS_DIR}/venv"
DIST="${TOOLS_DIR}/dist"
STAMP="${VENV}/.asset-delivery-stamp"

log() { printf '[install-python %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { log "ERROR: $*" >&2; exit 1; }

command -v python3 >/dev/null 2>&1 || die "python3 is needed (Python >= 3.9; Debian: apt-get install python3 python3-venv)"
[ -f "${SDK_DIR}/pyproject.toml" ] || die "no ${SDK_DIR#"$REPO_ROOT"/}/pyproject.toml: run bash tools/generate-sdks.sh python"

# One install at a time: test files that need the venv run this in parallel on a fresh machine.
mkdir -p "$TOOLS_DIR"
exec 9>"${TOOLS_DIR}/.install.lock"
flock 9

stamp() {
  {
    python3 --version
    echo "pulumi==${PULUMI_PYTHON_VERSION} mypy==${MYPY_VERSION}"
    (cd "$SDK_DIR" && git ls-files -co --exclude-standard . | LC_ALL=C sort | xargs sha256sum)
  } | sha256sum | cut -c1-16
}
want="$(stamp)"
if [ -x "${VENV}/bin/python" ] && [ "$(cat "$STAMP" 2>/dev/null || true)" = "$want" ]; then
  log "venv is current (pulumi ${PULUMI_PYTHON_VERSION}, mypy ${MYPY_VERSION}, pulumi_assetdelivery from sdks/python)"
  exit 0
fi

START=${SECONDS}
pip() { "${VENV}/bin/python" -m pip --disable-pip-version-check --quiet "$@"; }
if [ ! -x "${VENV}/bin/python" ]; then
  log "creating ${VENV#"$REPO_ROOT"/}"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
fi
if [ "$("${VENV}/bin/python" -c 'import importlib.metadata as m; print(m.version("pulumi"))' 2>/dev/null || true)" != "$PULUMI_PYTHON_VERSION" ]; then
  log "installing pulumi==${PULUMI_PYTHON_VERSION} and mypy==${MYPY_VERSION} from PyPI"
  pip install "pulumi==${PULUMI_PYTHON_VERSION}" "mypy==${MYPY_VERSION}"
fi

# The wheel, built from a copy: pip's build leaves build/ and *.egg-info beside the sources. The
# generated pyproject.toml names README.md, which the generator writes inside the package.
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
cp -r "$SDK_DIR" "${build}/python"
cp "${SDK_DIR}/pulumi_assetdelivery/README.md" "${build}/python/README.md"
rm -rf "$DIST"
mkdir -p "$DIST"
log "building the pulumi_assetdelivery wheel from sdks/python"
pip wheel --no-deps --wheel-dir "$DIST" "${build}/python"
wheel="$(ls "$DIST"/pulumi_assetdelivery-*.whl)"
pip install --force-reinstall --no-deps "$wheel"
# Its dependencies (pulumi, semver, ...) must be satisfied by what is installed, never upgraded past the pin.
pip install "$wheel" "pulumi==${PULUMI_PYTHON_VERSION}" "mypy==${MYPY_VERSION}"
"${VENV}/bin/python" -c 'import pulumi_assetdelivery' || die "the installed wheel does not import"
echo "$want" >"$STAMP"
log "installed pulumi==${PULUMI_PYTHON_VERSION}, mypy==${MYPY_VERSION} and ${wheel#"$REPO_ROOT"/} into ${VENV#"$REPO_ROOT"/} in $((SECONDS - START))s"
