"""MkDocs hooks: pages that may not exist yet, and the docstrings' Sphinx roles.

``OPTIONAL`` names pages written elsewhere. While one is missing, its nav entry is dropped
and links to it become plain text (``mkdocs build --strict`` would otherwise fail on the
missing file); both appear as soon as the file is there. Every other page and link still
has to exist.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

OPTIONAL = frozenset({"limits.md", "replays.md"})


def _keep(entry: Any, docs: Path) -> bool:
    """False for a nav entry naming an optional page that does not exist."""
    target = next(iter(entry.values())) if isinstance(entry, dict) else entry
    return not (isinstance(target, str) and target in OPTIONAL and not (docs / target).exists())


def on_config(config: Any) -> Any:
    """Drop the missing optional pages from the top level of the nav."""
    docs = Path(config["docs_dir"])
    config["nav"] = [entry for entry in config["nav"] if _keep(entry, docs)]
    return config


_LINK = re.compile(r"\[([^\]]+)\]\(([\w-]+\.md)(#[\w-]*)?\)")


def on_page_markdown(markdown: str, config: Any, **kwargs: Any) -> str:
    """Links to a missing optional page as their text only."""
    docs = Path(config["docs_dir"])

    def unlink(match: re.Match[str]) -> str:
        page = match.group(2)
        missing = page in OPTIONAL and not (docs / page).exists()
        return match.group(1) if missing else match.group(0)

    return _LINK.sub(unlink, markdown)


# Sphinx roles in docstrings (":class:`~minesolver.position.Position`") as mkdocstrings
# renders them: the role's name, a colon, then the target as code.
_ROLE = re.compile(
    r":(?:func|class|meth|mod|attr|data|exc|obj):\s*<code>(~?)([\w.]+)(\(\))?</code>"
)


def _role(match: re.Match[str]) -> str:
    """A role as a cross-reference to the object when it is documented, else as code
    (``~`` shows the last part of the name only, as in Sphinx)."""
    tilde, target, call = match.group(1), match.group(2), match.group(3) or ""
    short = target.rsplit(".", 1)[-1] if tilde else target
    return f'<autoref identifier="{target}" optional><code>{short}{call}</code></autoref>'


def on_page_content(html: str, **kwargs: Any) -> str:
    """Turn the docstrings' Sphinx roles into links (autorefs resolves them later)."""
    return _ROLE.sub(_role, html)


class DoctestFences(griffe.Extension):
    """A griffe extension: docstring examples (``>>>`` lines and their output, up to a blank
    line) become fenced ``pycon`` blocks, which Markdown would otherwise read as quotes."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Fence the examples of each object's docstring."""
        if obj.docstring is not None:
            obj.docstring.value = fence_examples(obj.docstring.value)


def fence_examples(text: str) -> str:
    """``text`` with each run of ``>>>`` lines and their output in a ``pycon`` fence.

    >>> fence_examples("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nMore.").splitlines()
    ['Intro.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
    """
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and line.lstrip().startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)
