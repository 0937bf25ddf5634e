"""The documents' links: every relative link names a file of the repository, and every anchor a heading there.

The documents cross-link a lot (docs/strength.md alone has dozens of links to its own sections), and a heading
renamed breaks them silently. Anchors follow GitHub's rule: the heading in lower case, punctuation dropped,
spaces made hyphens, and ``-1``, ``-2``... added to repeats.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(text: str) -> set[str]:
    """Return the anchors of a Markdown text's headings (outside fenced code), as GitHub makes them."""
    out: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = None if fenced else re.match(r"#{1,6} (.*)", line)
        if heading is None:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def test_the_anchor_rule() -> None:
    text = "# Bot strength\n## `expert` against `ismcts`, at 1 s\n```sh\n# not a heading\n```\n## Bench\n## Bench\n"
    assert anchors(text) == {"bot-strength", "expert-against-ismcts-at-1-s", "bench", "bench-1"}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_relative_link_and_anchor_resolves(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    broken = []
    for target in _LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # https:, mailto: and the like: not this repository's.
            continue
        path, _, anchor = target.partition("#")
        dest = (document.parent / path).resolve() if path else document
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest.read_text(encoding="utf-8")):
            broken.append(f"{target}: no such heading")
    assert not broken, broken
