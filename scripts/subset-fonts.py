#!/usr/bin/env python3
"""Subsets the theme's Arabic web fonts to the characters the site shows, and limits every face's
weight axis to the weights the stylesheets use.

The full fonts (Noto Sans Arabic, Noto Naskh Arabic: @fontsource's Arabic files, copied by
scripts/fonts.sh) stay in themes/default/fonts-src/, which the generator does not publish
(everything under themes/default/assets/ is published). The subsets are written to
themes/default/assets/fonts/ under the same names, so site.css and the templates need no change.

The characters kept:
  - every character of the fonts' Arabic ranges found in the site's Arabic texts:
    content/**/*.md and *.yaml (the *.ar.md translations and the `ar:` texts), the theme's
    themes/default/i18n/*.yaml and templates, and the islands' islands/src/**/*.json, *.ts(x)
    (their Arabic UI strings);
  - always: the 36 letters of the Arabic alphabet with hamza forms and tatweel, the harakat,
    the Arabic punctuation (، ؛ ؟ ٪ ٫ ٬) and the Arabic-Indic digits, and the joiners and
    direction marks (ZWNJ, ZWJ, LRM, RLM), so that a name typed by a client (not in the
    content) still renders in one face, joined.
Every glyph the OpenType shaping (init/medi/fina, ligatures, marks) reaches from these is kept
(--layout-features='*').

The weight axis of each face (Arabic and Latin: Inter and Playfair Display, whose full files are
in fonts-src/ too and keep all their characters) is cut to the range the stylesheets use, WEIGHTS
below: the axis's far ends (Inter's and Noto Sans Arabic's 100 and 900) are a quarter to a half
of a file's bytes, and every page waits for its fonts. A weight outside the range is drawn at
its nearest end. site.css's @font-face `font-weight` ranges say the same.

Usage:
  scripts/subset-fonts.sh            write the subsets (run after adding Arabic text)
  scripts/subset-fonts.sh --check    fail if a character of the texts is missing from a subset
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.varLib import instancer
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "themes/default/fonts-src"
DEST = ROOT / "themes/default/assets/fonts"
FONTS = [
    "noto-sans-arabic-arabic-wght-normal.woff2",
    "noto-naskh-arabic-arabic-wght-normal.woff2",
]
# The Latin faces: every character kept, the weight axis cut only.
LATIN_FONTS = [
    "inter-latin-wght-normal.woff2",
    "playfair-display-latin-wght-normal.woff2",
]
# The weights each face is drawn at (site.css, islands.css, client.css, admin.css: 400 to 700,
# and one 800, the Latin sans's small capitals badge).
WEIGHTS = {
    "noto-sans-arabic-arabic-wght-normal.woff2": (400, 700),
    "noto-naskh-arabic-arabic-wght-normal.woff2": (400, 700),
    "inter-latin-wght-normal.woff2": (400, 800),
    "playfair-display-latin-wght-normal.woff2": (400, 700),
}

# Where the site's Arabic texts live: (folder, file name patterns).
TEXT_SOURCES = [
    ("content", ["*.md", "*.yaml", "*.yml"]),
    ("themes/default/i18n", ["*.yaml", "*.yml", "*.json"]),
    ("themes/default/templates", ["*.html", "*.xml", "*.txt"]),
    ("islands/src", ["*.json", "*.ts", "*.tsx"]),
]


def _ranges(*pairs: tuple[int, int]) -> set[int]:
    return {c for a, b in pairs for c in range(a, b + 1)}


BASE = _ranges(
    (0x0621, 0x063A),  # hamza .. ghain
    (0x0640, 0x0655),  # tatweel, fa .. yeh, harakat (fathatan .. sukun), maddah, hamza above/below
    (0x0660, 0x066D),  # Arabic-Indic digits, percent, decimal and thousands separators, star
    (0x0670, 0x0671),  # superscript alef, alef wasla
    (0x200C, 0x200F),  # ZWNJ, ZWJ, LRM, RLM
) | {0x060C, 0x061B, 0x061F, 0x0020, 0x00A0}  # ، ؛ ؟ space, no-break space


def text_files() -> list[Path]:
    files: set[Path] = set()
    for folder, patterns in TEXT_SOURCES:
        base = ROOT / folder
        if not base.is_dir():
            continue
        for pattern in patterns:
            for f in base.rglob(pattern):
                if "node_modules" not in f.parts and f.is_file():
                    files.add(f)
    return sorted(files)


def used_characters() -> tuple[set[int], dict[int, Path]]:
    """The code points of the Arabic texts, and for each the first file it was found in."""
    chars: set[int] = set()
    where: dict[int, Path] = {}
    for f in text_files():
        try:
            text = f.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for ch in set(text):
            c = ord(ch)
            # Only what an Arabic face can draw matters (Latin letters, digits and punctuation
            # are drawn by Inter and Playfair Display, whose unicode-range covers them).
            if 0x0600 <= c <= 0x08FF or 0xFB50 <= c <= 0xFEFC or 0x200C <= c <= 0x200F:
                chars.add(c)
                where.setdefault(c, f)
    return chars, where


def cmap(path: Path) -> set[int]:
    return set(TTFont(path).getBestCmap())


def weight_range(path: Path) -> tuple[float, float]:
    axis = next(a for a in TTFont(path)["fvar"].axes if a.axisTag == "wght")
    return axis.minValue, axis.maxValue


def subset_font(src: Path, dest: Path, unicodes: set[int], weights: tuple[int, int]) -> None:
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # Arabic shaping: init, medi, fina, isol, rlig, calt, mark, mkmk, curs…
    options.name_IDs = ["*"]  # keep the names (copyright, licence) with the glyphs
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    options.hinting = False  # the fontsource files carry no instructions worth keeping
    font = subset.load_font(str(src), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    lo, hi = weights
    font = instancer.instantiateVariableFont(font, {"wght": (lo, hi)})
    tmp = dest.with_suffix(".tmp")
    subset.save_font(font, str(tmp), options)
    tmp.replace(dest)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    chars, where = used_characters()
    wanted = chars | BASE
    failed = False
    for name in FONTS + LATIN_FONTS:
        src, dest = SRC / name, DEST / name
        if not src.is_file():
            print(f"{src.relative_to(ROOT)}: missing (the full font; scripts/fonts.sh copies it)", file=sys.stderr)
            return 1
        weights = WEIGHTS[name]
        # A Latin face keeps every character; an Arabic one those of the texts and the base set.
        if name in LATIN_FONTS:
            keep = cmap(src)
        else:
            keep = wanted & cmap(src)
            for c in sorted(c for c in chars - cmap(src) if not 0x200C <= c <= 0x200F):
                print(f"note: U+{c:04X} ({chr(c)}) of {where[c].relative_to(ROOT)} is not in {name}")
        if check:
            if not dest.is_file():
                failed = True
                print(f"{dest.relative_to(ROOT)}: missing", file=sys.stderr)
                continue
            if weight_range(dest) != weights:
                failed = True
                print(f"{dest.relative_to(ROOT)} has weights {weight_range(dest)}, not {weights}", file=sys.stderr)
            missing = sorted(keep - cmap(dest))
            if missing:
                failed = True
                print(f"{dest.relative_to(ROOT)} lacks {len(missing)} character(s) of the texts:", file=sys.stderr)
                for c in missing[:20]:
                    src_file = where.get(c)
                    origin = src_file.relative_to(ROOT) if src_file else "the base set"
                    print(f"  U+{c:04X} {chr(c)!r} ({origin})", file=sys.stderr)
            continue
        before = dest.stat().st_size if dest.is_file() else 0
        subset_font(src, dest, keep, weights)
        print(f"{dest.relative_to(ROOT)}: {len(keep)} characters, weights {weights[0]}-{weights[1]}, "
              f"{src.stat().st_size:,} B full, {before:,} B before, {dest.stat().st_size:,} B now")
    if check:
        if failed:
            print("run scripts/subset-fonts.sh to write the subsets anew", file=sys.stderr)
            return 1
        print(f"Arabic font subsets cover the {len(chars)} Arabic characters of the texts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
