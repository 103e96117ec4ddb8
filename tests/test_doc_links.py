"""The README is a front page (under 250 lines) that links every guide in ``docs/``, and every
relative link (and its ``#anchor``) in the README, the guides and the task READMEs resolves."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
GUIDES = sorted((REPO / "docs").glob("*.md"))
LINKED_DOCS = [README, *GUIDES, REPO / "DEVELOPERS.md", REPO / "lm_eval_tasks/finereason/README.md",
               REPO / "metrics/README.md", REPO / "trainers/README.md"]
_FENCE = re.compile(r"^ *```.*?^ *```", re.S | re.M)
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """``text`` without fenced code blocks and inline code spans."""
    return re.sub(r"`[^`\n]*`", "", _FENCE.sub("", text))


def _anchors(path: Path) -> set[str]:
    """GitHub's heading anchors of a Markdown file (lower case, punctuation dropped, spaces to dashes)."""
    out: set[str] = set()
    for line in _FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"^#{1,6} +(.*?) *#*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower().replace("`", "")).replace(" ", "-")
            base, n = slug, 1
            while slug in out:
                slug, n = f"{base}-{n}", n + 1
            out.add(slug)
    return out


def test_the_guides_exist():
    names = {p.name for p in GUIDES}
    expected = {"reading.md", "datasets.md", "tasks-and-metrics.md", "training.md", "planning-and-loops.md",
                "asp-critic.md", "leaderboard.md", "adding-a-domain.md", "adding-a-metric.md",
                "adding-a-reward.md", "adding-a-command.md"}
    assert expected <= names, f"missing guides: {sorted(expected - names)}"


def test_the_readme_is_a_front_page_under_250_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < 250, f"README.md has {lines} lines; move detail into a guide in docs/"


def test_the_readme_links_every_guide():
    targets = {t.split("#")[0] for t in _LINK.findall(_prose(README.read_text(encoding="utf-8")))}
    missing = [f"docs/{p.name}" for p in GUIDES if f"docs/{p.name}" not in targets]
    assert not missing, f"README.md does not link: {', '.join(missing)}"


@pytest.mark.parametrize("doc", LINKED_DOCS, ids=[str(p.relative_to(REPO)) for p in LINKED_DOCS])
def test_every_relative_link_resolves(doc):
    bad = []
    for target in _LINK.findall(_prose(doc.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not ours to check
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.exists():
            bad.append(f"{target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            bad.append(f"{target} (no heading #{anchor} in {file.relative_to(REPO)})")
    assert not bad, f"{doc.relative_to(REPO)}: broken links: {'; '.join(bad)}"
