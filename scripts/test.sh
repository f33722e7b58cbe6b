#!/usr/bin/env bash
# Every test of the project, as the README's Quick start runs it and CI calls it.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Each section's heading, with the seconds the one before it took (CI's budget is the sum).
section_started=
section() {
  [ -z "$section_started" ] || echo "   (previous section: $((SECONDS - section_started)) s; $SECONDS s in all)"
  section_started=$SECONDS
  echo "== $1"
}

section "islands: install, type-check, unit tests"
(
  cd islands
  # `npm install` (not `npm ci`): it installs the lockfile's versions too, and `npm ci` rejects
  # lockfiles written with this machine's omit-lockfile-registry-resolved setting.
  # (A folder left half-installed by an interrupted run has no tsc, and one installed before the
  # lockfile last changed is older than it: install again.)
  [ -x node_modules/.bin/tsc ] && [ node_modules/.package-lock.json -nt package-lock.json ] ||
    npm install --no-audit --no-fund
  ./node_modules/.bin/tsc --noEmit
  NO_COLOR=1 FORCE_COLOR=0 ./node_modules/.bin/vitest run
) 2>&1 | tee "$log"

section "formatting and lints"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings

section "dependencies: every one is used (cargo machete), the generator carries no server"
cargo machete
# Netlify compiles the generator alone: no API, devkit, dev server, web server or database.
if cargo tree --locked -p generator -e normal,build --prefix none |
  grep -E '^(api|devkit|devserver|axum|sqlx[a-z-]*) v'; then
  echo "the generator must not depend on the crates above (they belong to devserver)" >&2
  exit 1
fi

section "layers point one way: no two modules of a crate import each other"
python3 scripts/module_cycles.py api/src generator/src content-model/src devkit/src devserver/src

section "unit and integration tests (API on SQLite)"
cargo test --workspace --locked 2>&1 | tee -a "$log"

# `cargo test` built the API's binary (its integration tests run it): the steps below use it
# rather than compile it again with the dependencies' features of a build without tests.
export API_BIN=$PWD/target/debug/api

section "islands: the API types are generated from the API's current openapi.json"
./scripts/api-types.sh --check

section "the API suite again on PostgreSQL (127.0.0.1:5432)"
TEST_DATABASE=postgres cargo test --locked -p api --test api 2>&1 | tee -a "$log"

section "the running API against its OpenAPI document: schemathesis on SQLite and PostgreSQL"
./scripts/schemathesis.sh

section "the font subsets hold every Arabic character of the texts; site.css's unicode-ranges are the files' characters"
./scripts/subset-fonts.sh --check

section "the real content: validation and internal links"
./target/debug/site check # built by `cargo test` for the generator's own tests

section "Netlify's build, the command of netlify.toml as it is: compiles once, then reuses"
netlify_build=$(sed -n 's/^ *command = "\(.*\)"$/\1/p' netlify.toml)
[ -n "$netlify_build" ] || { echo "netlify.toml has no build command" >&2; exit 1; }
echo "$netlify_build"
# The debug profile on this checkout's target folder (the release compile is measured by
# bench/publish.sh, not repeated here); a fresh cache folder, so the first build compiles and
# stores the binary, and the second, with the same code, must compile nothing.
netlify_cache=$(mktemp -d)
for build in first second; do
  SITE_BUILD_PROFILE=dev CARGO_TARGET_DIR=$PWD/target SITE_CACHE_DIR=$netlify_cache \
    bash -c "set -e; $netlify_build" | tee "$netlify_cache/$build.log"
done
grep -q "compiling the generator" "$netlify_cache/first.log"
grep -q "the cached binary, no compile" "$netlify_cache/second.log" || {
  echo "the second Netlify build with unchanged code compiled the generator again" >&2
  exit 1
}
rm -rf "$netlify_cache"

section "the production shape: nginx serves the built site as netlify.toml says; the API's image"
bash deploy/test-nginx.sh
# The release `api` where one was built, else the API suite's debug one (CI compiles no release
# `api`): the image is the same around either. SKIPPED, saying why, without a Docker daemon.
[ -x target/release/api ] || export API_BINARY=target/debug/api
bash deploy/test-docker.sh

section "end to end in headless Chromium: visitor, purchase, booking, admin, access, axe"
command -v "${CHROMIUM:-chromium}" >/dev/null || {
  echo "the browser tests need Chromium: apt-get install chromium (or set CHROMIUM=/path/to/it)" >&2
  exit 1
}
cargo build --quiet --locked -p devserver # the README's one command, which the tests start as a developer would
(
  cd e2e
  [ -d node_modules/playwright-core ] || npm install --no-audit --no-fund
  rm -rf artifacts # screenshots of every step land here; the run leaves them behind
  # Two files at a time: each starts its own product (port, database, output folder, mailbox),
  # and most of a browser test is waiting on the page.
  # The longest files first, so that the run does not end on one of them alone.
  slow=(tests/visitor.test.mjs tests/brand.test.mjs tests/admin-credits.test.mjs tests/sponsors.test.mjs)
  rest=$(ls tests/*.test.mjs | grep -vxF "$(printf '%s\n' "${slow[@]}")")
  # shellcheck disable=SC2086 # one word per file
  node --test --test-concurrency="${E2E_CONCURRENCY:-2}" "${slow[@]}" $rest
) 2>&1 | tee -a "$log"
echo "screenshots: e2e/artifacts/"

echo "   (previous section: $((SECONDS - section_started)) s; $SECONDS s in all)"

# One closing line for the whole run: the sum of every test binary's result line.
awk '/^test result:/ { p += $4; f += $6 }
     /^# (pass|fail) [0-9]+$/ { if ($2 == "pass") p += $3; else f += $3 }
     /^ +Tests +[0-9]/ { for (i = 2; i <= NF; i++) { if ($(i) ~ /^passed/) p += $(i-1); if ($(i) ~ /^failed/) f += $(i-1) } }
     END { printf "all: %d passed, %d failed\n", p, f }' "$log"
