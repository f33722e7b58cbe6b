#!/usr/bin/env bash
# Publishing and first-run times (docs/budgets.md, "Publishing"), each on a fresh clone of this
# checkout's HEAD in a temporary folder:
#
#   1. Netlify's build command (scripts/netlify-build.sh) with an empty cache: the cold build,
#      which compiles the generator in release (budget: 6 minutes on 2 cores);
#   2. the same command after a content-only change, with the cache the first left
#      (budget: 60 s);
#   3. the same after a change to the generator's code (a warm compile: only the changed crates);
#   4. the README's main command, `cargo run -p devserver`, on a fresh clone with an empty target
#      folder, until the site answers on its port (budget: 5 minutes on 2 cores).
#
#   bash bench/publish.sh            all four
#   STEPS="1 2" bash bench/publish.sh
#
# Crates come from this machine's cargo registry, already downloaded: a machine that has never
# built Rust adds their download. Netlify's own steps (clone, plugin install, upload) are not
# in these figures: the budget is the build command's.
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS=${STEPS:-1 2 3 4}
work=$(mktemp -d)
devserver_pid=
cleanup() {
  [ -z "$devserver_pid" ] || kill "$devserver_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet . "$work/site"
cd "$work/site"
export CARGO_INCREMENTAL=0 SITE_CACHE_DIR=$work/cache
unset CARGO_TARGET_DIR SITE_BUILD_PROFILE

timed() { # label, command…: prints the wall time of the command
  local label=$1 started=$SECONDS
  shift
  "$@" >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }
  printf '%-58s %4d s\n' "$label" "$((SECONDS - started))"
}

for step in $STEPS; do
  case $step in
  1) timed "1. Netlify build, cold (no cache, release compile)" bash scripts/netlify-build.sh ;;
  2)
    printf '\nA sentence the coach added.\n' >>content/pages/about.md
    timed "2. Netlify build, content-only change (cached binary)" bash scripts/netlify-build.sh
    grep -q "no compile" "$work/last.log" || { echo "step 2 compiled" >&2; exit 1; }
    ;;
  3)
    printf '\n// A change to the generator'"'"'s code.\n' >>generator/src/lib.rs
    timed "3. Netlify build, generator code changed (warm compile)" bash scripts/netlify-build.sh
    ;;
  4)
    port=$((20000 + RANDOM % 20000))
    started=$SECONDS
    CARGO_TARGET_DIR=$work/target-devserver cargo run --locked -p devserver -- --port "$port" \
      >"$work/devserver.log" 2>&1 &
    devserver_pid=$!
    until curl -fso /dev/null "http://127.0.0.1:$port/"; do
      kill -0 "$devserver_pid" 2>/dev/null || { cat "$work/devserver.log" >&2; exit 1; }
      [ $((SECONDS - started)) -lt 1800 ] || { echo "devserver never answered" >&2; exit 1; }
      sleep 1
    done
    printf '%-58s %4d s\n' "4. cargo run -p devserver on a fresh clone, until / answers" "$((SECONDS - started))"
    kill "$devserver_pid"
    wait "$devserver_pid" 2>/dev/null || true
    devserver_pid=
    ;;
  esac
done
