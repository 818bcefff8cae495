# The lifecycle a release is checked with, sourced by tools/verify/plugin.sh and published.sh: in the
# current folder, a project whose stack `verify` declares one Source named after $1 with cacheTtlValue
# from the config `ttl` and exports its `id`: create, `preview --expect-no-changes`, one change in
# place (7200) that the server then holds, destroy. Exits with a message at the first step that does not do that.
# Needs curl, PULUMI_HOME, PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, ASSET_DELIVERY_BASE_URL/API_KEY.

# A path as the native pulumi executable reads it (Git Bash's /c/... is C:/... on Windows).
native() { if command -v cygpath >/dev/null 2>&1; then cygpath -m "$1"; else printf '%s\n' "$1"; fi; }

verify_log() { printf '[verify] %s\n' "$*" >&2; }
verify_die() { verify_log "ERROR: $*"; exit 1; }

# run_lifecycle LABEL VERSION: the steps above; `pulumi plugin ls` must list assetdelivery VERSION after the create.
run_lifecycle() {
  local label="$1" version="$2" start=${SECONDS} out
  out="$(mktemp)"
  p() { pulumi "$@" --stack verify --non-interactive --color never; }
  pulumi stack init verify --non-interactive
  p config set ttl 86400
  verify_log "${label}: create"
  p up --yes
  pulumi plugin ls --non-interactive | grep -E "^assetdelivery +resource +${version//./\\.} " >/dev/null ||
    verify_die "pulumi plugin ls does not list assetdelivery ${version}"
  verify_log "${label}: no change"
  p preview --expect-no-changes
  verify_log "${label}: one change, in place"
  p config set ttl 7200
  p up --yes | tee "$out"
  grep -E '~ 1 updated' "$out" >/dev/null || verify_die "the change was not one update in place"
  # The server holds the change (the Management API, asked directly).
  curl -fsS -H "Authorization: Bearer ${ASSET_DELIVERY_API_KEY}" "${ASSET_DELIVERY_BASE_URL%/}/api/v1/sources/$(p stack output id)" |
    grep -E '"cache_ttl_value": ?7200[,}]' >/dev/null || verify_die "the server does not say cache_ttl_value 7200 after the update"
  verify_log "${label}: destroy"
  p destroy --yes
  p stack rm --yes >/dev/null
  rm -f "$out"
  verify_log "${label}: the plugin ${version} passed its lifecycle in $((SECONDS - start))s"
}
