#!/usr/bin/env python3
"""Placeholder imagery for the demo content, until the coach's own photographs arrive.

Makes, under content/static/:
  images/portrait.jpg           the about page's portrait slot (4:5): a mottled studio backdrop
                                with a monogram, so it reads as "portrait to come"
  events/<slug>/1..6.jpg        event photos (3:2): defocused, duotone scenes of a room with
                                window light and people at a table, like an out-of-focus photo
  certificates/<name>.jpg       certificates (4:3): typographic plates on warm paper
  videos/<youtube id>.jpg       posters of the curated demo videos (16:9), defocused rooms like
                                the event photos: the demo's YouTube ids are made up, so YouTube
                                has no thumbnail for them

Deterministic (fixed seeds), so running it again gives the same files. Needs Pillow and the
heading font from scripts/fonts.sh (themes/default/assets/fonts/):

  python3 -m venv /tmp/venv && /tmp/venv/bin/pip install Pillow
  /tmp/venv/bin/python scripts/brand-images.py

Replace any file with a real photograph of the same name and shape; the site's image pipeline
makes the responsive WebP copies of whatever is there.
"""

import math
import random
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "content" / "static"
FONTS = ROOT / "themes" / "default" / "assets" / "fonts"
SERIF = FONTS / "playfair-display-latin-wght-normal.woff2"
SANS = FONTS / "inter-latin-wght-normal.woff2"

NAVY = (15, 29, 54)
NAVY_DEEP = (10, 20, 38)
GOLD = (200, 161, 90)
GOLD_DARK = (125, 95, 36)
CREAM = (250, 247, 241)
STAR_DIRECTIONS = [
    (math.cos(math.radians(-90 + k * 36)), math.sin(math.radians(-90 + k * 36))) for k in range(10)
]
SAND = (232, 222, 204)


def font(path, size, weight):
    f = ImageFont.truetype(str(path), size)
    try:
        f.set_variation_by_axes([weight])
    except OSError:
        pass
    return f


def grain(img, amount, seed):
    """Film grain: what makes a flat gradient read as a photograph."""
    rnd = random.Random(seed)
    noise = Image.effect_noise(img.size, 40 + rnd.random() * 10).convert("L")
    noise = noise.point(lambda v: 128 + (v - 128) * amount)
    return ImageChops.overlay(img, Image.merge("RGB", [noise] * 3))


def vignette(img, strength):
    w, h = img.size
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).ellipse(
        (-w * 0.25, -h * 0.2, w * 1.25, h * 1.2), fill=255
    )
    mask = mask.filter(ImageFilter.GaussianBlur(min(w, h) * 0.18))
    dark = Image.new("RGB", (w, h), NAVY_DEEP)
    return Image.composite(img, Image.blend(img, dark, strength), mask)


def duotone(gray, shadow, highlight, mid=None):
    if mid:
        return ImageOps.colorize(gray, black=shadow, white=highlight, mid=mid)
    return ImageOps.colorize(gray, black=shadow, white=highlight)


def event_photo(seed, light_from_left, w=1600, h=1067):
    """A defocused room: window light, a table, people sitting round it, bokeh."""
    rnd = random.Random(seed)
    # Drawn at half size: everything is blurred anyway, and it is four times faster.
    s = 0.5
    sw, sh = int(w * s), int(h * s)
    g = Image.linear_gradient("L").rotate(90 if light_from_left else -90).resize((sw, sh))
    g = g.point(lambda v: 70 + v * 0.55)
    d = ImageDraw.Draw(g)
    # Windows: tall bright panes on the light side.
    for i in range(3):
        x = (0.04 + i * 0.13) * sw if light_from_left else (0.96 - i * 0.13) * sw
        d.rectangle((x - sw * 0.05, sh * 0.08, x + sw * 0.05, sh * 0.62), fill=235 - i * 18)
    # The table and the people round it, far ones small and near ones large.
    d.rectangle((0, sh * 0.66, sw, sh), fill=95)
    d.ellipse((sw * 0.12, sh * 0.6, sw * 0.88, sh * 0.78), fill=200)
    for row, (y, scale, tone) in enumerate([(0.5, 0.55, 60), (0.62, 0.8, 45), (0.8, 1.2, 30)]):
        n = 5 - row
        for k in range(n):
            cx = sw * (0.12 + (k + rnd.random() * 0.5) / n * 0.8)
            r = sh * 0.055 * scale
            cy = sh * y
            d.rounded_rectangle((cx - r * 2.1, cy + r * 0.7, cx + r * 2.1, cy + r * 6), radius=r * 1.6, fill=tone + 10)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tone)
    g = g.filter(ImageFilter.GaussianBlur(sw * 0.022))
    # Bokeh: out-of-focus lights high in the room.
    bokeh = Image.new("L", (sw, sh), 0)
    bd = ImageDraw.Draw(bokeh)
    for _ in range(14):
        r = sw * (0.012 + rnd.random() * 0.03)
        x, y = rnd.random() * sw, rnd.random() * sh * 0.45
        bd.ellipse((x - r, y - r, x + r, y + r), fill=int(60 + rnd.random() * 90))
    g = ImageChops.add(g, bokeh.filter(ImageFilter.GaussianBlur(sw * 0.006)))
    g = g.filter(ImageFilter.GaussianBlur(sw * 0.004)).resize((w, h), Image.LANCZOS)
    palettes = [
        (NAVY_DEEP, (236, 214, 170), (70, 84, 110)),
        ((22, 30, 44), (244, 232, 208), (120, 100, 70)),
        ((12, 28, 40), (226, 206, 160), (44, 78, 92)),
    ]
    img = duotone(g, *palettes[seed % len(palettes)])
    return grain(vignette(img, 0.35), 0.12, seed)


