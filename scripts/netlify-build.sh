#!/usr/bin/env bash
# Netlify's build (netlify.toml [build] command): the site, with the generator compiled only when
# its code changed.
#
# The `site` binary is kept in .site-cache/bin/, named after a hash of every file it is compiled
# from (Cargo.toml, Cargo.lock, content-model/, generator/). Netlify hands that folder from one
# build to the next (netlify/plugins/site-binary-cache), so a content-only change runs the cached
# binary and compiles nothing: seconds, not the minutes of a cold compile. When the code changed,
# cargo recompiles on the cached target folder (.site-cache/target/), so only the changed crates.
# The islands' npm packages are kept there too.
#
#   bash scripts/netlify-build.sh                as Netlify runs it
#   SITE_CACHE_DIR=/tmp/c bash scripts/netlify-build.sh     another cache folder
#   SITE_BUILD_PROFILE=dev CARGO_TARGET_DIR=target bash scripts/netlify-build.sh
#       the debug build of a checkout (CI: the same steps without a release compile)
# Arguments go to `site build` (e.g. --drafts).
set -euo pipefail
cd "$(dirname "$0")/.."

cache=${SITE_CACHE_DIR:-$PWD/.site-cache}
profile=${SITE_BUILD_PROFILE:-release}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$cache/target}
# A fresh machine gains nothing from incremental compilation, which doubles the target folder.
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}

# The key: the hash of every file the binary is compiled from, in a stable order, with the
# profile and the machine's architecture. Themes and content are read at run time: not in it.
key=$(
  {
    echo "$profile $(uname -m)"
    git ls-files -z --cached --others --exclude-standard -- Cargo.toml Cargo.lock content-model generator |
      sort -z | xargs -0 sha256sum
  } | sha256sum | cut -c1-20
)
binary=$cache/bin/site-$key

if [ -x "$binary" ]; then
  echo "site: the generator's code is unchanged (key $key): the cached binary, no compile"
else
  echo "site: compiling the generator (key $key: its code changed, or nothing is cached)"
  started=$SECONDS
  cargo build --locked --profile "$profile" -p generator --bin site
  [ "$profile" = dev ] && out=debug || out=$profile
  mkdir -p "$cache/bin"
  rm -f "$cache"/bin/site-* # one binary is kept: the cache stays small
  cp "$CARGO_TARGET_DIR/$out/site" "$binary.partial"
  mv "$binary.partial" "$binary"
  echo "site: compiled in $((SECONDS - started)) s"
fi

# The islands' npm packages, kept beside the binary under their lockfile's hash: a changed
# lockfile installs afresh (`site build` installs when islands/node_modules is missing).
modules=$cache/node_modules-$(sha256sum islands/package-lock.json | cut -c1-20)
if [ ! -d islands/node_modules ] && [ -d "$modules" ]; then
  cp -a "$modules" islands/node_modules
fi

"$binary" build "$@"

if [ ! -d "$modules" ] && [ -d islands/node_modules ]; then
  rm -rf "$cache"/node_modules-*
  cp -a islands/node_modules "$modules.partial"
  mv "$modules.partial" "$modules"
fi
