"""End to end, in Chromium: the page's words. Certain cells are said in words ("a certain
mine", "certainly safe"), never as 1 = 100.00% or 0 = 0.00%; counts agree with their nouns;
an empty list of the review says so in a line, not as a numbered "1. none"; a screenshot of
a lost game is analysed at once, its note not in the error colour."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from e2e_helpers import READ_BUDGET, READ_WAIT, Page, cell, start
from webtest_helpers import replay

from minesolver.analysis import analyze
from minesolver.replay import load

pytest.importorskip("playwright.sync_api")

VISION = Path(__file__).resolve().parents[1] / "data" / "vision"

SERVE_ARGS = ["--read-budget", str(READ_BUDGET)]
"""Reading a screenshot takes seconds of CPU: on a loaded machine more than the default
budget, which would refuse it."""


def test_counts_agree_with_their_nouns(server: str, page: Page) -> None:
    page.goto(f"{server}/?level=beginner")
    page.wait_for_function("state.game !== null")
    one = page.evaluate(
        "describeMove({layouts: '1', safe: [[0, 0]], mines_found: [[1, 1]], move: null})"
    )
    assert one == "1 certainly safe cell, 1 certain mine. 1 possible layout remains."
    many = page.evaluate(
        "describeMove({layouts: '1234', safe: [], mines_found: [[1, 1], [2, 2]], move: null})"
    )
    assert many == "0 certainly safe cells, 2 certain mines. 1,234 possible layouts remain."


def test_a_certain_mine_is_said_in_words(server: str, page: Page) -> None:
    seed = 10
    local = replay("beginner", seed, "safe", (0, 0))
    expected = analyze(local.view())
    mine = sorted(expected.certain_mines)[0]
    assert expected.safe  # a certainly safe cell was there to open
    start(page, server, seed, (0, 0))
    page.check("#hints")
    page.wait_for_selector("#board .cell.certain-mine")
    cell(page, *mine).click()
    page.wait_for_selector("#status.lost")
    line = page.inner_text("#hint-info")
    assert line.startswith(
        f"The losing click opened ({mine[0]}, {mine[1]}): it was a certain mine;"
    )
    assert "was certainly safe." in line
    assert "100.00%" not in line and "0.00%" not in line
    page.click("#review-game")
    page.wait_for_selector("#board .cell.action.exploded")
    assert page.inner_text("#review-risk") == "a certain mine"
    guesses = page.locator("#review-guesses li")
    assert guesses.count() == 1
    assert guesses.first.inner_text().endswith(
        f"open ({mine[0]}, {mine[1]}): a certain mine (lost)"
    )
    assert "%" not in page.inner_text("#review-guesses")
    assert not page.is_visible("#review-guesses-none")


def test_an_empty_list_is_a_line_not_a_numbered_none(server: str, page: Page) -> None:
    start(page, server, 8, (0, 0))  # a won game of certain moves: no guess, no wasted click
    page.check("#accept-guesses")
    page.fill("#speed", "20")
    page.click("#autoplay")
    page.wait_for_selector("#status.won, #status.lost", timeout=60_000)
    page.click("#review-game")
    page.wait_for_selector("#board .cell.action")
    guesses = int(page.evaluate("review.report.guesses"))
    for name, empty in (
        ("guesses", guesses == 0),
        ("wasted", not page.evaluate("review.report.wasted_clicks.length")),
    ):
        assert page.is_visible(f"#review-{name}") != empty
        assert page.is_visible(f"#review-{name}-none") == empty
        if empty:
            assert page.locator(f"#review-{name} li").count() == 0
            assert page.inner_text(f"#review-{name}-none").startswith("None: ")
    assert page.locator("#review-side li.none").count() == 0


def test_a_lost_game_s_screenshot_is_analysed_at_once(server: str, page: Page) -> None:
    pytest.importorskip("PIL")
    name = "web-beginner-lost-15"
    data = base64.b64encode((VISION / f"{name}.png").read_bytes()).decode()
    page.goto(f"{server}/?level=expert&analyse=3x3x1/HHH/HHH/HHH")
    page.wait_for_selector("#layout-count")
    assert page.input_value("#level") == "expert"
    page.evaluate(
        """b64 => {
          const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
          const dt = new DataTransfer();
          dt.items.add(new File([bytes], "lost.png", { type: "image/png" }));
          document.body.dispatchEvent(new ClipboardEvent("paste",
            { clipboardData: dt, bubbles: true, cancelable: true }));
        }""",
        data,
    )
    page.wait_for_function(
        "state.analysis && state.analysis.width === 9", timeout=READ_WAIT
    )  # no click: analysed as read
    status = page.locator("#vision-status")
    assert "The game is lost" in status.inner_text()
    assert "vision-error" not in (status.get_attribute("class") or "")
    colour = status.evaluate("e => getComputedStyle(e).color")
    error = page.eval_on_selector("#position-error", "e => getComputedStyle(e).color")
    assert colour != error  # a note, not an error
    assert page.input_value("#level") == "beginner"  # the face in Play starts this size
    flags = sum(row.count("F") for row in page.evaluate("state.rows"))
    assert page.inner_text("#mine-counter") == f"{10 - flags:03d}"  # mines less flags
    page.click("#tab-play")
    page.wait_for_selector("#play-panel:not([hidden])")
    page.click("#new-game")  # the face: a board of the screenshot's size
    page.wait_for_function("state.game && state.game.width === 9 && state.game.height === 9")


MARKS = """() => Array.from(document.querySelectorAll('#board .cell')).filter((e) => {
  const s = getComputedStyle(e);
  return s.boxShadow !== 'none' || (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0);
}).map((e) => [+e.dataset.x, +e.dataset.y])"""
"""The cells that carry a ring or an outline (the cursor's marks)."""


def test_one_quiet_cursor(server: str, page: Page) -> None:
    start(page, server, 8, (0, 0))
    page.check("#hints")
    page.wait_for_selector("#board .cell.best")
    cell(page, 8, 8).click(button="right")  # a mouse click leaves no mark in Play
    page.wait_for_function("state.game.board[8][8] === 'F'")
    assert page.evaluate(MARKS) == []
    page.keyboard.press("ArrowLeft")  # the keys show one ring, on the cursor's cell
    assert page.evaluate(MARKS) == [[7, 8]]
    ring = cell(page, 7, 8).evaluate("e => getComputedStyle(e).outlineStyle")
    assert ring == "none"  # no focus ring beside it
    best = page.locator("#board .cell.best")  # the best move keeps its own frame
    assert best.evaluate("e => getComputedStyle(e, '::before').borderTopColor") == "rgb(0, 56, 224)"
    cell(page, 3, 3).click()  # the mouse again: the ring goes
    page.wait_for_function("state.game.board[3][3] !== 'H' || state.game.status !== 'playing'")
    assert page.evaluate(MARKS) == []
    page.click("#tab-analyse")  # in Analyse the cursor is the cell the keys edit
    page.wait_for_selector("#layout-count")
    cell(page, 1, 1).click()
    assert page.evaluate(MARKS) == [[1, 1]]


def test_the_downloaded_game_reviews_as_the_page_did(
    server: str, page: Page, tmp_path: Path
) -> None:
    start(page, server, 21, (0, 0))
    page.click("#ai-move")  # one move by the AI, the rest by you
    page.wait_for_function("state.game.moves === 2")
    local = replay("beginner", 21, "safe", (0, 0))
    assert local.layout is not None
    mine = local.layout.cells()[0]
    if page.evaluate(f"state.game.board[{mine[1]}][{mine[0]}]") == "H":
        cell(page, *mine).click()  # lost by you
    page.wait_for_function("state.game.status !== 'playing'")
    page.click("#review-game")
    page.wait_for_selector("#board .cell.action")
    player = page.inner_text('#review-summary dd[data-key="Player"]')
    total = page.evaluate("state.moves.you + state.moves.ai")
    assert player == f"you, with 1 of {total} moves by the AI (AI moves)"
    shown = page.evaluate("review.report.positions.map((e) => [e.x, e.y, e.action, e.p])")
    page.click("#tab-play")
    with page.expect_download() as download:
        page.click("#download-evf")
    evf = tmp_path / "game.evf"
    evf.write_bytes(Path(download.value.path()).read_bytes())
    assert load(evf.read_bytes()).player == player  # the file names who played
    page.click("#tab-review")
    page.set_input_files("#replay-file", str(evf))
    page.wait_for_function("document.querySelector('#review-title').textContent === 'game.evf'")
    page.wait_for_selector("#board .cell.action")
    assert page.inner_text('#review-summary dd[data-key="Player"]') == player
    again = page.evaluate("review.report.positions.map((e) => [e.x, e.y, e.action, e.p])")
    assert again == shown  # every click graded alike, the first by the rule the file states
    assert page.evaluate("review.report.positions[0].first") is True