def portrait():
    """A painted studio backdrop with a monogram: a slot waiting for a photograph."""
    w, h = 960, 1200
    rnd = random.Random(7)
    base = Image.radial_gradient("L").resize((w, h)).point(lambda v: 255 - v)
    mottle = Image.new("L", (w // 8, h // 8))
    mottle.putdata([int(100 + rnd.random() * 60) for _ in range(mottle.width * mottle.height)])
    mottle = mottle.resize((w, h), Image.BICUBIC).filter(ImageFilter.GaussianBlur(40))
    g = ImageChops.multiply(base.point(lambda v: 90 + v * 0.65), mottle.point(lambda v: v + 80))
    img = duotone(g, (58, 56, 60), (226, 214, 194), (150, 136, 118))
    img = grain(vignette(img, 0.25), 0.14, 7)
    d = ImageDraw.Draw(img)
    ring = (w / 2, h * 0.44)
    r = w * 0.16
    d.ellipse((ring[0] - r, ring[1] - r, ring[0] + r, ring[1] + r), outline=(246, 238, 224), width=3)
    d.text(ring, "NK", font=font(SERIF, int(w * 0.13), 500), fill=(246, 238, 224), anchor="mm")
    d.text(
        (w / 2, h * 0.44 + r + h * 0.06),
        "P O R T R A I T   T O   C O M E",
        font=font(SANS, int(w * 0.024), 500),
        fill=(240, 230, 212),
        anchor="mm",
    )
    return img


def certificate(title, issuer, seed):
    """An elegant typographic plate on warm paper: issuer, title, a gold seal."""
    w, h = 1200, 900
    paper = Image.new("RGB", (w, h), CREAM)
    paper = grain(paper, 0.08, seed)
    d = ImageDraw.Draw(paper)
    d.rectangle((36, 36, w - 36, h - 36), outline=GOLD, width=3)
    d.rectangle((52, 52, w - 52, h - 52), outline=GOLD, width=1)
    small = font(SANS, 26, 600)
    d.text((w / 2, 150), " ".join(issuer.upper()), font=small, fill=GOLD_DARK, anchor="mm")
    d.line((w / 2 - 60, 196, w / 2 + 60, 196), fill=GOLD, width=2)
    d.text((w / 2, 262), "Certificate", font=font(SERIF, 40, 400), fill=NAVY, anchor="mm")
    size = 66
    words, lines = title.split(), []
    while True:
        f = font(SERIF, size, 600)
        lines, line = [], ""
        for word in words:
            test = f"{line} {word}".strip()
            if d.textlength(test, font=f) > w - 260 and line:
                lines.append(line)
                line = word
            else:
                line = test
        lines.append(line)
        if len(lines) <= 2 or size < 44:
            break
        size -= 4
    y = 400 - (len(lines) - 1) * size * 0.6
    for line in lines:
        d.text((w / 2, y), line, font=f, fill=NAVY, anchor="mm")
        y += size * 1.2
    cx, cy, r = w / 2, 690, 70
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD)
    d.ellipse((cx - r + 10, cy - r + 10, cx + r - 10, cy + r - 10), outline=CREAM, width=2)
    star = [
        (cx + (28 if k % 2 == 0 else 12) * cos, cy + (28 if k % 2 == 0 else 12) * sin)
        for k, (cos, sin) in enumerate(STAR_DIRECTIONS)
    ]
    d.polygon(star, fill=CREAM)
    return paper


def save(img, path, quality=80):
    path.parent.mkdir(parents=True, exist_ok=True)
    img.convert("RGB").save(path, "JPEG", quality=quality, optimize=True, progressive=True)
    print(f"{path.relative_to(ROOT)}  {img.width}x{img.height}  {path.stat().st_size // 1024} KB")


def main():
    save(portrait(), STATIC / "images" / "portrait.jpg", 82)
    for i in range(1, 7):
        save(
            event_photo(i, i % 2 == 1),
            STATIC / "events" / "leading-with-clarity-retreat-2025" / f"{i}.jpg",
            76,
        )
    for name, title, issuer in [
        ("icf-acc", "Associate Certified Coach", "International Coaching Federation"),
        ("mba", "Master of Business Administration", "The American University in Cairo"),
        ("leadership-assessment", "360° Leadership Assessment Practitioner", "Leadership Assessment Institute"),
        ("team-coaching", "Certificate in Team Coaching", "Team Coaching Academy"),
    ]:
        save(certificate(title, issuer, len(name)), STATIC / "certificates" / f"{name}.jpg", 80)
    # The curated videos of content/videos.yaml (their `thumbnail:` points here).
    for seed, youtube_id in enumerate(["k7Qm2Xw9LpE", "Rf3TnB8yHs0", "Xb4vN1cZq7M", "pW9dLh2Kt5A"], 20):
        save(event_photo(seed, seed % 2 == 0, 1280, 720), STATIC / "videos" / f"{youtube_id}.jpg", 76)


if __name__ == "__main__":
    main()
