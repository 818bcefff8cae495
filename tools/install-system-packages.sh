#!/usr/bin/env bash
# Installs the Debian packages the tests need, only those missing: ffmpeg (the video renderer and
# the video tests' images), python3-venv (`python3 -m venv`, for the schemathesis fuzz run) and
# chromium (the dashboard's browser tests drive it with playwright-core, which downloads no browser).
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
if [ "${#missing[@]}" -eq 0 ]; then
  echo "ffmpeg, python3-venv and chromium already present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo -n"; fi
echo "installing: ${missing[*]}"
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
