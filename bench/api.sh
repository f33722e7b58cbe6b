#!/usr/bin/env bash
# API benchmark (budgets.md, "API dashboard read"): requests/s and p99 latency of the client
# dashboard read (GET /api/dashboard with a session cookie, on the API's own port) against a
# trivial axum 0.8 handler (api/examples/trivial_handler.rs) on the same machine, A and B
# alternated in one run, then the ratio of the medians.
#
#   bash bench/api.sh                       # SQLite: 3 rounds of 10 s each, 64 connections, 2 threads
#   DATABASE=postgres bash bench/api.sh     # the same on PostgreSQL (PG_URL, default 127.0.0.1:5432)
#   ROUNDS=5 DURATION=10 CONNS=64 bash bench/api.sh
#   API_BIN=/tmp/api-before TRIVIAL_BIN=target/release/examples/trivial_handler bash bench/api.sh
#
# DATABASE=postgres creates its own database (api_bench_<pid>) on the server PG_URL names
# (default postgres://postgres@127.0.0.1:5432, trust auth) and drops it on exit; after the
# rounds it also says how many database transactions (a statement outside a transaction counts
# one) and row writes the server made per dashboard request, from its statistics.
#
# The demo client has payments and sessions: it signs up, and an admin (made with
# `api admin create`) records offline payments and phone bookings for it, past and upcoming.
# Everything the script starts is stopped on exit; every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-3}
CONNS=${CONNS:-64}
DATABASE=${DATABASE:-sqlite}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
THREADS=${THREADS:-2}
TRIVIAL_PORT=${TRIVIAL_PORT:-18081}
API_PORT=${API_PORT:-18082}

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian's package)" >&2
  apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
fi
case "$DATABASE" in
  sqlite) tools="curl jq" ;;
  postgres) tools="curl jq psql" ;;
  *) echo "DATABASE must be sqlite or postgres" >&2; exit 1 ;;
esac
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "bench/api.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done

# API_BIN / TRIVIAL_BIN: compare with binaries built elsewhere (e.g. before a change).
if [ -z "${API_BIN:-}" ] || [ -z "${TRIVIAL_BIN:-}" ]; then
  cargo build --release -q -p api --bin api --example trivial_handler
fi
API=${API_BIN:-$PWD/target/release/api}
TRIVIAL=${TRIVIAL_BIN:-$PWD/target/release/examples/trivial_handler}

for port in "$TRIVIAL_PORT" "$API_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is in use; set TRIVIAL_PORT / API_PORT" >&2
    exit 1
  fi
done

TMP=$(mktemp -d /tmp/api-bench.XXXXXX)
PIDS=()
PG_DB=""
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ -n "$PG_DB" ]; then
    psql -q "$PG_URL/postgres" -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

BASE=http://127.0.0.1:$API_PORT
if [ "$DATABASE" = postgres ]; then
  PG_DB=api_bench_$$
  psql -q -v ON_ERROR_STOP=1 "$PG_URL/postgres" -c "CREATE DATABASE $PG_DB" >/dev/null
  export DATABASE_URL="$PG_URL/$PG_DB"
else
  export DATABASE_URL="sqlite://$TMP/app.db"
fi
export HOST=127.0.0.1 PORT=$API_PORT PUBLIC_BASE_URL=$BASE COOKIE_SECURE=false
export APP_SECRET=bench-secret-bench-secret-bench-secret-0123
export CONTENT_DIR=$PWD/content MAILBOX_DIR=$TMP/mailbox APP_ENV=development
unset SMTP_HOST PAYTABS_STANDIN CALENDLY_STANDIN RUST_LOG

wait_up() { # url
  for _ in $(seq 100); do
    curl -fsS -o /dev/null --max-time 1 "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nothing answers at $1" >&2
  exit 1
}

"$TRIVIAL" "$TRIVIAL_PORT" >"$TMP/trivial.log" 2>&1 &
PIDS+=($!)
printf 'bench-admin-password-123\n' | "$API" admin create --email admin@bench.test --name "Bench Admin" >/dev/null
"$API" serve >"$TMP/api.log" 2>&1 &
PIDS+=($!)
wait_up "http://127.0.0.1:$TRIVIAL_PORT/"
wait_up "$BASE/api/health"

post() { # cookie-jar path json
  curl -fsS --max-time 10 -b "$1" -c "$1" -H "Origin: $BASE" -H 'Content-Type: application/json' \
    -X POST "$BASE$2" -d "$3"
}

# The demo client signs up; the admin records its payments and books its sessions.
client_id=$(post "$TMP/client.jar" /api/auth/sign-up \
  '{"full_name":"Bench Client","email":"client@bench.test","password":"bench-client-password-123","phone":"+20 100 000 0000"}' \
  | jq -r '.user.id')
post "$TMP/admin.jar" /api/auth/sign-in '{"email":"admin@bench.test","password":"bench-admin-password-123"}' >/dev/null
# Six payments about a month apart, the last 25 days ago and the first 150 days ago: dated
# relative to today, so all their credits (valid six months from the payment date, said here
# rather than left to content/settings.yaml) still count whenever the benchmark runs.
for i in 1 2 3 4 5 6; do
  paid=$(date -u -d "-$(((7 - i) * 25)) days" +%F)
  post "$TMP/admin.jar" /api/admin/payments "$(jq -nc --arg c "$client_id" --argjson i "$i" --arg d "$paid" \
    '{clientId:$c, amount:(1500*$i), sessionsPurchased:4, paymentDate:$d, validityMonths:6,
      paymentMethod:"bank_transfer", referenceNumber:"BT-\($i)", notes:"bench"}')" >/dev/null
