"""End to end, in Chromium: the page's layout. The review's figures stand beside a 16x16
board at 1400 px (no wide gap between them) and below it on a phone, and the review's rows
of controls never wrap, at 1400 px or on a phone, nor do Play's. A loaded board (a layout
file, a replay) sets the level menu and the counters, and the face starts a board of its
size; Analyse frames its board with a mine counter, its tools in two tidy rows. Play shows
the seed of a finished game and takes a seed to lay the next boards from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import Page, cell
from replay_samples import SAMPLES
from webtest_helpers import replay

from minesolver.game import Layout, write_mbf

pytest.importorskip("playwright.sync_api")

SAMPLE = SAMPLES / "arbiter-beginner-24bv.avf"
"""A beginner game of Arbiter's (8x8, 10 mines) with flags: the counters change along it."""

ONE_LINE = """sel => {
  const boxes = Array.from(document.querySelectorAll(sel)).filter((e) => e.offsetParent)
    .map((e) => e.getBoundingClientRect());
  const top = Math.max(...boxes.map((b) => b.top));
  return boxes.length > 0 && top < Math.min(...boxes.map((b) => b.bottom));
}"""
"""Whether the visible elements matched share one line (every one's top above every
one's bottom)."""


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return dict(b)


def reviewed_game(page: Page, url: str) -> None:
    """A seeded intermediate game played to its end by autoplay, open in the review."""
    page.goto(f"{url}/?seed=5&level=intermediate&rule=safe")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 256")
    cell(page, 0, 0).tap() if page.evaluate("'ontouchstart' in window") else cell(
        page, 0, 0
    ).click()
    page.wait_for_selector("#board .cell.open")
    page.check("#accept-guesses")
    page.fill("#speed", "20")
    page.click("#autoplay")
    page.wait_for_selector("#status.won, #status.lost", timeout=60_000)
    page.click("#review-game")
    page.wait_for_selector("#board .cell.action")


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (375, 740)])
def test_the_review_beside_the_board_and_its_rows_on_one_line(
    server: str, browser: Any, width: int, height: int
) -> None:
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    reviewed_game(page, server)
    frame, side = box(page, "#board-frame"), box(page, "#review-side")
    if phone:
        assert side["y"] >= frame["y"] + frame["height"]  # the figures follow the board
    else:
        gap = side["x"] - (frame["x"] + frame["width"])
        assert 0 <= gap <= 24, gap  # beside the board, not across the page
        assert abs(side["y"] - frame["y"]) < 40
    assert page.locator(".review-steps > *").count() == 6  # four buttons, the slider, the count
    assert page.evaluate(ONE_LINE, ".review-steps > *")
    assert page.evaluate(ONE_LINE, "#review-panel > .row:first-child > *:not(:empty)")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


PLAY_ROWS = """() => Array.from(document.querySelectorAll('#play-panel .row'))
  .filter((row) => row.offsetParent).map((row) => {
    const boxes = Array.from(row.children).filter((e) => e.offsetParent)
      .map((e) => e.getBoundingClientRect());
    const r = row.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, n: boxes.length,
      line: Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom)),
      right: Math.max(...boxes.map((b) => b.right)) };
  })"""
"""Each visible row of Play's controls: its top and bottom, how many controls it shows,
whether they share one line, and the right edge of the last."""


def lines_of(rows: list[dict[str, Any]]) -> int:
    """How many lines the rows stand on (a row below every row of the line before starts
    a new one)."""
    lines, bottom = 0, -1.0
    for r in sorted(rows, key=lambda r: float(r["top"])):
        if r["top"] >= bottom:
            lines += 1
            bottom = r["bottom"]
        bottom = max(bottom, r["bottom"])
    return lines


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (375, 740)])
def test_play_s_controls_never_wrap(server: str, browser: Any, width: int, height: int) -> None:
    """Every row of Play's controls on one line, inside the window: at 1400 px the rows
    stand side by side in three lines; on a phone they stack, none cut off. Checked on a
    lost game (its review button shown) and with the custom size fields."""
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.goto(f"{server}/?seed=5&level=beginner&rule=safe")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    local = replay("beginner", 5, "safe", (0, 0))
    assert local.layout is not None
    for c in ((0, 0), local.layout.cells()[0]):  # open, then a mine: lost
        cell(page, *c).tap() if phone else cell(page, *c).click()
        page.wait_for_selector("#board .cell.open")
    page.wait_for_selector("#review-game:not([hidden])")
    for shown in ("a lost game", "the custom size"):
        rows = page.evaluate(PLAY_ROWS)
        assert len(rows) == (9 if shown == "the custom size" else 8), shown
        assert all(r["line"] and r["n"] >= 1 for r in rows), (shown, rows)
        assert max(r["right"] for r in rows) <= width, (shown, rows)
        assert lines_of(rows) == (len(rows) if phone else 3), (shown, rows)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.select_option("#level", "custom")
        page.wait_for_selector("#custom:not([hidden])")
    context.close()


