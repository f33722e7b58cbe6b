#!/usr/bin/env bash
# Lighthouse (mobile, its default simulated throttling) on the product's pages, against a
# running `devserver` (the whole product), with Debian's Chromium (budgets.md: performance 100 on content pages,
# >= 95 on island pages; accessibility and best practices 100; JS before any interaction on
# /pricing <= 15 KB gzip). Prints one table row per page, then the JS /pricing loaded before any
# interaction (the script requests Lighthouse saw, gzip -9 sizes).
#
#   bash bench/lighthouse.sh                              # starts target/release/devserver itself
#   SITE=http://127.0.0.1:8000 bash bench/lighthouse.sh   # a `devserver` you run (demo accounts)
#   RUNS=3 PAGES="/ /pricing" bash bench/lighthouse.sh    # median of 3 runs, some pages only
#   LANG_PREFIX=/ar bash bench/lighthouse.sh               # the same pages in Arabic (/ar/…)
#   LH_BLOCK="*/islands/*" bash bench/lighthouse.sh        # blocked URL patterns: a page without them
#
# Pages behind sign-in (/dashboard, /book-session, /admin) are measured signed in as the demo
# client and admin that `devserver` creates on a new database. JSON reports are kept in
# $OUT (default bench/lighthouse/reports). Everything the script starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-1}
OUT=${OUT:-bench/lighthouse/reports}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
CONTENT_PAGES=(/ /about /work-with-me /resources /videos /events /testimonials /contact /faq
  /terms /privacy-policy /return-policy /delivery-policy /cancellation-policy /payment/failed
  /services/coaching-session /blog/executive-presence-is-not-charisma /resources/delegation-decision-matrix)
