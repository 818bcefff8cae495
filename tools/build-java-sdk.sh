#!/usr/bin/env bash
# Builds the generated Java SDK (sdks/java) with Maven and writes it in a Maven repository's layout,
# as Maven Central serves it and a program's <repository> reads it:
#
#   bash tools/build-java-sdk.sh OUT      # OUT/io/github/asset-delivery/assetdelivery/<version>/...
#
# Each of the jar, sources jar, javadoc jar and .pom with its .md5, .sha1, .sha256 and .sha512, and
# the artifact's maven-metadata.xml (with its checksums). tools/build-release.sh writes the release's
# DIR/maven with it; the release workflow signs each file (.asc) and uploads the folder to Maven
# Central; the Java tests install the SDK from it, as released.
#
# Maven's repository is .tools/maven/repository (CI keeps it as it keeps Go's module cache). The
# first build downloads the SDK's dependencies and Maven's plugins from Maven Central (~1 min), and
# the plugin that runs the Java programs with them; after that Maven runs offline (-o): ~20 s on 2 cores.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MAVEN_REPO="${REPO_ROOT}/.tools/maven/repository"
# The plugin through which Pulumi's Java host runs a Maven program (`mvn compile exec:java`; pinned in
# examples/java/pom.xml): downloaded here with the rest, so that the Java programs' Maven runs offline too.
EXEC_PLUGIN="org.codehaus.mojo:exec-maven-plugin:3.6.4"
log() { printf '[build-java-sdk] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

[ $# -eq 1 ] || die "usage: bash tools/build-java-sdk.sh OUT"
command -v mvn >/dev/null 2>&1 || die "Maven (mvn) and a JDK (17) are needed: bash tools/install-system-packages.sh"
[ -f "${REPO_ROOT}/sdks/java/pom.xml" ] || die "no sdks/java/pom.xml: run bash tools/generate-sdks.sh java"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
start=${SECONDS}

# Offline once this pom's plugins and dependencies are in the repository: the stamp names a hash of it.
stamp="${MAVEN_REPO}/.asset-delivery-$(cat "${REPO_ROOT}/sdks/java/pom.xml" <(echo "$EXEC_PLUGIN") | sha256sum | cut -c1-12)"
offline=()
[ -f "$stamp" ] && offline=(-o)
mvn_() { mvn -B -q "${offline[@]}" -Dmaven.repo.local="$MAVEN_REPO" "$@"; }

# A copy: Maven writes target/ beside the sources it builds.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "${REPO_ROOT}/sdks/java" "${work}/java"
rm -rf "${work}/java/target"
(cd "${work}/java" && mvn_ package) >"${work}/mvn.log" 2>&1 || die "mvn package failed:$(printf '\n')$(cat "${work}/mvn.log")"
if [ ${#offline[@]} -eq 0 ]; then
  (cd "${work}/java" && mvn_ "${EXEC_PLUGIN}:help") >"${work}/mvn.log" 2>&1 || die "fetching ${EXEC_PLUGIN} failed:$(printf '\n')$(cat "${work}/mvn.log")"
  touch "$stamp"
fi

# The coordinates, as the pom states them (tools/java-sdk-pom.mjs).
pom="${work}/java/pom.xml"
field() { sed -n "0,/<$1>/s#^  <$1>\(.*\)</$1>\$#\1#p" "$pom"; }
group="$(field groupId)" artifact="$(field artifactId)" version="$(field version)"
[ -n "$group" ] && [ -n "$artifact" ] && [ -n "$version" ] || die "no groupId, artifactId or version in sdks/java/pom.xml"

checksums() { # FILE: FILE.md5, .sha1, .sha256, .sha512, each the bare hex digest as Maven writes it
  local algo
  for algo in md5 sha1 sha256 sha512; do "${algo}sum" "$1" | cut -d' ' -f1 | tr -d '\n' >"$1.${algo}"; done
}

base="${OUT}/${group//.//}/${artifact}"
dest="${base}/${version}"
rm -rf "$dest"
mkdir -p "$dest"
cp "$pom" "${dest}/${artifact}-${version}.pom"
for classifier in "" -sources -javadoc; do
  cp "${work}/java/target/${artifact}-${version}${classifier}.jar" "${dest}/"
done
for file in "${dest}"/*; do checksums "$file"; done
# The artifact's versions, as a repository lists them (one: this release).
cat >"${base}/maven-metadata.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>${group}</groupId>
  <artifactId>${artifact}</artifactId>
  <versioning>
    <latest>${version}</latest>
    <release>${version}</release>
    <versions>
      <version>${version}</version>
    </versions>
  </versioning>
</metadata>
XML
checksums "${base}/maven-metadata.xml"
log "built ${group}:${artifact}:${version} into ${OUT} in $((SECONDS - start))s"