def test_a_loaded_board_sets_the_level_and_the_counters(
    server: str, page: Page, tmp_path: Path
) -> None:
    layout = Layout(12, 10, tuple(range(0, 120, 8)))  # a custom size, 15 mines
    mbf = tmp_path / "board.mbf"
    mbf.write_bytes(write_mbf(layout))
    page.goto(f"{server}/?level=expert")
    page.wait_for_function("state.game && state.game.width === 30")
    page.set_input_files("#layout-file", str(mbf))
    page.wait_for_function("state.game.from_layout && state.game.width === 12")
    assert page.input_value("#level") == "custom"
    sizes = [page.input_value(f"#custom-{k}") for k in ("width", "height", "mines")]
    assert sizes == ["12", "10", "15"]
    assert page.inner_text("#mine-counter") == "015"
    page.click("#new-game")  # the face: a new board of that size
    page.wait_for_function("!state.game.from_layout")
    assert page.evaluate("[state.game.width, state.game.height, state.game.mines]") == [12, 10, 15]
    # a replay: its size in the level menu, its counters over the board
    page.click("#tab-review")
    page.set_input_files(
        "#replay-file",
        files=[
            {
                "name": SAMPLE.name,
                "mimeType": "application/octet-stream",
                "buffer": SAMPLE.read_bytes(),
            }
        ],
    )
    page.wait_for_selector("#board .cell.action")
    assert page.evaluate("[review.report.width, review.report.height]") == [8, 8]  # Arbiter's
    assert page.input_value("#level") == "custom"
    sizes = [page.input_value(f"#custom-{k}") for k in ("width", "height", "mines")]
    assert sizes == ["8", "8", "10"]
    assert page.is_visible("#mine-counter") and not page.is_visible("#new-game")
    for _ in range(3):
        rows = page.evaluate("state.rows")
        flags = sum(row.count("F") for row in rows)
        entry = page.evaluate("review.report.positions[review.step]")
        assert page.inner_text("#mine-counter") == f"{10 - flags:03d}"
        assert page.inner_text("#timer") == f"{int(entry['time']):03d}"
        page.keyboard.press("End")
    page.click("#tab-play")  # the game's own counters again
    page.wait_for_function("state.mode === 'play'")
    assert page.inner_text("#mine-counter") == "015"
    assert page.inner_text("#timer") == "000"
    page.click("#new-game")  # the face: a board of the replay's size
    page.wait_for_function("state.game.width === 8 && !state.game.from_layout")
    assert page.evaluate("[state.game.width, state.game.height, state.game.mines]") == [8, 8, 10]


