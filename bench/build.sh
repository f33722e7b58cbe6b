#!/usr/bin/env bash
# Build-time benchmark: clean builds of content/ and of generated 1,000- and 10,000-page
# corpora, output on an in-memory disk (/dev/shm) as in budgets.md; median of 5 after a
# warm-up, plus peak memory from /usr/bin/time -v.
#
#   bash bench/build.sh            # all
#   PAGES="1000" bash bench/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p generator # what Netlify builds
SITE=$PWD/target/release/site
SHM=${SHM:-/dev/shm/site-bench}
RUNS=${RUNS:-5}
mkdir -p "$SHM"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

bench() { # name root
  local name=$1 root=$2 out=$SHM/out-$1 times=() peak=0
  rm -rf "$out"; "$SITE" --root "$root" build --out "$out" >/dev/null # warm-up
  for _ in $(seq "$RUNS"); do
    rm -rf "$out"
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -v "$SITE" --root "$root" build --out "$out" >/dev/null 2>"$SHM/time.txt"
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
    local kb; kb=$(awk -F: '/Maximum resident/ {gsub(/ /,"",$2); print $2}' "$SHM/time.txt")
    (( kb > peak )) && peak=$kb
  done
  local cpu; cpu=$(awk -F: '/Percent of CPU/ {gsub(/[ %]/,"",$2); print $2}' "$SHM/time.txt")
  printf '%-14s median %6.3f s over %d runs, peak %4d MB, CPU %s%% (last run)\n' \
    "$name" "$(printf '%s\n' "${times[@]}" | median)" "$RUNS" $((peak / 1024)) "$cpu"
}

command -v bc >/dev/null || { echo "bench needs bc (apt-get install bc)"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench needs GNU time (apt-get install time)"; exit 1; }

bench content "$PWD"
for n in ${PAGES:-1000 10000}; do
  python3 bench/make_corpus.py --pages "$n" --out "$SHM/corpus-$n" >/dev/null
  bench "corpus-$n" "$SHM/corpus-$n"
done
