"""End to end, in Chromium: the position editor (inspect mode, edit tools, parse errors
beside the text), "Analyse this game", and the board on a phone (the scroll cue, taps
for open, flag and chord)."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import (
    Page,
    board_rows,
    cell,
    count_text,
    percent_text,
    shown_probabilities,
    start,
    with_hints,
)
from webtest_helpers import KNOWN, replay

from minesolver.analysis import analyze, fraction_text
from minesolver.position import FLAG, HIDDEN, Position, neighbour_table

pytest.importorskip("playwright.sync_api")

KNOWN_URL = "/?analyse=" + KNOWN.strip().replace("\n", "/")


def test_analyse_opens_in_inspect_mode(server: str, page: Page) -> None:
    page.goto(server + KNOWN_URL)
    page.wait_for_selector("#layout-count")
    tool = page.locator('#tools button[aria-checked="true"]')
    assert tool.get_attribute("data-tool") == "inspect"
    text = page.input_value("#position-text")
    expected = analyze(Position.from_text(KNOWN))
    assert page.inner_text("#safe-list") == "4 cells: " + " ".join(
        f"({x}, {y})" for x, y in sorted(expected.safe, key=lambda c: (c[1], c[0]))
    )
    assert page.inner_text("#mine-list") == "none"
    cell(page, 0, 1).click()  # inspect: the tile panel, and the board stays as it was
    panel = page.locator("#tile-info")
    assert panel.is_visible() and panel.get_attribute("data-x") == "0"
    assert f"Mine: {fraction_text(expected.probabilities[(0, 1)])}" in panel.inner_text()
    cell(page, 4, 4).click(button="right")
    assert page.input_value("#position-text") == text
    assert board_rows(page) == KNOWN.split()[1:]
    page.click('#tools button[data-tool="F"]')  # an edit tool, chosen explicitly
    cell(page, 4, 4).click()
    page.wait_for_function("state.rows[4][4] === 'F'")
    assert page.input_value("#position-text").split()[-1] == "000HF"


@pytest.mark.parametrize(
    ("bad", "line", "column", "words"),
    [
        ("5x5x5\nH2HHH\nHHHHH\n112HH\n00H9H\n000HH\n", 5, 4, "digit 9"),
        ("5x5x5\nH2HHH\nHHHH\n112HH\n00HHH\n000HH\n", 3, 5, "row has 4 cells"),
        ("5x5x5\nH2HHH\nHHHHH\n112HH\n00HZH\n000HH\n", 5, 4, "line 5, column 4"),
    ],
)
def test_a_parse_error_keeps_the_board_and_marks_the_line(
    server: str, page: Page, bad: str, line: int, column: int, words: str
) -> None:
    page.goto(server + KNOWN_URL)
    page.wait_for_selector("#layout-count")
    before_rows, before_p = board_rows(page), shown_probabilities(page)
    page.fill("#position-text", bad)  # typing: analysed after a short pause
    page.wait_for_function("document.querySelector('#position-error').textContent.length > 0")
    error = page.inner_text("#position-error")
    assert words in error and error.startswith(f"line {line}")
    mark = page.locator("#position-backdrop mark[data-line]")
    assert mark.get_attribute("data-line") == str(line)
    assert mark.inner_text().rstrip() == bad.splitlines()[line - 1]
    shown = page.evaluate("document.querySelector('#position-backdrop mark.col').textContent")
    assert shown == (bad.splitlines()[line - 1] + " ")[column - 1]  # one past the end: a gap
    assert page.get_attribute("#position-text", "aria-invalid") == "true"
    assert board_rows(page) == before_rows and shown_probabilities(page) == before_p
    assert page.locator("#board.stale").count() == 1
    assert page.inner_text("#error") == ""  # said beside the text, not under the board
    page.fill("#position-text", KNOWN.replace("H2HHH", "H1HHH"))
    page.wait_for_function("document.querySelector('#position-error').textContent === ''")
    page.wait_for_function("state.rows[0] === 'H1HHH'")
    assert page.locator("#board.stale, #position-backdrop mark").count() == 0


def test_analyse_this_game(server: str, page: Page) -> None:
    start(page, server, 8, (0, 0))
    local = replay("beginner", 8, "safe", (0, 0))
    page.click("#analyse-game")
    page.wait_for_selector("#layout-count")
    assert page.get_attribute("#tab-analyse", "aria-selected") == "true"
    assert page.input_value("#position-text") == local.view().to_text()
    expected = analyze(local.view())
    assert expected.layouts is not None
    assert page.inner_text("#layout-count") == count_text(expected.layouts)
    assert shown_probabilities(page) == {
        c: fraction_text(p) for c, p in expected.probabilities.items()
    }
    page.click("#tab-play")  # the game goes on where it was
    page.wait_for_function("state.mode === 'play'")
    assert board_rows(page) == local.view().to_text(header=False).splitlines()


def test_the_hint_line_says_how_many_layouts_remain(server: str, page: Page) -> None:
    expected = with_hints(page, server)
    assert expected.layouts is not None and expected.layouts > 1000
    line = page.inner_text("#hint-info")
    assert f"{count_text(expected.layouts)} possible layouts remain." in line
    safe, mines = len(expected.safe), len(expected.certain_mines)
    assert (
        f"{safe} certainly safe cell{'' if safe == 1 else 's'}, "
        f"{mines} certain mine{'' if mines == 1 else 's'}." in line
    )


def test_the_page_writes_counts_as_the_helper_does(server: str, page: Page) -> None:
    page.goto(server + KNOWN_URL)
    page.wait_for_selector("#layout-count")
    cases = [1, 72, 1234567, 10**15 - 1, 10**15, 2 * 10**40 + 5 * 10**38]
    shown = page.evaluate("ns => ns.map(countText)", [str(n) for n in cases])
    assert shown == [count_text(n) for n in cases]
    assert shown[3] == "999,999,999,999,999" and shown[5] == "2.050\u00a0\u00d7\u00a010\u2074\u2070"


def phone(browser: Any) -> Any:
    return browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )


def test_a_wide_board_shows_that_it_scrolls(server: str, browser: Any) -> None:
    context = phone(browser)
    page = context.new_page()
    page.goto(f"{server}/?level=expert")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 480")
    assert page.locator("#scroll-cue").is_visible()
    size = cell(page, 0, 0).bounding_box()
    assert size is not None and size["width"] >= 28  # big enough for a finger
    wrap = page.locator("#board-wrap")
    assert "scroll-right" in (wrap.get_attribute("class") or "")
    page.evaluate("(() => { const w = $('board-wrap'); w.scrollLeft = w.scrollWidth; })()")
    page.wait_for_function("$('board-wrap').classList.contains('scroll-left')")
    assert "scroll-right" not in (wrap.get_attribute("class") or "")
    page.goto(f"{server}/?level=beginner")  # a board that fits: no cue
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    assert not page.locator("#scroll-cue").is_visible()
    context.close()


def chord_target(seed: int) -> tuple[tuple[int, int], list[tuple[int, int]], list[tuple[int, int]]]:
    """In the seeded beginner game opened at (0, 0): a digit, its mines and the hidden safe
    neighbours a chord on it opens."""
    game = replay("beginner", seed, "safe", (0, 0))
    view, layout = game.view(), game.layout
    assert layout is not None
    table = neighbour_table(view.width, view.height)
    for i, value in enumerate(view.cells):
        if value in (HIDDEN, FLAG, 0):
            continue
        x, y = i % view.width, i // view.width
        around = [(j % view.width, j // view.width) for j in table[i]]
        mines = [c for c in around if layout.is_mine(c)]
        safe = [c for c in around if view[c] == HIDDEN and not layout.is_mine(c)]
        if safe and mines:
            return (x, y), mines, safe
    raise AssertionError("no cell to chord")


def test_taps_open_flag_and_chord_on_a_phone(server: str, browser: Any) -> None:
    context = phone(browser)
    page = context.new_page()
    page.goto(f"{server}/?seed=8&level=beginner&rule=safe")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    cell(page, 0, 0).tap()  # open
    page.wait_for_selector("#board .cell.open")
    digit, mines, safe = chord_target(8)
    page.locator("#flag-mode").tap()
    for x, y in mines:  # flag mode: a tap flags
        cell(page, x, y).tap()
        page.wait_for_function(f"state.game.board[{y}][{x}] === 'F'")
    page.locator("#flag-mode").tap()
    cell(page, *digit).tap()  # a tap on a digit chords
    for x, y in safe:
        page.wait_for_function(f"state.game.board[{y}][{x}] !== 'H'")
    assert page.evaluate("state.game.status") != "lost"
    context.close()


def test_a_loss_with_hints_on_says_the_losing_click_s_exact_risk(server: str, page: Page) -> None:
    expected = with_hints(page, server)
    local = replay("beginner", 8, "safe", (0, 0))
    assert local.layout is not None
    risky = [c for c, p in expected.probabilities.items() if 0 < p < 1]
    mine = next(c for c in risky if local.layout.is_mine(c))
    safest = min(expected.probabilities.values())
    cell(page, *mine).click()
    page.wait_for_selector("#status.lost")
    line = page.inner_text("#hint-info")
    p = expected.probabilities[mine]
    assert line.startswith(
        f"The losing click opened ({mine[0]}, {mine[1]}): its mine probability was "
        f"{fraction_text(p)} = {percent_text(p)}"
    )
    if safest == 0:  # said in words, not as 0 = 0.00%
        assert "was certainly safe." in line and "0.00%" not in line
    elif safest < p:
        assert f"had {fraction_text(safest)} = {percent_text(safest)}." in line
    assert "Review this game" in line and page.is_visible("#review-game")
