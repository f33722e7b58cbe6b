#!/usr/bin/env bash
# Copies the theme's web fonts from npm's @fontsource packages into themes/default/assets/fonts/.
#
# The pairing (all SIL Open Font License 1.1, licences copied next to the files):
#   headings  Playfair Display (variable weight)   @fontsource-variable/playfair-display
#             + Noto Naskh Arabic for Arabic         @fontsource-variable/noto-naskh-arabic
#   text      Inter (variable weight)                @fontsource-variable/inter
#             + Noto Sans Arabic for Arabic          @fontsource-variable/noto-sans-arabic
# Only the per-subset files for Latin and Arabic are copied; themes/default/assets/css/site.css
# gives each its unicode-range, so a page downloads the Arabic faces only when it shows Arabic.
# The files go to themes/default/fonts-src/ (not published), and scripts/subset-fonts.sh writes
# what pages load to assets/fonts/: the Arabic faces subset to the characters of the site's
# Arabic texts, every face's weight axis cut to the weights the stylesheets use.
#
# Usage: scripts/fonts.sh   (needs npm; installs into a temporary folder, not the repository)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/themes/default/assets/fonts"
version="5.3.0"
packages=(playfair-display inter noto-naskh-arabic noto-sans-arabic)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund \
  "${packages[@]/#/@fontsource-variable/}" 2>&1 | grep -v 'Unknown user config' || true
for p in "${packages[@]}"; do
  installed="$(node -p "require('@fontsource-variable/$p/package.json').version")"
  [ "$installed" = "$version" ] || echo "note: @fontsource-variable/$p is $installed (fonts.css was written for $version)"
done

mkdir -p "$dest" "$root/themes/default/fonts-src"
copy() { # package subset [folder]
  cp "node_modules/@fontsource-variable/$1/files/$1-$2-wght-normal.woff2" "${3:-$dest}/"
}
copy playfair-display latin "$root/themes/default/fonts-src"
copy inter latin "$root/themes/default/fonts-src"
copy noto-naskh-arabic arabic "$root/themes/default/fonts-src"
copy noto-sans-arabic arabic "$root/themes/default/fonts-src"
for p in "${packages[@]}"; do
  cp "node_modules/@fontsource-variable/$p/LICENSE" "$dest/LICENSE-$p.txt"
done
"$root/scripts/subset-fonts.sh"
ls -l "$dest"
