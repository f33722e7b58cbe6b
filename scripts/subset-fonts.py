#!/usr/bin/env python3
"""Subsets the theme's web fonts: the Arabic faces to the characters the site shows, small cuts
of the Latin faces for Arabic pages, and every face's weight axis to the weights the stylesheets
use. Keeps site.css's unicode-ranges equal to the files' characters.

The full fonts (Noto Sans Arabic, Noto Naskh Arabic: @fontsource's Arabic files; Inter and
Playfair Display: its Latin files; copied by scripts/fonts.sh) stay in
themes/default/fonts-src/, which the generator does not publish (everything under
themes/default/assets/ is published). The subsets are written to themes/default/assets/fonts/
(FACES below).

The characters kept by the Arabic faces:
  - every character of the fonts' Arabic ranges found in the site's Arabic texts:
    content/**/*.md and *.yaml (the *.ar.md translations and the `ar:` texts), the theme's
    themes/default/i18n/*.yaml and templates, and the islands' islands/src/**/*.json, *.ts(x)
    (their Arabic UI strings);
  - always: the 36 letters of the Arabic alphabet with hamza forms and tatweel, the harakat,
    the Arabic punctuation (، ؛ ؟ ٪ ٫ ٬) and the Arabic-Indic digits, and the joiners and
    direction marks (ZWNJ, ZWJ, LRM), so that a name typed by a client (not in the content)
    still renders in one face, joined.
Every glyph the OpenType shaping (init/medi/fina, ligatures, marks) reaches from these is kept
(--layout-features='*').

The Latin faces: the English pages' keep every character of their files. An Arabic page
preloads two cuts instead (LATIN_SIGNS: digits, punctuation, « », °; the sans also the ASCII
letters, the serif the Latin letters of the Arabic titles and headings), about the bytes the
English pages' fonts are: its first paint waits for its fonts.

The weight axis of each face is cut to the range the stylesheets use (Face.weights): the
axis's far ends (Inter's and Noto Sans Arabic's 100 and 900) are a quarter to a half of a
file's bytes. A weight outside the range is drawn at its nearest end. site.css's @font-face
`font-weight` ranges say the same.

Each @font-face's unicode-range in site.css is written as its file's characters: a range wider
than the file makes the browser fetch the file for a character it lacks, then the next face's.

Usage:
  scripts/subset-fonts.sh            write the subsets and the ranges (after adding Arabic text)
  scripts/subset-fonts.sh --check    fail if a subset lacks a character of the texts, or a
                                     unicode-range is not its file's characters
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.varLib import instancer
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "themes/default/fonts-src"
DEST = ROOT / "themes/default/assets/fonts"
CSS = ROOT / "themes/default/assets/css/site.css"


def _ranges(*pairs: tuple[int, int]) -> set[int]:
    return {c for a, b in pairs for c in range(a, b + 1)}


# The digits, punctuation and symbols of an Arabic page's Latin runs (amounts, dates, phone
# numbers, emails, « », °), without the accented letters and the rarer signs, which fall through
# to the full face: every byte here is on every Arabic page's first paint.
LATIN_SIGNS = _ranges(
    (0x0020, 0x0040),  # space, ASCII punctuation, digits
    (0x005B, 0x0060),
    (0x007B, 0x007E),
    (0x2013, 0x2014),  # en and em dash
    (0x2018, 0x2019),  # single quotes
    (0x201C, 0x201D),  # double quotes
) | {0x00A0, 0x00A9, 0x00AB, 0x00B0, 0x00B7, 0x00BB, 0x00D7, 0x2022, 0x2026, 0x20AC}
LATIN_LETTERS = _ranges((0x0041, 0x005A), (0x0061, 0x007A))


@dataclass(frozen=True)
class Face:
    dest: str  # under themes/default/assets/fonts/, named in site.css's @font-face
    src: str  # the full font under themes/default/fonts-src/
    weights: tuple[int, int]  # the weight axis kept (the stylesheets' range)
    # "arabic": the texts' Arabic characters; "all"; "signs+letters": LATIN_SIGNS and the ASCII
    # letters; "signs+title-letters": LATIN_SIGNS and the Latin letters of the Arabic titles
    keeps: str


# The weights each face is drawn at (site.css, islands.css, client.css, admin.css: 400 to 700,
# and one 800, the Latin sans's small capitals badge).
FACES = [
    Face("noto-sans-arabic-arabic-wght-normal.woff2", "noto-sans-arabic-arabic-wght-normal.woff2", (400, 700), "arabic"),
    Face("noto-naskh-arabic-arabic-wght-normal.woff2", "noto-naskh-arabic-arabic-wght-normal.woff2", (400, 700), "arabic"),
    # The English pages' faces: every character of fontsource's Latin files.
    Face("inter-latin-wght-normal.woff2", "inter-latin-wght-normal.woff2", (400, 800), "all"),
    Face("playfair-display-latin-wght-normal.woff2", "playfair-display-latin-wght-normal.woff2", (400, 700), "all"),
    # An Arabic page's Latin companions (site.css: "Brand Sans Basic", "Brand Serif Signs"),
    # preloaded in place of the full files (about 23 and 12 KB against 35 and 36). A character
    # they lack (an accented letter; a Latin word in an Arabic heading) falls through to the
    # full face.
    Face("inter-basic-wght-normal.woff2", "inter-latin-wght-normal.woff2", (400, 800), "signs+letters"),
    Face("playfair-display-signs-wght-normal.woff2", "playfair-display-latin-wght-normal.woff2", (400, 700), "signs+title-letters"),
]

# Where the site's Arabic texts live: (folder, file name patterns).
TEXT_SOURCES = [
    ("content", ["*.md", "*.yaml", "*.yml"]),
    ("themes/default/i18n", ["*.yaml", "*.yml", "*.json"]),
    ("themes/default/templates", ["*.html", "*.xml", "*.txt"]),
    ("islands/src", ["*.json", "*.ts", "*.tsx"]),
]

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


def title_letters() -> set[int]:
    """The Latin letters of the Arabic pages' titles and headings, which the serif draws: the
    `title:` of each *.ar.md's front matter and its Markdown headings ("… المعتمد من ICF")."""
    letters: set[int] = set()
    for f in (ROOT / "content").rglob("*.ar.md"):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.startswith(("title:", "#")):
                letters |= {ord(c) for c in line.removeprefix("title:") if c.isascii() and c.isalpha()}
    return letters


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


