#!/usr/bin/env bash
# Installs a Pulumi CLI (and the language hosts for Node.js, Python, Go and YAML programs) without
# downloading anything but Go modules:
#
#   bash tools/install-pulumi.sh          # the newest: into .tools/pulumi/bin; then: source tools/pulumi-env.sh
#   bash tools/install-pulumi.sh oldest   # the oldest supported: into .tools/pulumi-oldest/bin (CI's oldest pair)
#
# The versions are the ones the wrapper modules pin: tools/pulumi-cli/go.mod (newest, v3.274.1: the
# newest github.com/pulumi/pulumi/pkg/v3 the Go module proxy serves, and github.com/pulumi/pulumi-yaml
# v1.25.0, built against the same pkg/v3) and tools/pulumi-cli/oldest/go.mod (v3.248.0, the low end
# of the provider's @pulumi/pulumi peer range).
#
# - If the bin folder already holds a CLI stamped with that version (and current language hosts), it
#   does nothing but check them (seconds).
# - Else (newest only), if a `pulumi` >= that version is on PATH, it links that one (and its bundled
#   plugins) in.
# - Else it builds from the Go module proxy: the CLI from github.com/pulumi/pulumi/pkg/v3 and our
#   language hosts for Node.js, Python and Go (tools/pulumi-cli/cmd/pulumi-language-{nodejs,python,go}:
#   stand-ins, as the real ones' modules are not served; always built from the newest module, they
#   serve both CLIs; the Node.js one also starts Node.js policy packs, `--policy-pack`, through its
#   RunPlugin), and, for the newest CLI only,
#   Pulumi YAML's language host (github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml: the YAML
#   programs of the native plugin's tests and examples), and Pulumi's own Java language host
#   (github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java, pinned by tools/pulumi-cli/java: Java
#   programs, and the Java code generator behind `gen-sdk --language java` and `pulumi import`),
#   checked to start.
#   Measured on 2 cores: fresh machine (empty module and build caches) ~1 min of downloads plus
#   ~6-7 min of compiling when the machine is otherwise idle (16 min when it was busy); ~20 s when
#   only .tools/ is missing (Go caches warm); under a second when .tools/ is current.
#
# The dynamic-provider plugin pulumi-resource-pulumi-nodejs is the script shipped in
# node_modules/@pulumi/pulumi (run `npm ci` first; it resolves @pulumi/pulumi from the program's
# folder, so one copy serves every version); Pulumi looks for these "bundled" plugins beside the
# (symlink-resolved) CLI binary or on PATH, so they all go into the bin folder.
#
# Environment: PULUMI_INSTALL_FORCE_BUILD=1 ignores a pulumi on PATH and rebuilds.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODULE_DIR="${REPO_ROOT}/tools/pulumi-cli" # the language host's module, and the newest CLI's
case "${1:-newest}" in
  newest) CLI_MODULE_DIR="$MODULE_DIR" TOOLS_DIR="${REPO_ROOT}/.tools/pulumi" ;;
  oldest) CLI_MODULE_DIR="${MODULE_DIR}/oldest" TOOLS_DIR="${REPO_ROOT}/.tools/pulumi-oldest" ;;
  *) echo "usage: bash tools/install-pulumi.sh [newest|oldest]" >&2; exit 2 ;;