def test_analyse_frames_its_board_with_a_mine_counter(server: str, page: Page) -> None:
    page.goto(f"{server}/?analyse=3x3x2/1FH/HHH/HHH")
    page.wait_for_selector("#layout-count")
    assert page.inner_text("#mine-counter") == "001"  # two mines, one flag
    frame, head = box(page, "#board-frame"), box(page, "#board-head")
    assert frame["y"] < head["y"] < box(page, "#board")["y"]  # over the board, in its frame
    assert not page.is_visible("#timer") and not page.is_visible("#new-game")
    page.click('#tools button[data-tool="F"]')
    cell(page, 2, 2).click()
    page.wait_for_function("document.querySelector('#mine-counter').textContent === '000'")
    # the tools: two rows (inspect, hidden, flag; the nine digits), none cut or crowded
    tops = page.eval_on_selector_all(
        "#tools button", "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 2 and tops.count(tops[-1]) == 9
    widths = page.eval_on_selector_all(
        "#tools button", "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert min(widths) >= 28


def test_the_seed_is_shown_and_editable_in_play(server: str, page: Page) -> None:
    page.goto(f"{server}/?level=beginner&rule=safe")
    page.wait_for_function("state.game !== null")
    assert (
        page.input_value("#seed") == "" and page.get_attribute("#seed", "placeholder") == "random"
    )
    cell(page, 0, 0).click()
    page.wait_for_selector("#board .cell.open")
    while page.evaluate("state.game.status") == "playing":
        hidden = page.evaluate(
            "(() => { const b = state.game.board; for (let y = 0; y < b.length; y++)"
            " for (let x = 0; x < b[y].length; x++) if (b[y][x] === 'H') return [x, y]; })()"
        )
        moves = page.evaluate("state.game.moves")
        cell(page, *hidden).click()
        page.wait_for_function(f"state.game.moves > {moves}")
    seed = page.evaluate("state.game.seed_text")
    assert seed and seed.isdigit()  # shown once the game is over, exact
    assert page.inner_text("#seed-again") == f"seed {seed}: play this board again"
    finished = sorted(map(tuple, page.evaluate("state.game.layout")))
    local = replay("beginner", int(seed), "safe", (0, 0))
    assert local.layout is not None and sorted(local.layout.cells()) == finished
    old = page.evaluate("state.game.id")
    page.click("#seed-again")  # the same board again, from its seed
    page.wait_for_function(f"state.game.id !== {old!r} && state.game.seeded")
    assert not page.is_visible("#seed-again")
    assert page.input_value("#seed") == seed
    cell(page, 0, 0).click()
    page.wait_for_selector("#board .cell.open")
    assert page.evaluate("state.game.board") == local.view().to_text(header=False).splitlines()
    old = page.evaluate("state.game.id")
    page.fill("#seed", "12x")  # not a seed: said, and no new game
    page.press("#seed", "Enter")
    page.wait_for_function("document.querySelector('#error').textContent.includes('seed')")
    assert page.evaluate("state.game.id") == old
    page.fill("#seed", "")  # empty: random again
    page.press("#seed", "Enter")
    page.wait_for_function(f"state.game.id !== {old!r} && !state.game.seeded")
    old = page.evaluate("state.game.id")
    page.fill("#seed", "7")  # a seed typed in
    page.press("#seed", "Enter")
    page.wait_for_function(f"state.game.id !== {old!r} && state.game.seeded")
    cell(page, 0, 0).click()
    page.wait_for_selector("#board .cell.open")
    sevens = replay("beginner", 7, "safe", (0, 0)).view().to_text(header=False).splitlines()
    assert page.evaluate("state.game.board") == sevens


def test_the_tile_size_is_the_player_s_choice(server: str, page: Page) -> None:
    page.goto(f"{server}/?level=expert")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 480")
    auto = box(page, "#board .cell >> nth=0")["width"]
    for value, size in (("20", 20), ("44", 44)):
        page.select_option("#tile-size", value)
        page.wait_for_function(f"document.querySelector('#board .cell').offsetWidth === {size}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1100  # the board scrolls
    page.reload()  # kept for the next visit
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 480")
    assert (
        page.input_value("#tile-size") == "44" and box(page, "#board .cell >> nth=0")["width"] == 44
    )
    page.select_option("#tile-size", "auto")
    page.wait_for_function(f"document.querySelector('#board .cell').offsetWidth === {auto}")


def test_hints_for_the_fewest_clicks(server: str, page: Page) -> None:
    page.goto(f"{server}/?seed=8&level=beginner&rule=safe")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    cell(page, 0, 0).click()
    page.wait_for_selector("#board .cell.open")
    page.check("#hints")
    page.wait_for_function("state.analysis && state.analysis.move.player === 'best'")
    page.select_option("#hint-player", "efficient")  # the move that saves clicks, framed
    page.wait_for_function("state.analysis && state.analysis.move.player === 'efficient'")
    move = page.evaluate("state.analysis.move")
    assert "best" in (cell(page, move["x"], move["y"]).get_attribute("class") or "")
    with page.expect_request(lambda r: "/ai" in r.url) as request:
        page.click("#ai-move")  # and the AI makes it
    assert "player=efficient" in request.value.url
    page.wait_for_function("state.game.moves === 2")
