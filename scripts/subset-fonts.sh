#!/usr/bin/env bash
# Subsets the Arabic web fonts (themes/default/fonts-src/ → themes/default/assets/fonts/) to the
# characters of the site's Arabic texts, with fontTools' pyftsubset (PyPI: fonttools, brotli for
# woff2), installed on first use into a venv under the git-ignored .cache/. See
# scripts/subset-fonts.py for what is kept.
#
#   scripts/subset-fonts.sh           write the subsets (after adding or changing Arabic text)
#   scripts/subset-fonts.sh --check   fail if an Arabic character of the texts is not in a subset
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

FONTTOOLS_VERSION=4.68.0
BROTLI_VERSION=1.2.1
venv=$root/.cache/fonttools-$FONTTOOLS_VERSION
if ! "$venv/bin/python" -c 'import fontTools, brotli' 2>/dev/null; then
  echo "== installing fonttools $FONTTOOLS_VERSION and brotli into $venv" >&2
  python3 -m venv "$venv" || {
    echo "python3 cannot create a venv: apt-get install python3-venv" >&2
    exit 1
  }
  "$venv/bin/pip" install --quiet --disable-pip-version-check \
    "fonttools==$FONTTOOLS_VERSION" "brotli==$BROTLI_VERSION"
fi

exec "$venv/bin/python" scripts/subset-fonts.py "$@"
