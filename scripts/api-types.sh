#!/usr/bin/env bash
# Regenerates islands/src/api/schema.d.ts, the islands' API types, from the API's OpenAPI
# document (`api openapi`, the same document as GET /api/openapi.json) with openapi-typescript.
#
#   scripts/api-types.sh           rewrite the file
#   scripts/api-types.sh --check   fail if the committed file is not what the API describes (CI)
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

target=islands/src/api/schema.d.ts
generator=islands/node_modules/.bin/openapi-typescript
[ -x "$generator" ] || (cd islands && npm install --no-audit --no-fund >/dev/null)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# API_BIN: an API binary already built (scripts/test.sh passes the one `cargo test` built).
if [ -n "${API_BIN:-}" ]; then
  "$API_BIN" openapi >"$work/openapi.json"
else
  cargo run --quiet --locked -p api --bin api -- openapi >"$work/openapi.json"
fi
"$generator" "$work/openapi.json" --output "$work/schema.d.ts" >/dev/null 2>"$work/log" || {
  cat "$work/log" >&2
  exit 1
}

if $check; then
  if ! diff -u "$target" "$work/schema.d.ts" >"$work/diff"; then
    echo "error: $target is stale: the API's OpenAPI document changed." >&2
    echo "Run scripts/api-types.sh, fix what tsc then reports in islands/, and commit the file." >&2
    head -40 "$work/diff" >&2
    exit 1
  fi
  echo "$target matches the API's OpenAPI document"
else
  cp "$work/schema.d.ts" "$target"
  echo "wrote $target"
fi
