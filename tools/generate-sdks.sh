#!/usr/bin/env bash
# Regenerates the SDKs in sdks/<language> from the native plugin's schema, with Pulumi's own code
# generators (`pulumi package gen-sdk`, which hands the schema to the language host's
# GeneratePackage: our hosts in tools/pulumi-cli/cmd, built by tools/install-pulumi.sh). Generated
# files are never edited by hand: change provider/src/plugin/schema/ (or a generator option in its index.ts,
# `language.<lang>`) and run this again. The output depends only on the schema and the generator's
# version, so running it twice gives the same files (test/sdks/regenerate.test.ts holds it to that).
#
#   bash tools/generate-sdks.sh                 # every language whose host is installed: nodejs, python, go, java
#   bash tools/generate-sdks.sh nodejs          # only these
#   bash tools/generate-sdks.sh --out DIR ...   # into DIR/<language> instead of sdks/ (nothing built)
#   bash tools/generate-sdks.sh --build         # only build the committed Node.js SDK (npm run build does)
#
# The Node.js SDK (`@asset-delivery/pulumi`) is TypeScript; it is built the way Pulumi builds its
# own generated SDKs: `tsc` into sdks/nodejs/bin (git-ignored), with package.json and README.md
# copied beside the JavaScript, which is the folder a program installs and `npm publish` publishes
# (`npm install <repo>/sdks/nodejs/bin`, `npm publish --dry-run sdks/nodejs/bin`). It compiles on
# the repo's TypeScript, @types/node and @pulumi/pulumi (found by walking up to the root's
# node_modules), so it needs no install of its own.
#
# Needs: the Pulumi CLI and the hosts (bash tools/install-pulumi.sh), `npm ci`. The plugin's code is
# rebuilt first (tsc -b provider: seconds when current). ~3 s per language when the machine is idle.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

ALL_LANGUAGES=(nodejs python go java)
PLUGIN="./provider/bin/pulumi-resource-assetdelivery" # `./`: a path, not a package name for the registry

log() { printf '[generate-sdks] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
usage() { die "usage: bash tools/generate-sdks.sh [--out DIR] [nodejs|python|go|java ...] | --build"; }

# Per language, two optional steps after `gen-sdk`, each given the language's folder:
# after_generate_<lang> belongs to generation itself (it runs for --out too, so the regeneration check
# covers what it writes); build_<lang> builds what was generated (sdks/ only, not for --out).

# after_generate_go DIR: makes the generated Go SDK a module of its own (go.mod, go.sum; branch golang).
after_generate_go() { bash "${REPO_ROOT}/tools/go-sdk-module.sh" "$1"; }

# after_generate_java DIR: the Maven build beside the generated sources (pom.xml, and version.txt and
# plugin.json on the class path), from the schema the plugin serves (tools/java-sdk-pom.mjs).
after_generate_java() { node "${REPO_ROOT}/tools/java-sdk-pom.mjs" "${WORK}/schema.json" "$1"; }

# build_nodejs DIR: compiles the generated TypeScript in DIR into DIR/bin, a publishable package.
build_nodejs() {
  local dir="$1"
  [ -f "${dir}/package.json" ] || die "no ${dir#"$REPO_ROOT"/}/package.json: run bash tools/generate-sdks.sh nodejs"
  rm -rf "${dir}/bin"
  "${REPO_ROOT}/node_modules/.bin/tsc" -p "$dir"
  cp "${dir}/package.json" "${dir}/README.md" "${dir}/LICENSE" "${dir}/bin/"
  log "built ${dir#"$REPO_ROOT"/}/bin ($(sed -n 's/^ *"name": "\(.*\)",$/\1/p' "${dir}/package.json" | head -n1))"
}

OUT=""
BUILD_ONLY=""
LANGUAGES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || usage; OUT="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
    --build) BUILD_ONLY=yes; shift ;;
    nodejs | python | go | java) LANGUAGES+=("$1"); shift ;;
    *) usage ;;
  esac
done

if [ -n "$BUILD_ONLY" ]; then
  # shellcheck source=tools/node-env.sh
  source "${REPO_ROOT}/tools/node-env.sh"
  build_nodejs "${REPO_ROOT}/sdks/nodejs"
  exit 0
fi
# shellcheck source=tools/pulumi-env.sh
source "${REPO_ROOT}/tools/pulumi-env.sh"

if [ ${#LANGUAGES[@]} -eq 0 ]; then
  for lang in "${ALL_LANGUAGES[@]}"; do
    if command -v "pulumi-language-${lang}" >/dev/null 2>&1; then LANGUAGES+=("$lang"); else log "skipping ${lang}: no pulumi-language-${lang} installed"; fi
  done
fi
[ ${#LANGUAGES[@]} -gt 0 ] || die "no language host installed: run bash tools/install-pulumi.sh"
command -v pulumi >/dev/null 2>&1 || die "no Pulumi CLI: run bash tools/install-pulumi.sh"

"${REPO_ROOT}/node_modules/.bin/tsc" -b provider # the plugin serves the schema of the code as it is now

WORK="$(mktemp -d "${TMPDIR:-/tmp}/generate-sdks.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
pulumi package get-schema "$PLUGIN" >"${WORK}/schema.json" 2>"${WORK}/schema.log" ||
  die "pulumi package get-schema failed:$(printf '\n')$(cat "${WORK}/schema.log")"

for lang in "${LANGUAGES[@]}"; do
  # gen-sdk empties and writes <out>/<lang>; a scratch folder keeps a failed run from touching sdks/.
  pulumi package gen-sdk "$PLUGIN" --language "$lang" --out "$WORK" >"${WORK}/${lang}.log" 2>&1 ||
    die "pulumi package gen-sdk --language ${lang} failed:$(printf '\n')$(cat "${WORK}/${lang}.log")"
  dest="${OUT:-${REPO_ROOT}/sdks}/${lang}"
  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  mv "${WORK}/${lang}" "$dest"
  # Every SDK ships the project's license (Apache-2.0 asks for a copy with each distribution): the
  # npm package, the wheel and sdist (setuptools takes LICENSE by default), the Go module, the jars
  # (the pom puts it in META-INF).
  cp "${REPO_ROOT}/LICENSE" "${dest}/LICENSE"
  if [ "$(type -t "after_generate_${lang}")" = function ]; then "after_generate_${lang}" "$dest"; fi
  log "generated ${dest#"$REPO_ROOT"/} ($(find "$dest" -type f | wc -l) files)"
  if [ -z "$OUT" ] && [ "$(type -t "build_${lang}")" = function ]; then "build_${lang}" "$dest"; fi
done
