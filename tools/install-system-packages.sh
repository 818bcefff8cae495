#!/usr/bin/env bash
# Installs the Debian packages the tests need, only those missing: ffmpeg (the video renderer and
# the video tests' images), python3-venv (`python3 -m venv`, for the schemathesis fuzz run),
# chromium (the dashboard's browser tests drive it with playwright-core, which downloads no browser),
# and qemu-user-static with the arm64 C libraries (libc6:arm64, libstdc++6:arm64 from Debian's arm64
# architecture, added with `dpkg --add-architecture arm64`), which run the linux-arm64 plugin binary
# on an x86-64 machine (test/release/arm64-plugin.test.ts), postgresql, whose server the
# shared-backend tests start a private cluster of (test/support/postgres.ts; Debian keeps initdb
# in /usr/lib/postgresql/<version>/bin, off PATH), and shellcheck, which actionlint runs on the
# workflows' `run:` scripts (test/support/actionlint.ts), and a JDK (17) and Maven, which build the
# Java SDK (sdks/java) and the Java programs Pulumi's Java host runs.
# Used by the quick start and by .ci/run; root, or sudo without a password, when one is missing.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

missing=()
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
# `python3 -m venv` needs ensurepip, which Debian ships in python3-venv.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  missing+=(python3-venv)
fi
# test/support/browser.ts runs /usr/bin/chromium.
[ -x /usr/bin/chromium ] || missing+=(chromium)
# test/support/postgres.ts runs initdb, pg_ctl and psql from there, as the postgres user the package creates.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
# The arm64 plugin under emulation: the emulator, and the dynamic loader and C/C++ libraries the
# official linux-arm64 Node binary links against (only on an x86-64 host: an arm64 one runs it as it is).
arm64=""
if [ "$(uname -m)" = x86_64 ]; then
  command -v qemu-aarch64-static >/dev/null 2>&1 || missing+=(qemu-user-static)
  for lib in libc6:arm64 libstdc++6:arm64; do
    dpkg-query -W -f='${Status}' "$lib" 2>/dev/null | grep -q "install ok installed" || { missing+=("$lib"); arm64=yes; }
  done
fi
if [ "${#missing[@]}" -eq 0 ]; then
  echo "system packages already present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo -n"; fi
if [ -n "$arm64" ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then $SUDO dpkg --add-architecture arm64; fi
echo "installing: ${missing[*]}"
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