esac
CHANNEL="${1:-newest}"
PULUMI_VERSION="$(sed -n 's#^\(require\)\{0,1\}[[:space:]]*github.com/pulumi/pulumi/pkg/v3 v\([0-9.]*\)$#\2#p' "${CLI_MODULE_DIR}/go.mod")"
[ -n "$PULUMI_VERSION" ] || { echo "no github.com/pulumi/pulumi/pkg/v3 requirement in ${CLI_MODULE_DIR}/go.mod" >&2; exit 1; }
BIN_DIR="${TOOLS_DIR}/bin"
NODE_PLUGIN_SRC="${REPO_ROOT}/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
# Our language hosts: every folder under tools/pulumi-cli/cmd (pulumi-language-nodejs, and the others
# added beside it); each prints "<version>+<build id>" for -version.
OUR_HOSTS=()
for dir in "${MODULE_DIR}"/cmd/pulumi-language-*/; do OUR_HOSTS+=("$(basename "$dir")"); done
YAML_HOST_PKG="github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
YAML_MODULE_DIR="${MODULE_DIR}/yaml" # its own module: pulumi-yaml pins an older pkg/v3 than the CLI's
YAML_VERSION="$(sed -n 's#^require github.com/pulumi/pulumi-yaml v\([0-9.]*\)$#\1#p' "${YAML_MODULE_DIR}/go.mod")"
[ -n "$YAML_VERSION" ] || { echo "no github.com/pulumi/pulumi-yaml requirement in ${YAML_MODULE_DIR}/go.mod" >&2; exit 1; }
# The YAML host has no version flag: a hash of what it was built from is kept beside it.
YAML_STAMP="${BIN_DIR}/.pulumi-language-yaml.build-id"
yaml_build_id() { (cd "$YAML_MODULE_DIR" && cat go.mod go.sum tools.go) | sha256sum | cut -c1-12; }
JAVA_HOST_PKG="github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
JAVA_MODULE_DIR="${MODULE_DIR}/java" # its own module, as the YAML host's (pulumi-java pins its own pkg/v3)
JAVA_VERSION="$(sed -n 's#^require github.com/pulumi/pulumi-java/pkg v\([0-9.]*\)$#\1#p' "${JAVA_MODULE_DIR}/go.mod")"
[ -n "$JAVA_VERSION" ] || { echo "no github.com/pulumi/pulumi-java/pkg requirement in ${JAVA_MODULE_DIR}/go.mod" >&2; exit 1; }
# Nor has the Java host: a hash of what it was built from is kept beside it, as for the YAML host.
JAVA_STAMP="${BIN_DIR}/.pulumi-language-java.build-id"
java_build_id() { (cd "$JAVA_MODULE_DIR" && cat go.mod go.sum tools.go) | sha256sum | cut -c1-12; }
VERSION_PKG="github.com/pulumi/pulumi/sdk/v3/go/common/version"

# Keep `pulumi version` and friends from touching ~/.pulumi or checking for updates.
export PULUMI_HOME="${TOOLS_DIR}/home"
export PULUMI_SKIP_UPDATE_CHECK=true

