# shellcheck shell=bash
# Source this file (bash or zsh) to use the repo-local Pulumi CLI built by tools/install-pulumi.sh:
#
#   source tools/pulumi-env.sh
#   pulumi version            # v3.259.0
#
# It only touches paths inside this repo: the CLI and its plugins in .tools/pulumi/bin, Pulumi's
# home (plugin cache, credentials, workspace settings) in .tools/pulumi/home instead of ~/.pulumi,
# and stack state in .pulumi-state (a local file backend; no Pulumi Cloud login).
# test/support/pulumi.ts exports the same settings for Node (pulumiEnv()).

if [ -n "${BASH_SOURCE:-}" ]; then
  _pulumi_env_file="${BASH_SOURCE[0]}"
elif [ -n "${ZSH_VERSION:-}" ]; then
  # shellcheck disable=SC2296
  _pulumi_env_file="${(%):-%x}"
else
  _pulumi_env_file="$0"
fi
PULUMI_REPO_ROOT="$(cd "$(dirname "$_pulumi_env_file")/.." && pwd)"
unset _pulumi_env_file
export PULUMI_REPO_ROOT

# The CLI first on PATH. The Node.js language host and the dynamic-provider plugin
# (pulumi-resource-pulumi-nodejs) sit beside it, which is where Pulumi looks for them.
case ":${PATH}:" in
  *":${PULUMI_REPO_ROOT}/.tools/pulumi/bin:"*) ;;
  *) export PATH="${PULUMI_REPO_ROOT}/.tools/pulumi/bin:${PATH}" ;;
esac

export PULUMI_HOME="${PULUMI_REPO_ROOT}/.tools/pulumi/home"
export PULUMI_BACKEND_URL="file://${PULUMI_REPO_ROOT}/.pulumi-state"
export PULUMI_SKIP_UPDATE_CHECK=true
# Never skip the Automation API's CLI version check: the CLI we build is stamped with its release and must pass it.
unset PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK

# Dev stacks only: a well-known passphrase for the secrets of local, throwaway stacks in
# .pulumi-state. It is not a secret; set your own PULUMI_CONFIG_PASSPHRASE (or
# PULUMI_CONFIG_PASSPHRASE_FILE) before sourcing for anything that matters.
if [ -z "${PULUMI_CONFIG_PASSPHRASE:-}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  export PULUMI_CONFIG_PASSPHRASE="asset-delivery-dev"
fi

# The file backend needs its folder to exist.
mkdir -p "${PULUMI_REPO_ROOT}/.pulumi-state" "${PULUMI_HOME}"
