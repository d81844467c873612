"""Benchmark tables written into the documentation pages, between marker comments.

A page holds ``<!-- NAME:start -->`` and ``<!-- NAME:end -->``; :func:`write_section`
replaces what lies between them, so a benchmark refreshes its table and the page's prose
around it stays as written.
"""

from __future__ import annotations

from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
SPEED = DOCS / "speed.md"
STRENGTH = DOCS / "strength.md"


def write_section(page: Path, name: str, body: str) -> None:
    """Replace the text between ``page``'s ``name`` markers with ``body``; a missing
    marker is a ``ValueError`` naming the page and the marker."""
    text = page.read_text()
    start_mark, end_mark = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    start, end = text.find(start_mark), text.find(end_mark)
    if start < 0 or end < start:
        raise ValueError(f"{page}: no {start_mark} ... {end_mark} section to replace")
    start += len(start_mark)
    page.write_text(text[:start] + "\n" + body.rstrip("\n") + "\n" + text[end:])
