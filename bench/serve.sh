#!/usr/bin/env bash
# The local server before and after (issue 12, point 1): the server's idle CPU over IDLE seconds at
# each page count, edit -> served at 1,000 pages, and requests/s of a static page and of
# /api/auth/session through each server. A ("before") and B ("after") run side by side for
# idle CPU (same noise) and alternate for throughput; report the ratio of the medians.
#
#   BEFORE=/tmp/site-before AFTER=target/debug/devserver bash bench/serve.sh
#   PAGES="1000 10000" IDLE=60 ROUNDS=3 DURATION=10 CONNS=32 bash bench/serve.sh
#
# BEFORE is a server built from main (e.g. `git worktree add /tmp/main main && cargo build
# -p devserver` there, or a copy of main's target/debug/devserver; a `site` binary from before
# the dev server left the generator is started as `site serve`); AFTER defaults to this
# checkout's debug build. Compare builds of the same profile. The corpora come from the shared
# `bench/corpus/pair_corpus.py` (SHARED to use another copy) and are written to /dev/shm.
# Everything the script starts is stopped on exit; every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."

BEFORE=${BEFORE:?set BEFORE to a devserver (or older site) binary built from main}
AFTER=$(realpath "${AFTER:-target/debug/devserver}")
BEFORE=$(realpath "$BEFORE")
SHARED=${SHARED:-bench/corpus}
PAGES=${PAGES:-1000 10000}
IDLE=${IDLE:-60}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CONNS=${CONNS:-32}
EDITS=${EDITS:-5}
PORT_A=${PORT_A:-19310}
PORT_B=${PORT_B:-19320}

command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null

PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# start BIN ROOT PORT LOG: starts the server (the API in process), waits for the API;
# the process id is left in STARTED. An older `site` binary takes the `serve` subcommand.
start() {
  local bin=$1 root=$2 port=$3 log=$4
  local args=(--port "$port")
  [ "$(basename "$bin")" = site ] && args=(serve "${args[@]}")
  (cd "$root" && exec "$bin" "${args[@]}") >"$log" 2>&1 &
  local pid=$!
  PIDS+=("$pid")
  STARTED=$pid
  for _ in $(seq 1 600); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/api/health" && return
    kill -0 "$pid" 2>/dev/null || { echo "the server exited; see $log" >&2; exit 1; }
    sleep 0.5
  done
  echo "the server did not answer within 300 s; see $log" >&2
  exit 1
}

stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Each server gets a copy of the corpus: its own database, output folder and edits.
corpus() {
  local n=$1 dir=/dev/shm/serve-bench-$1
  if [ ! -d "$dir/site" ]; then
    python3 "$SHARED/pair_corpus.py" --pages "$n" --out "$dir" --repo . >/dev/null
  fi
  for side in a b; do
    rm -rf "$dir/$side" && cp -a "$dir/site" "$dir/$side"
  done
  echo "$dir"
}

rps() { wrk -t2 -c"$CONNS" -d"${DURATION}s" "$1" | awk '/Requests\/sec/ { print $2 }'; }

for n in $PAGES; do
  dir=$(corpus "$n")
  post=$(ls "$dir/site/content/blog" | awk 'NR == 1')
  post=${post%.md}
  echo "== $n pages (post: $post)"

  # Idle CPU: both servers at once, after start-up has settled.
  start "$BEFORE" "$dir/a" "$PORT_A" /tmp/serve-bench-a.log; a=$STARTED
  start "$AFTER" "$dir/b" "$PORT_B" /tmp/serve-bench-b.log; b=$STARTED
  sleep 5
  a0=$(cpu_ticks "$a"); b0=$(cpu_ticks "$b")
  sleep "$IDLE"
  a1=$(cpu_ticks "$a"); b1=$(cpu_ticks "$b")
  hz=$(getconf CLK_TCK)
  echo "idle CPU over ${IDLE}s, % of one core: before $(echo "scale=2; 100 * ($a1 - $a0) / $hz / $IDLE" | bc)  after $(echo "scale=2; 100 * ($b1 - $b0) / $hz / $IDLE" | bc)"

  if [ "$n" = 1000 ]; then
    # Throughput, alternating A and B, one warm-up each.
    for target in "/blog/$post" "/api/auth/session"; do
      rps "http://127.0.0.1:$PORT_A$target" >/dev/null
      rps "http://127.0.0.1:$PORT_B$target" >/dev/null
      ra=(); rb=()
      for _ in $(seq 1 "$ROUNDS"); do
        ra+=("$(rps "http://127.0.0.1:$PORT_A$target")")
        rb+=("$(rps "http://127.0.0.1:$PORT_B$target")")
      done
      ma=$(printf '%s\n' "${ra[@]}" | median); mb=$(printf '%s\n' "${rb[@]}" | median)
      echo "requests/s $target ($CONNS connections): before ${ra[*]} (median $ma)  after ${rb[*]} (median $mb)  after/before $(echo "scale=2; $mb / $ma" | bc)"
    done
  fi
  stop "$a"; stop "$b"

  if [ "$n" = 1000 ]; then
    for side in a b; do
      bin=$BEFORE; port=$PORT_A
      [ "$side" = b ] && { bin=$AFTER; port=$PORT_B; }
      echo "-- edit -> served, $side ($bin)"
      python3 "$SHARED/edit_to_served.py" --cmd "$bin serve --port $port" --cwd "$dir/$side" \
        --root "$dir/$side" --file "content/blog/$post.md" --url "http://127.0.0.1:$port/blog/$post" \
        --edits "$EDITS" --log "/tmp/serve-bench-edit-$side.log" | grep -E "median|idle|startup"
    done
  fi
done
