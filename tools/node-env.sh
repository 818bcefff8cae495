# shellcheck shell=bash
# Source this file (bash or zsh) to run this repo on a supported Node.js: when
# tools/install-node.sh installed Node 24 into <repo>/.tools/node (because the Node on PATH was
# older than 22), that one goes first on PATH; otherwise PATH is left as it is. It also sets
# ASSET_DELIVERY_REPO_ROOT (the repo's folder), for tools/pulumi-env.sh and any script sourcing this.
if [ -n "${BASH_SOURCE:-}" ]; then
  _node_env_file="${BASH_SOURCE[0]}"
elif [ -n "${ZSH_VERSION:-}" ]; then
  # shellcheck disable=SC2296
  _node_env_file="${(%):-%x}"
else
  _node_env_file="$0"
fi
ASSET_DELIVERY_REPO_ROOT="$(cd "$(dirname "$_node_env_file")/.." && pwd)"
_node_env_bin="${ASSET_DELIVERY_REPO_ROOT}/.tools/node/bin"
if [ -x "${_node_env_bin}/node" ]; then
  case ":${PATH}:" in
    *":${_node_env_bin}:"*) ;;
    *) export PATH="${_node_env_bin}:${PATH}" ;;
  esac
fi
unset _node_env_file _node_env_bin
