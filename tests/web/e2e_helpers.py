"""Helpers of the browser tests: read the board back from the page, start seeded games.

Games are seeded through the page's ``?seed=N`` parameter, and the same game is replayed
with :mod:`minesolver.game` (:func:`webtest_helpers.replay`) to know where the mines are.
The fixtures (``server``, ``browser``, ``page``) are in ``conftest.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from webtest_helpers import replay

from minesolver.analysis import Analysis, analyze, fraction_text
from minesolver.strategy.outcomes import tile_outcomes

Page = Any

READ_BUDGET = 600
"""The server's ``--read-budget`` (seconds, a safety deadline) in the tests that read a
screenshot: a read is bounded by its work, yet on a machine loaded many times over its
few seconds of CPU can take minutes of wall time, and the outcome must not depend on the
load."""
READ_WAIT = (READ_BUDGET + 60) * 1000
"""How long (milliseconds) a browser test waits for a screenshot's reading to show: past
the server's budget, so that the server, not the wait, ends a read that runs long."""


SUPERSCRIPT = str.maketrans(
    "0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
)


def count_text(n: int) -> str:
    """A layout count as the page writes it: grouped in thousands up to 15 digits, else
    ``d.ddd \u00d7 10\u207f`` with a superscript power and no-break spaces (truncated, as
    the page does)."""
    digits = str(n)
    if len(digits) <= 15:
        return f"{n:,}"
    power = str(len(digits) - 1).translate(SUPERSCRIPT)
    return f"{digits[0]}.{digits[1:4]}\u00a0\u00d7\u00a010{power}"


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


def percent_text(p: Fraction) -> str:
    """``p`` as the page writes a chance: a percentage with two decimals, rounded half up,
    but a chance neither 0 nor 1 never as 0.00% or 100.00%."""
    hundredths = math.floor(p * 10000 + Fraction(1, 2))
    if hundredths == 0 and p:
        return "<0.01%"
    if hundredths == 10000 and p != 1:
        return ">99.99%"
    return f"{hundredths // 100}.{hundredths % 100:02d}%"


def hover_until_loaded(page: Page, x: int, y: int) -> None:
    """Hover cell (x, y) and wait for its digit chances (or their refusal) in the panel."""
    cell(page, x, y).hover()
    page.wait_for_function(
        "(() => { const p = document.querySelector('#tile-info');"
        f" return !p.hidden && p.dataset.x === '{x}' && p.dataset.y === '{y}' &&"
        " !p.querySelector('.tile-loading') && !!p.querySelector('.tile-chances'); })()"
    )


def shown_chances(page: Page) -> dict[str, Any]:
    """The digit rows, opening and progress as the panel shows them: for each, the
    percentage text and the exact fraction of ``data-p``."""
    rows = page.eval_on_selector_all(
        "#tile-info .tile-digit",
        "els => els.map(e => [e.dataset.digit, e.querySelector('.tile-d').textContent,"
        " e.querySelector('.tile-value').textContent, e.dataset.p])",
    )

    def one(selector: str) -> tuple[str, str]:
        row = page.locator(f"#tile-info {selector}")
        return row.locator(".tile-value").inner_text(), str(row.get_attribute("data-p"))

    digits = {}
    for digit, label, shown, p in rows:
        assert digit == label  # the digit shown is the one the row is for
        digits[int(digit)] = (shown, p)
    return {"digits": digits, "opening": one(".tile-opening"), "progress": one(".tile-progress")}


def check_cell(page: Page, analysis: Analysis, c: tuple[int, int]) -> None:
    """The panel of cell ``c`` shows the library's exact tile information."""
    hover_until_loaded(page, *c)
    tile = tile_outcomes(analysis, c)
    shown = shown_chances(page)
    assert shown["digits"] == {
        d: (percent_text(p), fraction_text(p)) for d, p in tile.digits.items()
    }, c
    assert sum((Fraction(p) for _, p in shown["digits"].values()), Fraction(0)) == tile.safe
    assert shown["opening"] == (percent_text(tile.opening), fraction_text(tile.opening))
    assert shown["progress"] == (percent_text(tile.progress), fraction_text(tile.progress))
