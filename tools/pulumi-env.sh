# shellcheck shell=bash
# Source this file (bash or zsh) to use the repo-local Pulumi CLI built by tools/install-pulumi.sh:
#
#   source tools/pulumi-env.sh
#   pulumi version            # v3.274.1
#
# It sources tools/node-env.sh first, then only touches paths inside this repo: the CLI and its
# plugins in .tools/pulumi/bin, Pulumi's home (plugin cache, credentials, workspace settings) in
# .tools/pulumi/home instead of ~/.pulumi, and stack state in .pulumi-state (a local file backend;
# no Pulumi Cloud login).
# test/support/pulumi.ts exports the same settings for Node (pulumiEnv()).

# node-env.sh beside this file finds the repo's folder (the bash and zsh ways of knowing a sourced
# file's own path are kept there) and puts the repo's Node first on PATH when it installed one,
# which the Node.js language host runs on. Only finding node-env.sh itself is done here.
# shellcheck disable=SC2296 source=tools/node-env.sh
source "$(dirname "${BASH_SOURCE[0]:-${(%):-%x}}")/node-env.sh"
PULUMI_REPO_ROOT="$ASSET_DELIVERY_REPO_ROOT"
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
