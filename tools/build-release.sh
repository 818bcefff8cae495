#!/usr/bin/env bash
# Builds every artefact of a release into one folder, as the release workflow publishes them and the
# rehearsal (test/release/release.test.ts) publishes them to local registries:
#
#   bash tools/build-release.sh DIR       # run `npm run build` first
#
#   DIR/npm/      the six npm packages as `npm pack` makes them, and ORDER: the order to publish
#                 them in (a package after those it depends on)
#   DIR/python/   pulumi_assetdelivery's wheel and sdist (`python -m build`), checked by `twine check --strict`
#   DIR/go/       the Go SDK module in the Go module proxy's layout (a GOPROXY=file://DIR/go folder):
#                 <module>/@v/list, vX.Y.Z.info, .mod, .zip; the release tags sdks/go/vX.Y.Z instead
#   DIR/maven/    the Java SDK in a Maven repository's layout (tools/build-java-sdk.sh): jar, sources and
#                 javadoc jars and .pom, each with its checksums; the release signs and uploads it to Maven Central
#   DIR/plugin/   the plugin's tarballs for every platform and SHA256SUMS (tools/package-plugin.sh)
#
# Python's build tools (build, twine) are in .tools/release-venv (tools/install-release-tools.sh).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"
# shellcheck source=tools/node-env.sh
source tools/node-env.sh
log() { printf '[build-release %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ $# -eq 1 ] || die "usage: bash tools/build-release.sh DIR"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
VERSION="$(node -p 'require("./provider/package.json").version')"
GO_MODULE="$(sed -n 's/^module //p' sdks/go/go.mod)"
[ -f sdks/nodejs/bin/index.js ] && [ -f provider/dist/plugin/main.js ] || die "not built: run npm run build first"
rm -rf "${OUT:?}"/{npm,python,go,maven,plugin}
mkdir -p "${OUT}"/{npm,python,go,maven,plugin}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
start=${SECONDS}

# npm: `npm pack` of each package (npm's own variables of a calling `npm run` would leak in).
npm_clean() { env -u npm_config_workspace -u npm_config_workspaces -u npm_config_include_workspace_root npm "$@"; }
: >"${OUT}/npm/ORDER"
for dir in sdk server provider cli policy sdks/nodejs/bin; do
  tarball="$(cd "$dir" && npm_clean pack --silent --ignore-scripts --pack-destination "${OUT}/npm" | tail -n1)"
  echo "$tarball" >>"${OUT}/npm/ORDER"
done
log "npm: $(tr '\n' ' ' <"${OUT}/npm/ORDER")"

# Python: the wheel and the sdist, from a copy (the build leaves files beside the sources); the
# generated pyproject.toml names README.md, which the generator writes inside the package.
bash tools/install-release-tools.sh
venv="${REPO_ROOT}/.tools/release-venv"
cp -r sdks/python "${work}/python"
cp sdks/python/pulumi_assetdelivery/README.md "${work}/python/README.md"
"${venv}/bin/python" -m build --sdist --wheel --outdir "${OUT}/python" "${work}/python" >"${work}/build.log" 2>&1 || die "python -m build failed:$(printf '\n')$(cat "${work}/build.log")"
"${venv}/bin/python" -m twine check --strict "${OUT}"/python/* >&2
log "python: $(cd "${OUT}/python" && ls | tr '\n' ' ')"

# Go: the module zip as the go command makes it (`go mod download` of the module from a local
# folder is not possible, so it is written here: module@version/ prefix, the module's files only).
gover="v${VERSION}"
godir="${OUT}/go/${GO_MODULE}/@v"
mkdir -p "$godir"
printf '%s\n' "$gover" >"${godir}/list"
printf '{"Version":"%s","Time":"%s"}\n' "$gover" "$(git log -1 --format=%cI -- sdks/go 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)" >"${godir}/${gover}.info"
cp sdks/go/go.mod "${godir}/${gover}.mod"
(cd sdks/go && git ls-files -co --exclude-standard . | LC_ALL=C sort) >"${work}/go-files"
python3 - "$REPO_ROOT/sdks/go" "${GO_MODULE}@${gover}" "${godir}/${gover}.zip" "${work}/go-files" <<'PY'
import sys, zipfile
src, prefix, out, listing = sys.argv[1:]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name in open(listing).read().split("\n"):
        if name:
            info = zipfile.ZipInfo(f"{prefix}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, open(f"{src}/{name}", "rb").read())
PY
log "go: ${GO_MODULE}@${gover}"

# Java: the SDK's jars and pom in a Maven repository's layout.
bash tools/build-java-sdk.sh "${OUT}/maven"
log "maven: $(cd "${OUT}/maven" && find . -name '*.jar' | sort | tr '\n' ' ')"

# The plugin: every platform (built once per content: .tools/plugin-binaries).
bash tools/package-plugin.sh --out "${OUT}/plugin" >/dev/null
log "plugin: $(cd "${OUT}/plugin" && ls | tr '\n' ' ')"
log "built the release ${VERSION} into ${OUT} in $((SECONDS - start))s"
