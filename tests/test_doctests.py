"""The examples in the documentation run: every docstring example in the package, and
every ``>>>`` example in the README and the documentation pages.

Module docstrings are collected with :mod:`doctest`'s own finder (one test per module, so a
failure names the module); a module that imports an optional extra that is not installed
is skipped, with the extra to install. A Markdown page's ```` ```python ```` blocks run in
order in one namespace, like a reader typing them into one session; the line numbers in a
failure are the page's. Blocks without ``>>>`` are listings, not run.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from extras import extra_of, reason

import minesolver

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def _module_names() -> list[str]:
    """The package and every module under it."""
    walk = pkgutil.walk_packages(minesolver.__path__, prefix=f"{minesolver.__name__}.")
    return sorted([minesolver.__name__, *(info.name for info in walk)])


def _report(runner: doctest.DocTestRunner, tests: list[doctest.DocTest]) -> str:
    """Run ``tests`` and return the failures' report (empty when all pass)."""
    out: list[str] = []
    for test in tests:
        runner.run(test, out=out.append, clear_globs=False)
    return "".join(out)


@pytest.mark.parametrize("name", _module_names())
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # skipped only for an optional extra that is not installed
        extra = extra_of(exc)
        if extra is None:
            raise
        pytest.skip(f"{name} {reason(extra)}")
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report = _report(runner, tests)
    assert not runner.failures, report


def python_blocks(text: str) -> list[tuple[int, str]]:
    """The ```` ```python ```` blocks of a Markdown text holding ``>>>`` examples, each with
    the 0-based line of its first line of code."""
    blocks = []
    for match in _BLOCK.finditer(text):
        if ">>>" in match.group(1):
            blocks.append((text.count("\n", 0, match.start(1)), match.group(1)))
    return blocks


def test_python_blocks_are_found() -> None:
    text = "intro\n```python\n>>> 1 + 1\n2\n```\n```python\nx = 1\n```\n```sh\n>>> no\n```\n"
    assert python_blocks(text) == [(2, ">>> 1 + 1\n2\n")]


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_page_examples(page: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs: dict[str, object] = {"__name__": "__page__"}
    out: list[str] = []
    for lineno, code in python_blocks(page.read_text()):
        test = parser.get_doctest(code, globs, page.name, str(page), lineno)
        runner.run(test, out=out.append, clear_globs=False)
        globs = test.globs  # the next block sees what this one defined
    assert not runner.failures, "".join(out)
