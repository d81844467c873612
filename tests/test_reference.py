"""The API reference renders every module of the library, so each module's docstring (what
it does and what it costs) reaches the documentation site, not only the packages'
``__init__``.

A module is rendered when a page of ``docs/reference/`` names it (``::: minesolver.x``) or
names a package above it with ``show_submodules: true``. Private modules (``_name``) and
the faces (command line, terminal, plots, web: they are not an API) are left out.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "minesolver"
REFERENCE = ROOT / "docs" / "reference"
FACES = frozenset({"ui", "web", "cli", "display", "play", "plots", "bench_report"})
_DIRECTIVE = re.compile(r"^::: ([\w.]+)\n((?:[ \t]+.*\n)*)", re.MULTILINE)


def library_modules() -> list[str]:
    """Every public module of the library (packages included), faces left out."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["minesolver", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        if any(p.startswith("_") for p in parts) or (len(parts) > 1 and parts[1] in FACES):
            continue
        out.append(".".join(parts))
    return out


def rendered() -> tuple[set[str], set[str]]:
    """The modules the reference pages name, and the packages they show with submodules."""
    named: set[str] = set()
    deep: set[str] = set()
    for page in REFERENCE.glob("*.md"):
        for match in _DIRECTIVE.finditer(page.read_text()):
            named.add(match.group(1))
            if re.search(r"show_submodules:\s*true", match.group(2)):
                deep.add(match.group(1))
    return named, deep


def test_every_library_module_is_in_the_reference() -> None:
    named, deep = rendered()
    missing = [
        m
        for m in library_modules()
        if m not in named and not any(m.startswith(f"{p}.") for p in deep)
    ]
    assert "minesolver.engines.exact_py" in library_modules()
    assert not missing, f"not in docs/reference/: {missing}"
