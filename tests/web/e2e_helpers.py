"""Helpers of the browser tests: read the board back from the page, start seeded games.

Games are seeded through the page's ``?seed=N`` parameter, and the same game is replayed
with :mod:`minesolver.game` (:func:`webtest_helpers.replay`) to know where the mines are.
The fixtures (``server``, ``browser``, ``page``) are in ``conftest.py``.
"""

from __future__ import annotations

from typing import Any

from webtest_helpers import replay

from minesolver.analysis import Analysis, analyze

Page = Any


def count_text(n: int) -> str:
    """A layout count as the page writes it: grouped in thousands up to 15 digits, else
    ``d.ddd \u00d7 10^k`` (truncated, as the page does)."""
    digits = str(n)
    if len(digits) <= 15:
        return f"{n:,}"
    return f"{digits[0]}.{digits[1:4]} \u00d7 10^{len(digits) - 1}"


def cell(page: Page, x: int, y: int) -> Any:
    """The board's cell ``(x, y)`` as a Playwright locator."""
    return page.locator(f'#board .cell[data-x="{x}"][data-y="{y}"]')


def board_rows(page: Page) -> list[str]:
    """The rows of the board the page holds (H, F, 0-8)."""
    rows: list[str] = page.evaluate("() => state.rows")
    return rows


def shown_probabilities(page: Page) -> dict[tuple[int, int], str]:
    """The exact probability each cell of the page carries (``data-p``), by cell."""
    triples = page.eval_on_selector_all(
        "#board .cell[data-p]", "els => els.map(e => [e.dataset.x, e.dataset.y, e.dataset.p])"
    )
    return {(int(x), int(y)): str(p) for x, y, p in triples}


def start(page: Page, url: str, seed: int, first: tuple[int, int]) -> None:
    """A seeded beginner game (first click safe), opened at ``first``."""
    page.goto(f"{url}/?seed={seed}&level=beginner&rule=safe")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    cell(page, *first).click()
    page.wait_for_selector("#board .cell.open")


def with_hints(page: Page, url: str, seed: int = 8) -> Analysis:
    """A seeded beginner game opened at (0, 0) with hints on; the engine's analysis of it."""
    start(page, url, seed, (0, 0))
    page.check("#hints")
    page.wait_for_selector("#board .cell.best")
    return analyze(replay("beginner", seed, "safe", (0, 0)).view())
