"""End to end: the tile panel's digit chances, opening and progress in real Chromium.

The shown rows are read back (the digit, the percentage text, the exact fraction in
``data-p``) and compared with the library's exact values (``tile_outcomes``) for a seeded
game with hints on and for the design document's known position in Analyse. The best
move's line must be plain words; the requests are lazy, cached and never a storm.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from e2e_helpers import Page, cell, check_cell, hover_until_loaded, with_hints
from webtest_helpers import KNOWN

from minesolver.analysis import analyze
from minesolver.position import Position
from minesolver.strategy.outcomes import tile_outcomes

pytest.importorskip("playwright.sync_api")

GUESS = "8x8x12/" + "HHHHHHHH/" * 3 + "HHH2HHHH/" + "HHHHHHHH/" * 3 + "HHHHHHHH"
"""No certain cell and too many layouts for the endgame search: best weighs its guess."""


def check_best_line(page: Page) -> str:
    """Hover the best move's cell; its line in the panel, checked to be plain words."""
    move = page.evaluate("state.analysis.move")
    cell(page, move["x"], move["y"]).hover()
    page.wait_for_function(
        "(() => { const p = document.querySelector('#tile-info');"
        f" return !p.hidden && p.dataset.x === '{move['x']}' && p.dataset.y === '{move['y']}'"
        " && !p.querySelector('.tile-loading') && !!p.querySelector('.tile-best'); })()"
    )
    line = page.inner_text("#tile-info .tile-best")
    assert line == f"Best move: {move['kind']}: {move['why']}"
    assert "score" not in line and "P(" not in line
    return line


def test_play_with_hints_shows_the_exact_digit_chances(server: str, page: Page) -> None:
    expected = with_hints(page, server)
    risky = sorted(c for c, p in expected.probabilities.items() if 0 < p < 1)
    assert len(risky) >= 4
    for c in risky[:2] + risky[-2:]:
        check_cell(page, expected, c)
    # a digit too unlikely for two decimals reads "<0.01%", never 0.00%
    tiny = next(
        c
        for c in risky
        if any(0 < p < Fraction(1, 20000) for p in tile_outcomes(expected, c).digits.values())
    )
    check_cell(page, expected, tiny)
    assert "<0.01%" in page.inner_text("#tile-info .tile-digits")
    check_best_line(page)


def test_analyse_shows_the_design_examples_digit_chances(server: str, page: Page) -> None:
    page.goto(f"{server}/?analyse={KNOWN.strip().replace(chr(10), '/')}")
    page.wait_for_selector("#board .cell.heat")
    analysis = analyze(Position.from_text(KNOWN))
    for c in [(4, 0), (4, 4), (3, 0), (2, 0), (0, 1)]:
        check_cell(page, analysis, c)
    hover_until_loaded(page, 4, 0)  # the known figures, as a person reads them
    text = page.inner_text("#tile-info").replace("\n", " ")  # a digit row is a flex box
    for words in ["8.33% (1/12)", "33.33% (1/3)", "25.00% (1/4)", "2.78% (1/36)"]:
        assert words in text
    assert "Opens an area: 8.33% (1/12)" in text and "Progress: 11.11% (1/9)" in text
    # certainly safe: what it will show is still worth knowing (its digits sum to 1)
    check_cell(page, analysis, (2, 1))
    assert "Certainly safe" in page.inner_text("#tile-info")


def test_the_best_guess_is_explained_in_plain_words(server: str, page: Page) -> None:
    page.goto(f"{server}/?analyse={GUESS}")
    page.wait_for_selector("#board .cell.best")
    line = check_best_line(page)
    assert "surviving this click and the next" in line and "risk of a mine" in line
    assert page.evaluate("state.analysis.move.reason").startswith("second-move safety score")
    summary = page.inner_text("#best-move")
    assert "score" not in summary and "P(" not in summary


def test_an_approximate_engine_keeps_its_lines_and_the_digits_stay_exact(
    server: str, page: Page
) -> None:
    page.goto(f"{server}/?analyse={KNOWN.strip().replace(chr(10), '/')}")
    page.wait_for_selector("#board .cell.heat")
    page.select_option("#engine", "bp")
    page.wait_for_function("state.analysis && state.analysis.engine === 'bp'")
    analysis = analyze(Position.from_text(KNOWN))
    check_cell(page, analysis, (4, 0))
    text = page.inner_text("#tile-info")
    assert "Mine: ≈" in text and "approximate (bp)" in text


def test_requests_are_lazy_cached_and_never_a_storm(server: str, page: Page) -> None:
    page.goto(f"{server}/?analyse={GUESS}")
    page.wait_for_selector("#board .cell.best")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.url.endswith("/api/tile") else None)
    assert sent == []  # nothing before a panel opens
    path = [(x, y) for y in range(5) for x in range(8) if (x, y) != (3, 3)]
    # a sweep of the pointer across 39 cells, one every 30 ms, as a moving mouse makes
    page.evaluate(
        "async cells => { for (const [x, y] of cells) {"
        " cellAt(x, y).dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
        " await new Promise((r) => setTimeout(r, 30)); } }",
        path,
    )
    hover_until_loaded(page, *path[-1])
    assert len(sent) == 1  # the cell the pointer rests on, only
    hover_until_loaded(page, 7, 7)
    hover_until_loaded(page, *path[-1])  # asked already: from the cache
    assert len(sent) == 2


def test_loading_and_refusal_are_shown(server: str, page: Page) -> None:
    page.goto(f"{server}/?analyse={KNOWN.strip().replace(chr(10), '/')}")
    page.wait_for_selector("#board .cell.heat")
    held: list[Any] = []
    page.route("**/api/tile", lambda route: held.append(route))
    cell(page, 4, 4).hover()
    page.wait_for_selector("#tile-info .tile-loading")
    assert "Digit chances: …" in page.inner_text("#tile-info")
    page.wait_for_function("true")  # let the held request reach the handler
    while not held:
        page.wait_for_timeout(50)
    held[0].fulfill(
        status=503,
        content_type="application/json",
        body='{"error": "compute_budget_exceeded", "detail": "the computation exceeded the '
        'budget of 5 s and was stopped"}',
    )
    page.wait_for_function("!document.querySelector('#tile-info .tile-loading')")
    text = page.inner_text("#tile-info")
    assert "Digit chances: not available: the computation exceeded the budget" in text
    assert "Mine: 11/36" in text  # the probabilities stay