ISLAND_PAGES=(/pricing /group-team-coaching-pricing /auth /payment/success /dashboard /book-session /admin)
read -r -a PAGES <<<"${PAGES:-${CONTENT_PAGES[*]} ${ISLAND_PAGES[*]}}"
# Another language's pages: the same routes under its prefix (/ar/ for the home page). The
# demo content gives no entry its own slug in Arabic, so the entries' addresses hold too.
if [ -n "${LANG_PREFIX:-}" ]; then
  for i in "${!PAGES[@]}"; do
    case "${PAGES[$i]}" in
      "$LANG_PREFIX"/*) ;;
      /) PAGES[$i]="$LANG_PREFIX/" ;;
      *) PAGES[$i]="$LANG_PREFIX${PAGES[$i]}" ;;
    esac
  done
fi

for tool in curl jq gzip; do
  command -v "$tool" >/dev/null || { echo "bench/lighthouse.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done
[ -x "$CHROME_PATH" ] || { echo "no Chromium at $CHROME_PATH (apt-get install chromium)" >&2; exit 1; }
if [ ! -x bench/lighthouse/node_modules/.bin/lighthouse ]; then
  echo "installing lighthouse (bench/lighthouse/package.json)" >&2
  (cd bench/lighthouse && npm install --no-audit --no-fund >/dev/null)
fi

TMP=$(mktemp -d)
SERVE_PID=
cleanup() {
  if [ -n "$SERVE_PID" ]; then
    kill "$SERVE_PID" 2>/dev/null || true
    wait "$SERVE_PID" 2>/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT

if [ -z "${SITE:-}" ]; then
  BIN=${SERVER_BIN:-target/release/devserver}
  [ -x "$BIN" ] || BIN=target/debug/devserver
  [ -x "$BIN" ] || { echo "build the product first: cargo build --release -p devserver" >&2; exit 1; }
  PORT=${PORT:-18090}
  SITE="http://127.0.0.1:$PORT"
  DATABASE_URL="sqlite://$TMP/app.db" MAILBOX_DIR="$TMP/mailbox" RUST_LOG=warn \
    "$BIN" --port "$PORT" >"$TMP/serve.log" 2>&1 &
  SERVE_PID=$!
  for _ in $(seq 1 600); do
    curl -fsS "$SITE/api/health" >/dev/null 2>&1 && break
    kill -0 "$SERVE_PID" 2>/dev/null || { cat "$TMP/serve.log" >&2; exit 1; }
    sleep 0.5
  done
  curl -fsS "$SITE/api/health" >/dev/null || { echo "devserver did not start" >&2; cat "$TMP/serve.log" >&2; exit 1; }
fi

# The cookies (session and the header's hint) of a demo account.
cookies_of() {
  curl -fsS -o /dev/null -D - -H "Origin: $SITE" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1\",\"password\":\"$2\"}" "$SITE/api/auth/sign-in" |
    sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p' | paste -sd ';' | sed 's/;/; /g'
}
CLIENT_COOKIE=$(cookies_of client@coach.example.com demo-client-2026)
ADMIN_COOKIE=$(cookies_of admin@coach.example.com demo-admin-2026)

mkdir -p "$OUT"
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-42s %5s %5s %5s %5s %8s %7s %6s\n' page perf a11y bp seo "LCP ms" "TBT ms" CLS
for path in "${PAGES[@]}"; do
  case "${path#"${LANG_PREFIX:-}"}" in
    /dashboard | /book-session) cookies=$CLIENT_COOKIE ;;
    /admin*) cookies=$ADMIN_COOKIE ;;
    *) cookies= ;;
  esac
  name=$(echo "${path#/}" | tr '/' '_')
  name=${name:-home}
  : >"$TMP/rows"
  for run in $(seq 1 "$RUNS"); do
    report="$OUT/$name-$run.json"
    # run.mjs puts the cookies in the browser itself: a Cookie header alone (--extra-headers)
    # leaves the page's script signed out, and the portal pages then measure their redirect.
    node bench/lighthouse/run.mjs "$SITE$path" "$report" "$cookies" \
      >/dev/null 2>"$TMP/lh.log" || { echo "lighthouse failed on $path:" >&2; tail -5 "$TMP/lh.log" >&2; continue; }
    # A run where Lighthouse could not score the page (it changed or vanished mid-run) says so
    # and is left out of the medians rather than stopping the table.
    if jq -e '[.categories[].score] | any(. == null)' "$report" >/dev/null; then
      echo "lighthouse could not score $path (run $run): $(jq -r '.runtimeError.message // "a category has no score"' "$report")" >&2
      continue
    fi
    jq -r '[(.categories.performance.score*100), (.categories.accessibility.score*100),
            (.categories["best-practices"].score*100), (.categories.seo.score*100),
            .audits["largest-contentful-paint"].numericValue, .audits["total-blocking-time"].numericValue,
            .audits["cumulative-layout-shift"].numericValue] | @tsv' "$report" >>"$TMP/rows"
  done
  [ -s "$TMP/rows" ] || continue
  cols=()
  for c in 1 2 3 4 5 6 7; do cols+=("$(cut -f$c "$TMP/rows" | median)"); done
  printf '%-42s %5.0f %5.0f %5.0f %5.0f %8.0f %7.0f %6.3f\n' "$path" "${cols[@]}"
done

# JS /pricing fetched before any interaction, as Lighthouse saw the page load.
prefix=${LANG_PREFIX:-}
prefix=${prefix#/}
pricing=$(ls "$OUT/${prefix:+${prefix}_}pricing-1.json" 2>/dev/null || true)
if [ -n "$pricing" ]; then
  total=0
  echo
  echo "JS on /pricing before any interaction (gzip -9):"
  for url in $(jq -r '.audits["network-requests"].details.items[] | select(.resourceType == "Script") | .url' "$pricing"); do
    size=$(curl -fsS "$url" | gzip -9 | wc -c)
    total=$((total + size))
    printf '  %6.1f KB  %s\n' "$(echo "$size / 1024" | bc -l)" "${url#"$SITE"}"
  done
  printf '  %6.1f KB  total (budget 15 KB)\n' "$(echo "$total / 1024" | bc -l)"
fi
