#!/usr/bin/env bash
# The cost of a second language (issue 21, docs/budgets.md): a clean build of the N-page
# benchmark (bench/make_corpus.py) against the same N pages each with its Arabic translation
# (2N pages, `make_corpus.py --translate ar`), as paired runs: A, B, A, B… alternated so the
# shared machine's load falls on both alike; the old output is removed inside each timed run.
# Prints each pair's wall-clock and CPU (user + system) ratio B/A, their medians, and the peak
# memory of each build. Budget: B at most 2.2x A, at most 250 MB.
#
#   bash bench/i18n.sh                 # 10,000 pages, 7 pairs
#   PAGES=1000 PAIRS=5 bash bench/i18n.sh
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
PAGES=${PAGES:-10000}
PAIRS=${PAIRS:-7}
SHM=${SHM:-/dev/shm/site-i18n-bench}
mkdir -p "$SHM"
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)"; exit 1; }

cargo build --release -q -p generator --bin site
SITE=$REPO/target/release/site
for kind in en ar; do
  corpus=$SHM/$kind-$PAGES
  if [ ! -d "$corpus" ]; then
    extra=()
    [ "$kind" = ar ] && extra=(--translate ar)
    python3 bench/make_corpus.py --pages "$PAGES" "${extra[@]}" --out "$corpus" >/dev/null
  fi
  # The corpus carries a copy of the theme: keep it the one being measured.
  rm -rf "$corpus/themes" && cp -a "$REPO/themes" "$corpus/themes"
  # A warm-up: the image cache, the page cache.
  rm -rf "$SHM/out-$kind" && "$SITE" --root "$corpus" build --out "$SHM/out-$kind" >/dev/null 2>&1
done

python3 - "$SITE" "$SHM" "$PAGES" "$PAIRS" <<'PY'
import os, resource, shutil, statistics, subprocess, sys, time
site, shm, pages, pairs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def run(kind):
    out = f"{shm}/out-{kind}"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([site, "--root", f"{shm}/{kind}-{pages}", "build", "--out", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu

walls, cpus = [], []
for i in range(pairs):
    (wa, ca), (wb, cb) = run("en"), run("ar")
    walls.append(wb / wa)
    cpus.append(cb / ca)
    print(f"  pair {i + 1}: one language {wa:.2f} s ({ca:.2f} s CPU), two {wb:.2f} s ({cb:.2f} s CPU): "
          f"wall x{wb / wa:.2f}, CPU x{cb / ca:.2f}")
print(f"  median of {pairs} pairs: wall x{statistics.median(walls):.2f} "
      f"(min {min(walls):.2f}, max {max(walls):.2f}), CPU x{statistics.median(cpus):.2f}")
PY

peak_mb() { # command... → peak resident MB
  /usr/bin/time -v "$@" >/dev/null 2>"$SHM/time.txt"
  awk -F: '/Maximum resident/ {gsub(/ /,"",$2); printf "%d", $2/1024}' "$SHM/time.txt"
}
for kind in en ar; do
  rm -rf "$SHM/out-$kind"
  echo "  peak memory, $kind: $(peak_mb "$SITE" --root "$SHM/$kind-$PAGES" build --out "$SHM/out-$kind") MB"
done
