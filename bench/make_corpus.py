#!/usr/bin/env python3
"""Writes a realistic site of N blog posts for build benchmarks.

Each post has full front matter and ~800 words: headings, paragraphs, a list, a table, a code
block and internal links (to other posts and to real routes, so `site check` passes). The rest
of the site (settings, legal pages, theme) comes from the repository, so the real templates
render every page.

    python3 bench/make_corpus.py --pages 10000 --out /dev/shm/corpus-10k
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


def sentence(rng, n=None):
    n = n or rng.randint(8, 18)
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def paragraph(rng, sentences=5):
    return " ".join(sentence(rng) for _ in range(sentences))


def post(rng, i, pages):
    other = f"/blog/post-{rng.randrange(pages):05d}"
    tags = rng.sample(TAGS, 3)
    date = f"20{rng.randint(20, 26)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    body = [
        paragraph(rng, 4),
        f"## Why {rng.choice(WORDS)} matters",
        paragraph(rng, 6),
        f"Read [a related article]({other}) or see [how coaching works](/work-with-me).",
        "## A practical checklist",
        "\n".join(f"- {sentence(rng, 8)}" for _ in range(6)),
        paragraph(rng, 5),
        "## By the numbers",
        "| Measure | Before | After |\n|---|---:|---:|\n"
        + "\n".join(f"| {rng.choice(WORDS).title()} | {rng.randint(10, 60)}% | {rng.randint(60, 99)}% |" for _ in range(4)),
        paragraph(rng, 6),
        "### A simple template",
        "```text\nGoal: ...\nObstacle: ...\nNext step: ...\nReview date: ...\n```",
        paragraph(rng, 6),
        "## What to do next",
        "1. " + sentence(rng) + "\n2. " + sentence(rng) + "\n3. " + sentence(rng),
        paragraph(rng, 5) + " [Book a discovery call](/contact) or browse [all resources](/resources).",
    ]
    front = (
        "---\n"
        f"title: \"{sentence(rng, 6)[:-1]} {i}\"\n"
        f"excerpt: \"{sentence(rng, 20)}\"\n"
        f"category: {rng.choice(CATEGORIES)}\n"
        f"tags: [{', '.join(repr(t) for t in tags)}]\n"
        f"meta_description: \"{sentence(rng, 18)}\"\n"
        f"created_at: {date}\n"
        "is_published: true\n"
        "---\n\n"
    )
    return front + "\n\n".join(body) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=10000)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=42)
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
    words = sum(len(p.read_text().split()) for p in list(blog.iterdir())[:50]) / 50
    print(f"wrote {args.pages} posts (~{words:.0f} words each) to {args.out}")


if __name__ == "__main__":
    main()