done
for day in 1 2 3 4 5 6 7 8; do
  if ((day <= 3)); then date=$(date -u -d "-$day days" +%F); status=completed
  else date=$(date -u -d "+$day days" +%F); status=confirmed; fi
  post "$TMP/admin.jar" /api/admin/bookings "$(jq -nc --arg c "$client_id" --arg d "$date" --arg s "$status" \
    '{clientId:$c, sessionDate:$d, sessionTime:"10:00", status:$s,
      googleMeetLink:"https://meet.google.com/abc-defg-hij", sessionNotes:"Quarterly review"}')" >/dev/null
done
post "$TMP/client.jar" /api/auth/sign-in '{"email":"client@bench.test","password":"bench-client-password-123"}' >/dev/null
cookie=$(awk '$6 == "session" {print $7}' "$TMP/client.jar" | tail -1)
[ -n "$cookie" ] || { echo "no session cookie after sign-in" >&2; exit 1; }
dashboard=$(curl -fsS --max-time 5 -H "Cookie: session=$cookie" "$BASE/api/dashboard")
echo "demo client: $(jq -r '"\(.payments | length) payments, \(.upcomingSessions | length) upcoming sessions, \(.account.availableCredits) credits available, \(.account.sessionsCompleted) completed"' <<<"$dashboard"), $(wc -c <<<"$dashboard") bytes"

# PostgreSQL: the server's committed transactions and row writes in the bench database.
pg_counts() {
  psql -Atq "$DATABASE_URL" -c "SELECT d.xact_commit, COALESCE(SUM(t.n_tup_ins + t.n_tup_upd + t.n_tup_del), 0)
    FROM pg_stat_database d, pg_stat_user_tables t WHERE d.datname = current_database() GROUP BY d.xact_commit"
}
# wrk prints "Requests/sec: N" and, with --latency, "99%  1.23ms" (us, ms or s).
run() { # url [header]
  local args=(-t"$THREADS" -c"$CONNS" -d"${DURATION}s" --latency --timeout 5s)
  [ -n "${2:-}" ] && args+=(-H "$2")
  timeout $((DURATION + 20)) wrk "${args[@]}" "$1" >"$TMP/wrk.txt"
  local non2xx; non2xx=$(awk '/Non-2xx/ {print $NF}' "$TMP/wrk.txt")
  if [ -n "$non2xx" ]; then echo "$1 answered $non2xx non-2xx responses" >&2; cat "$TMP/wrk.txt" >&2; exit 1; fi
  awk '/Requests\/sec/ {rps=$2}
       $1 == "99%" {v=$2; u=v; gsub(/[0-9.]/, "", u); sub(/[a-z]+$/, "", v);
                    ms = (u == "us") ? v / 1000 : (u == "s") ? v * 1000 : v}
       END {printf "%.0f %.2f\n", rps, ms}' "$TMP/wrk.txt"
}

TRIVIAL_URL="http://127.0.0.1:$TRIVIAL_PORT/"
DASH_URL="$BASE/api/dashboard"
DASH_HEADER="Cookie: session=$cookie"
DURATION_SAVED=$DURATION DURATION=$WARMUP
run "$TRIVIAL_URL" >/dev/null
run "$DASH_URL" "$DASH_HEADER" >/dev/null
DURATION=$DURATION_SAVED

echo "$DATABASE: wrk -t$THREADS -c$CONNS -d${DURATION}s, $ROUNDS rounds, A/B alternated"
printf '%-6s %22s %22s %8s\n' round "trivial req/s (p99)" "dashboard req/s (p99)" ratio
pct() { awk -v b="$1" -v a="$2" 'BEGIN {print 100 * b / a}'; }
t_rps=() t_p99=() d_rps=() d_p99=()
for r in $(seq "$ROUNDS"); do
  read -r a ap < <(run "$TRIVIAL_URL")
  read -r b bp < <(run "$DASH_URL" "$DASH_HEADER")
  t_rps+=("$a") t_p99+=("$ap") d_rps+=("$b") d_p99+=("$bp")
  printf '%-6s %12s (%6s ms) %12s (%6s ms) %7.1f%%\n' "$r" "$a" "$ap" "$b" "$bp" "$(pct "$b" "$a")"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
tm=$(median "${t_rps[@]}") dm=$(median "${d_rps[@]}")
tp=$(median "${t_p99[@]}") dp=$(median "${d_p99[@]}")
printf '%-6s %12s (%6s ms) %12s (%6s ms) %7.1f%%\n' median "$tm" "$tp" "$dm" "$dp" "$(pct "$dm" "$tm")"
if [ "$DATABASE" = postgres ]; then
  # What one dashboard request costs the server: a separate run between two readings of its
  # counters (a busy backend reports them at most once a second and an idle one within 10 s,
  # so each reading waits 11 s).
  sleep 11; before=$(pg_counts)
  DURATION=5 run "$DASH_URL" "$DASH_HEADER" >/dev/null
  requests=$(awk '/requests in/ {print $1}' "$TMP/wrk.txt")
  sleep 11; after=$(pg_counts)
  awk -v b="$before" -v a="$after" -v n="$requests" 'BEGIN {split(b, x, "|"); split(a, y, "|");
    printf "per dashboard request: %.2f database transactions, %.3f row writes (%d requests)\n",
           (y[1] - x[1]) / n, (y[2] - x[2]) / n, n}'
  echo "budget (PostgreSQL): dashboard >= 15% of the trivial handler, p99 < 25 ms"
else
  echo "budget (SQLite): dashboard >= 30% of the trivial handler, p99 < 10 ms"
fi