START_SECONDS=${SECONDS}
log() { printf '[install-pulumi %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { log "ERROR: $*" >&2; exit 1; }

# version_ok VERSION: true if VERSION (e.g. v3.248.0, 3.250.1-alpha.x) is >= PULUMI_VERSION.
version_ok() {
  local v="${1#v}" core pre
  core="${v%%[-+]*}"
  pre=""
  [[ "$v" == "$core"-* ]] && pre="yes"
  [[ "$core" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || return 1
  if [ "$core" = "$PULUMI_VERSION" ]; then
    [ -z "$pre" ]
    return
  fi
  [ "$(printf '%s\n%s\n' "$PULUMI_VERSION" "$core" | sort -V | head -n1)" = "$PULUMI_VERSION" ]
}

cli_version() { "$1" version 2>/dev/null | head -n1 | tr -d '[:space:]' || true; }

# A hash of everything that goes into our builds (every file under cmd/), stamped into our hosts.
build_id() {
  (cd "$MODULE_DIR" && cat go.mod go.sum tools.go $(find cmd -type f | LC_ALL=C sort)) | sha256sum | cut -c1-12
}

mkdir -p "$BIN_DIR" "$PULUMI_HOME"

install_node_plugin() {
  local dest="${BIN_DIR}/pulumi-resource-pulumi-nodejs"
  if [ -L "$dest" ]; then
    return 0 # linked to the bundled copy of a CLI from PATH
  fi
  if [ ! -f "$NODE_PLUGIN_SRC" ]; then
    die "missing ${NODE_PLUGIN_SRC#"$REPO_ROOT"/}: run 'npm ci' first"
  fi
  if ! cmp -s "$NODE_PLUGIN_SRC" "$dest" 2>/dev/null; then
    install -m 0755 "$NODE_PLUGIN_SRC" "$dest"
    log "installed pulumi-resource-pulumi-nodejs (dynamic providers) from @pulumi/pulumi"
  fi
}

# ---- go toolchain -----------------------------------------------------------------------------
find_go() {
  if command -v go >/dev/null 2>&1; then
    command -v go
  elif [ -x /usr/local/go/bin/go ]; then
    echo /usr/local/go/bin/go
  else
    die "Go (>= 1.25) is needed to build the Pulumi CLI, and none was found on PATH"
  fi
}

go_build() { # go_build MODULE_DIR OUTPUT PACKAGE LDFLAGS
  local dir="$1" out="$2" pkg="$3" ldflags="$4" tmp
  tmp="${out}.tmp.$$"
  (cd "$dir" && "$GO" build -mod=readonly -trimpath -buildvcs=false -p "$JOBS" \
    -ldflags "$ldflags" -o "$tmp" "$pkg") || { rm -f "$tmp"; die "go build $pkg failed"; }
  mv -f "$tmp" "$out"
}

prepare_go() {
  [ -z "${GO_PREPARED:-}" ] || return 0 # once per run
  GO_PREPARED=yes
  GO="$(find_go)"
  JOBS="$(nproc 2>/dev/null || echo 2)"
  export GOFLAGS="-mod=readonly"
  log "using $("$GO" version) with ${JOBS} parallel jobs; module cache: $("$GO" env GOMODCACHE)"
  log "downloading Go modules pinned by tools/pulumi-cli/go.sum (and oldest/, yaml/, java/) (first time: ~900 modules, 2-4 min)..."
  for dir in "$MODULE_DIR" "$CLI_MODULE_DIR" "$YAML_MODULE_DIR" "$JAVA_MODULE_DIR"; do
    (cd "$dir" && "$GO" mod download) || die "go mod download failed in ${dir#"$REPO_ROOT"/} (is the Go module proxy reachable?)"
  done
}

build_langhosts() {
  local id="$1" host
  for host in "${OUR_HOSTS[@]}"; do
    log "compiling ${host} (our language host; 1-2 min the first time)..."
    go_build "$MODULE_DIR" "${BIN_DIR}/${host}" "./cmd/${host}" \
      "-s -w -X main.version=${PULUMI_VERSION} -X main.buildID=${id}"
  done
}

# langhosts_current ID: true when each of our hosts is built from the module as it is now.
langhosts_current() {
  local id="$1" host
  for host in "${OUR_HOSTS[@]}"; do
    [ -x "${BIN_DIR}/${host}" ] && [ "$("${BIN_DIR}/${host}" -version 2>/dev/null || true)" = "${PULUMI_VERSION}+${id}" ] || return 1
  done
}

build_yamlhost() {
  local id
  id="$(yaml_build_id)"
  log "compiling pulumi-language-yaml v${YAML_VERSION} (Pulumi YAML's language host, its own pkg/v3 v3.206.0 build; ~6 min on 2 cores the first time)..."
  go_build "$YAML_MODULE_DIR" "${BIN_DIR}/pulumi-language-yaml" "$YAML_HOST_PKG" \
    "-s -w -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v${YAML_VERSION}"
  echo "$id" >"$YAML_STAMP"
}

# yamlhost_current: true when the YAML host is built from its module as it is now (or not wanted:
# the oldest CLI runs only TypeScript programs), or linked from beside a CLI on PATH.
yamlhost_current() {
  local host="${BIN_DIR}/pulumi-language-yaml"
  [ "$CHANNEL" = newest ] || return 0
  [ -L "$host" ] && return 0
  [ -x "$host" ] && [ "$(cat "$YAML_STAMP" 2>/dev/null || true)" = "$(yaml_build_id)" ]
}

# check_starts HOST: a language host started without an engine prints the port it serves on.
check_starts() {
  local host="$1" out pid port=""
  out="$(mktemp)"
  "$host" >"$out" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    port="$(head -n1 "$out")"
    [ -z "$port" ] || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$out"
  [[ "$port" =~ ^[0-9]+$ ]] || die "$(basename "$host") did not start (printed '${port}' where a port was expected)"
}

build_javahost() {
  log "compiling pulumi-language-java v${JAVA_VERSION} (Pulumi's Java language host; ~4 min on 2 cores the first time)..."
  go_build "$JAVA_MODULE_DIR" "${BIN_DIR}/pulumi-language-java" "$JAVA_HOST_PKG" \
    "-s -w -X github.com/pulumi/pulumi-java/pkg/version.Version=${JAVA_VERSION}"
  check_starts "${BIN_DIR}/pulumi-language-java"
  java_build_id >"$JAVA_STAMP"
}

# javahost_current: as yamlhost_current, for the Java host.
javahost_current() {
  local host="${BIN_DIR}/pulumi-language-java"
  [ "$CHANNEL" = newest ] || return 0
  [ -L "$host" ] && return 0
  [ -x "$host" ] && [ "$(cat "$JAVA_STAMP" 2>/dev/null || true)" = "$(java_build_id)" ]
}

build_cli() {
  log "compiling pulumi v${PULUMI_VERSION} (github.com/pulumi/pulumi/pkg/v3; ~5 min on 2 cores the first time, ~20 s when only relinking)..."
  go_build "$CLI_MODULE_DIR" "${BIN_DIR}/pulumi" "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi" \
    "-s -w -X ${VERSION_PKG}.Version=v${PULUMI_VERSION}"
}

# ---- 1. already installed here? ---------------------------------------------------------------
ID="$(build_id)"
cli="${BIN_DIR}/pulumi"
if [ -x "$cli" ] && [ -z "${PULUMI_INSTALL_FORCE_BUILD:-}" ]; then
  have="$(cli_version "$cli")"
  if [ -L "$cli" ] && version_ok "$have"; then
    install_node_plugin
    log "pulumi ${have} already linked in ${BIN_DIR#"$REPO_ROOT"/} -> $(readlink -f "$cli") (took $((SECONDS - START_SECONDS))s)"
    exit 0
  fi
  if [ ! -L "$cli" ] && [ "$have" = "v${PULUMI_VERSION}" ]; then
    langhost_stale=""
    langhosts_current "$ID" || langhost_stale=yes
    if [ -n "$langhost_stale" ] || ! yamlhost_current || ! javahost_current; then
      log "pulumi ${have} is current; a language host is missing or stale"
      prepare_go
      [ -z "$langhost_stale" ] || build_langhosts "$ID"
      yamlhost_current || build_yamlhost
      javahost_current || build_javahost
    fi
    install_node_plugin
    log "pulumi ${have} is installed in ${BIN_DIR#"$REPO_ROOT"/} (cached; took $((SECONDS - START_SECONDS))s)"
    exit 0
  fi
  log "found ${BIN_DIR#"$REPO_ROOT"/}/pulumi ${have:-of unknown version}; want v${PULUMI_VERSION}: replacing it"
  rm -f "$cli"
fi

# ---- 2. a recent enough pulumi on PATH? -------------------------------------------------------
if [ -z "${PULUMI_INSTALL_FORCE_BUILD:-}" ] && [ "$CHANNEL" = newest ]; then
  # Look on PATH without our own folder (tools/pulumi-env.sh puts it first).
  search_path="$(printf "%s" "$PATH" | tr ":" "\n" | { grep -vxF "$BIN_DIR" || true; } | paste -sd: -)"
  if ambient="$(PATH="$search_path" command -v pulumi 2>/dev/null)"; then
    have="$(cli_version "$ambient")"
    if version_ok "$have"; then
      real="$(readlink -f "$ambient")"
      real_dir="$(dirname "$real")"
      log "using pulumi ${have} from PATH (${real}) instead of building"
      ln -sfn "$real" "$cli"
      # Pulumi finds bundled plugins beside the symlink-resolved binary, or on PATH. Link the ones
      # that sit beside it; supply ours for those that do not.
      for plugin in "${OUR_HOSTS[@]}" pulumi-language-yaml pulumi-language-java pulumi-resource-pulumi-nodejs; do
        if [ -x "${real_dir}/${plugin}" ]; then
          ln -sfn "${real_dir}/${plugin}" "${BIN_DIR}/${plugin}"
        else
          rm -f "${BIN_DIR}/${plugin}"
        fi
      done
      for host in "${OUR_HOSTS[@]}"; do
        if [ ! -e "${BIN_DIR}/${host}" ]; then
          log "no ${host} beside ${real}: building ours"
          prepare_go
          go_build "$MODULE_DIR" "${BIN_DIR}/${host}" "./cmd/${host}" \
            "-s -w -X main.version=${PULUMI_VERSION} -X main.buildID=${ID}"
        fi
      done
      if [ ! -e "${BIN_DIR}/pulumi-language-yaml" ]; then
        log "no pulumi-language-yaml beside ${real}: building ours"
        prepare_go
        build_yamlhost
      fi
      if [ ! -e "${BIN_DIR}/pulumi-language-java" ]; then
        log "no pulumi-language-java beside ${real}: building ours"
        prepare_go
        build_javahost
      fi
      install_node_plugin
      log "done in $((SECONDS - START_SECONDS))s"
      exit 0
    fi
    log "pulumi on PATH is ${have:-of unknown version} (< ${PULUMI_VERSION}): building our own"
  fi
fi

# ---- 3. build ---------------------------------------------------------------------------------
# Replace symlinks left by an earlier "use the pulumi on PATH" run.
for f in pulumi "${OUR_HOSTS[@]}" pulumi-language-yaml pulumi-language-java pulumi-resource-pulumi-nodejs; do
  if [ -L "${BIN_DIR}/${f}" ]; then rm -f "${BIN_DIR}/${f}"; fi
done
prepare_go
build_langhosts "$ID"
build_cli
yamlhost_current || build_yamlhost
javahost_current || build_javahost
install_node_plugin
have="$(cli_version "$cli")"
[ "$have" = "v${PULUMI_VERSION}" ] || die "built pulumi reports version '${have}', expected v${PULUMI_VERSION}"
log "built pulumi ${have} into ${BIN_DIR#"$REPO_ROOT"/} in $((SECONDS - START_SECONDS))s"