def unicode_range(codepoints: set[int]) -> str:
    """CSS's notation for a set of code points: U+0020-007E, U+00A0, … (without the control
    characters that a font maps for its own use: .notdef's U+0000, the carriage return)."""
    parts: list[str] = []
    run: list[int] = []
    for c in sorted(c for c in codepoints if c >= 0x20) + [-1]:
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            parts.append(f"U+{run[0]:04X}" if len(run) == 1 else f"U+{run[0]:04X}-{run[-1]:04X}")
        run = [c]
    return ", ".join(parts)


def css_face(css: str, dest: str) -> re.Match[str]:
    """The unicode-range declaration of the @font-face whose src is this file."""
    pattern = r"@font-face \{[^}]*?/assets/fonts/" + re.escape(dest) + r"[^}]*?unicode-range: ([^;]*);"
    found = re.search(pattern, css)
    if not found:
        raise SystemExit(f"{CSS.relative_to(ROOT)}: no @font-face with a unicode-range for {dest}")
    return found


def kept_characters(face: Face, full: set[int], wanted: dict[str, set[int]]) -> set[int]:
    """The characters of the full font `full` that `face` keeps (`wanted`: the sets that depend
    on the texts, read once for every face)."""
    if face.keeps == "all":
        return full
    return full & wanted[face.keeps]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    chars, where = used_characters()
    wanted = {
        "arabic": chars | BASE,
        "signs+letters": LATIN_SIGNS | LATIN_LETTERS,
        "signs+title-letters": LATIN_SIGNS | title_letters(),
    }
    css = CSS.read_text(encoding="utf-8")
    failed = False
    for face in FACES:
        src, dest = SRC / face.src, DEST / face.dest
        if not src.is_file():
            print(f"{src.relative_to(ROOT)}: missing (the full font; scripts/fonts.sh copies it)", file=sys.stderr)
            return 1
        full = cmap(src)
        keep = kept_characters(face, full, wanted)
        if face.keeps == "arabic":
            for c in sorted(c for c in chars - full if not 0x200C <= c <= 0x200F):
                print(f"note: U+{c:04X} ({chr(c)}) of {where[c].relative_to(ROOT)} is not in {face.src}")
        declared = css_face(css, face.dest)
        if check:
            if not dest.is_file():
                failed = True
                print(f"{dest.relative_to(ROOT)}: missing", file=sys.stderr)
                continue
            have = cmap(dest)
            if weight_range(dest) != face.weights:
                failed = True
                print(f"{dest.relative_to(ROOT)} has weights {weight_range(dest)}, not {face.weights}", file=sys.stderr)
            missing = sorted(keep - have)
            if missing:
                failed = True
                print(f"{dest.relative_to(ROOT)} lacks {len(missing)} character(s) of the texts:", file=sys.stderr)
                for c in missing[:20]:
                    src_file = where.get(c)
                    origin = src_file.relative_to(ROOT) if src_file else "the base set or a title"
                    print(f"  U+{c:04X} {chr(c)!r} ({origin})", file=sys.stderr)
            # A range wider than the file makes the browser fetch it for a character it then
            # lacks, and fetch the next face too: an Arabic page's phone number in direction
            # isolates (U+2066, U+2069) once cost it Inter's full file.
            if declared.group(1) != unicode_range(have):
                failed = True
                print(f"{CSS.relative_to(ROOT)}: the unicode-range of {face.dest} is not the file's characters", file=sys.stderr)
            continue
        before = dest.stat().st_size if dest.is_file() else 0
        subset_font(src, dest, keep, face.weights)
        start, end = declared.span(1)
        css = css[:start] + unicode_range(cmap(dest)) + css[end:]
        print(f"{dest.relative_to(ROOT)}: {len(keep)} characters, weights {face.weights[0]}-{face.weights[1]}, "
              f"{src.stat().st_size:,} B full, {before:,} B before, {dest.stat().st_size:,} B now")
    if check:
        if failed:
            print("run scripts/subset-fonts.sh to write the subsets anew", file=sys.stderr)
            return 1
        print(f"the font subsets and site.css's unicode-ranges agree; the Arabic ones cover the {len(chars)} Arabic characters of the texts")
        return 0
    CSS.write_text(css, encoding="utf-8")
    print(f"{CSS.relative_to(ROOT)}: each @font-face's unicode-range is its file's characters")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
