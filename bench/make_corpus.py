#!/usr/bin/env python3
"""Writes a realistic site of N blog posts for build benchmarks.

Each post has full front matter and ~800 words: headings, paragraphs, a list, a table, a code
block and internal links (to other posts and to real routes, so `site check` passes). The rest
of the site (settings, legal pages, theme) comes from the repository, so the real templates
render every page.

    python3 bench/make_corpus.py --pages 10000 --out /dev/shm/corpus-10k

With `--translate ar` the site is in two languages (settings `languages: [en, ar]`) and every
page has its translation beside it (`post-00001.ar.md`: its own title, excerpt, category, tags
and a body of the same shape and length, linking to the other translated pages; the legal
pages too): the same N pages, 2N pages built.

    python3 bench/make_corpus.py --pages 10000 --translate ar --out /dev/shm/corpus-10k-ar
"""

import argparse
import random
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORDS = (
    "leadership strategy executive team decision clarity feedback trust culture vision growth "
    "stakeholder alignment priorities influence resilience accountability delegation coaching "
    "performance conversation purpose change organisation board results habits focus energy "
    "listening questions presence credibility momentum execution planning talent succession"
).split()
CATEGORIES = ["Leadership", "Strategy", "Team Performance", "Career", "Communication", "Wellbeing"]
TAGS = ["leadership", "strategy", "teams", "feedback", "career", "communication", "change",
        "culture", "decision-making", "executive presence", "delegation", "resilience"]


def sentence(rng, n=None, words=WORDS):
    n = n or rng.randint(8, 18)
    chosen = [rng.choice(words) for _ in range(n)]
    return " ".join(chosen).capitalize() + "."


def paragraph(rng, sentences=5, words=WORDS):
    return " ".join(sentence(rng, words=words) for _ in range(sentences))


# Words of the translations (Arabic business vocabulary), for text of a realistic script and
# length; the generator treats them as any text.
AR_WORDS = (
    "القيادة الاستراتيجية التنفيذية الفريق القرار الوضوح التغذية الراجعة الثقة الثقافة الرؤية النمو "
    "أصحاب المصلحة التوافق الأولويات التأثير المرونة المساءلة التفويض التدريب الأداء الحوار الهدف "
    "التغيير المؤسسة مجلس الإدارة النتائج العادات التركيز الطاقة الإصغاء الأسئلة الحضور المصداقية "
    "الزخم التنفيذ التخطيط المواهب التعاقب"
).split()
AR_CATEGORIES = ["القيادة", "الاستراتيجية", "أداء الفرق", "المسار المهني", "التواصل", "جودة الحياة"]
AR_TAGS = ["القيادة", "الاستراتيجية", "الفرق", "التغذية الراجعة", "المسار المهني", "التواصل"]


def post(rng, i, pages, words=WORDS, lang=None):
    """A post; with `lang`, its translation (texts only in the front matter, links in `lang`)."""
    prefix = f"/{lang}" if lang else ""
    S = lambda n=None: sentence(rng, n, words)  # noqa: E731
    P = lambda n=5: paragraph(rng, n, words)  # noqa: E731
    other = f"{prefix}/blog/post-{rng.randrange(pages):05d}"
    tags = rng.sample(AR_TAGS if lang else TAGS, 3)
    date = f"20{rng.randint(20, 26)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    body = [
        P(4),
        (f"## {rng.choice(words)}" if lang else f"## Why {rng.choice(words)} matters"),
        P(6),
        f"Read [a related article]({other}) or see [how coaching works]({prefix}/work-with-me).",
        "## A practical checklist",
        "\n".join(f"- {S(8)}" for _ in range(6)),
        P(5),
        "## By the numbers",
        "| Measure | Before | After |\n|---|---:|---:|\n"
        + "\n".join(f"| {rng.choice(words).title()} | {rng.randint(10, 60)}% | {rng.randint(60, 99)}% |" for _ in range(4)),
        P(6),
        "### A simple template",
        "```text\nGoal: ...\nObstacle: ...\nNext step: ...\nReview date: ...\n```",
        P(6),
        "## What to do next",
        "1. " + S() + "\n2. " + S() + "\n3. " + S(),
        P(5) + f" [Book a discovery call]({prefix}/contact) or browse [all resources]({prefix}/resources).",
    ]
    if lang:
        # A translation gives its texts; the date and the rest come from the original.
        front = (
            "---\n"
            f"title: \"{S(6)[:-1]} {i}\"\n"
            f"excerpt: \"{S(20)}\"\n"
            f"category: \"{rng.choice(AR_CATEGORIES)}\"\n"
            f"tags: [{', '.join(repr(t) for t in tags)}]\n"
            f"meta_description: \"{S(18)}\"\n"
            "---\n\n"
        )
    else:
        front = (
            "---\n"
            f"title: \"{S(6)[:-1]} {i}\"\n"
            f"excerpt: \"{S(20)}\"\n"
            f"category: {rng.choice(CATEGORIES)}\n"
            f"tags: [{', '.join(repr(t) for t in tags)}]\n"
            f"meta_description: \"{S(18)}\"\n"
            f"created_at: {date}\n"
            "is_published: true\n"
            "---\n\n"
        )
    return front + "\n\n".join(body) + "\n"


def translate_site(out, lang):
    """Settings in two languages, and the fixture's legal pages translated."""
    settings = out / "content/settings.yaml"
    settings.write_text(f"languages: [en, {lang}]\n" + settings.read_text())
    for page in sorted((out / "content/legal").glob("*.md")):
        if page.stem.count(".") == 0:
            (page.parent / f"{page.stem}.{lang}.md").write_text(
                "---\ntitle: \"الشروط\"\n---\n\n## الشروط\n\nنص تجريبي.\n"
            )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=10000)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--translate", metavar="LANG",
                    help="also write every page's translation into LANG (e.g. ar): 2N pages")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(REPO / "generator/tests/fixtures/minimal", args.out)
    shutil.copytree(REPO / "themes", args.out / "themes")
    blog = args.out / "content/blog"
    blog.mkdir(parents=True)
    for i in range(args.pages):
        (blog / f"post-{i:05d}.md").write_text(post(rng, i, args.pages))
    if args.translate:
        # Their own generator, so the English pages are the same with or without translations.
        trng = random.Random(args.seed + 1)
        for i in range(args.pages):
            (blog / f"post-{i:05d}.{args.translate}.md").write_text(
                post(trng, i, args.pages, AR_WORDS, args.translate))
        translate_site(args.out, args.translate)
    words = sum(len(p.read_text().split()) for p in sorted(blog.iterdir())[:50]) / 50
    print(f"wrote {args.pages} posts (~{words:.0f} words each) to {args.out}")


if __name__ == "__main__":
    main()
