"""End to end, the Play tab's frame and options, in Debian's Chromium: the keys after a
click on a control, the classic frame around the board, the quiet mark of a certain mine,
one risk scale (filled beside the digits, a dot away from them), no-guess games, autoplay
that stops before a guess, the game's files (EVF replay, MBF board) and a board played
again from its file; and the small things: the tile panel of a corner cell, Analyse at
1280x900, a refused custom size, a new game right after a level change, the losing click's
line, big counts, the review's first click, player and flags.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import Page, cell, start, with_hints
from webtest_helpers import replay

from minesolver.game import read_mbf
from minesolver.position import HIDDEN
from minesolver.replay import load

pytest.importorskip("playwright.sync_api")

LIGHTNESS = """el => {
  const [r, g, b] = getComputedStyle(el).backgroundColor.match(/\\d+/g).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return dict(b)


def test_shortcuts_work_after_a_click_on_a_control(server: str, page: Page) -> None:
    start(page, server, 21, (0, 0))
    page.click("#hints")  # the focus is now on the Hints box
    page.wait_for_selector("#board .cell.best")
    moves = page.evaluate("state.game.moves")
    page.keyboard.press("a")
    page.wait_for_function(f"state.game.moves > {moves}")
    page.click("#speed")  # the speed slider
    page.keyboard.press("h")
    page.wait_for_function("!document.querySelector('#hints').checked")
    page.focus("#level")  # the level menu, as a click leaves it
    old = page.evaluate("state.game.id")
    page.keyboard.press("n")
    page.wait_for_function(f"state.game.id !== {old!r}")
    assert page.input_value("#level") == "beginner"  # the key did not pick an option
    page.click("#tab-analyse")
    page.click("#position-text")  # in a text field, the letters are text
    page.keyboard.press("n")
    assert "n" in page.input_value("#position-text")


def test_the_board_is_framed_with_counter_face_and_timer(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/?seed=3&level=beginner")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    frame, board = box(page, "#board-frame"), box(page, "#board")
    counter, face, timer = box(page, "#mine-counter"), box(page, "#new-game"), box(page, "#timer")
    assert frame["width"] < board["width"] + 40  # sized to the board
    assert abs(counter["x"] - board["x"]) < 20
    assert abs(timer["x"] + timer["width"] - board["x"] - board["width"]) < 20
    middle = board["x"] + board["width"] / 2
    assert abs(face["x"] + face["width"] / 2 - middle) < 3
    for b in (counter, face, timer):
        assert b["y"] + b["height"] <= board["y"] and board["y"] - b["y"] < 60  # on top of it
    old = page.evaluate("state.game.id")
    page.click("#new-game")  # the face starts a new game
    page.wait_for_function(f"state.game.id !== {old!r}")
    context.close()


def test_certain_mines_are_marked_quietly_and_mines_burst_only_when_lost(
    server: str, page: Page
) -> None:
    page.goto(f"{server}/?analyse=3x2x1/1HH/HHH")
    page.goto(f"{server}/?analyse=2x1x1/1H")
    page.wait_for_selector("#board .cell.certain-mine")
    mine = page.locator("#board .cell.certain-mine")
    plain = "rgb(192, 192, 192)"
    assert mine.evaluate("e => getComputedStyle(e).backgroundColor") == plain  # the plain tile
    after = mine.evaluate("e => getComputedStyle(e, '::after').content")
    assert after in ('""', "none", "normal")  # no burst: a corner drawn by its border
    corner = mine.evaluate("e => getComputedStyle(e, '::after').borderRightColor")
    assert corner.startswith("rgb(200, 16, 46)")
    start(page, server, 5, (0, 0))
    local = replay("beginner", 5, "safe", (0, 0))
    assert local.layout is not None
    cell(page, *local.layout.cells()[0]).click()
    page.wait_for_selector("#status.lost")
    burst = page.locator("#board .cell.mine").first.evaluate(
        "e => getComputedStyle(e, '::after').content"
    )
    assert "\u2739" in burst


def test_one_scale_filled_beside_the_digits_and_a_dot_away_from_them(
    server: str, page: Page
) -> None:
    expected = with_hints(page, server)
    view = replay("beginner", 8, "safe", (0, 0)).view()
    risky = {c: p for c, p in expected.probabilities.items() if 0 < p < 1}
    interior = [c for c in risky if not any(view[n] >= 0 for n in view.neighbours(c))]
    frontier = [c for c in risky if c not in interior]
    assert interior and frontier  # both kinds are on the board
    shade = {c: cell(page, *c).evaluate(LIGHTNESS) for c in frontier}
    for c, d in itertools.combinations(frontier, 2):
        p, q = risky[c], risky[d]
        if p == q:
            assert shade[c] == shade[d], (c, d)  # equal risk looks equal
        else:
            assert (shade[c] > shade[d]) == (p < q), (c, p, d, q)  # a riskier cell is darker
    plain = "rgb(192, 192, 192)"
    for c in interior:  # the plain tile, with a dot of the scale's colour for its risk
        el = cell(page, *c)
        assert el.evaluate("e => getComputedStyle(e).backgroundColor") == plain
        dot = el.evaluate("e => getComputedStyle(e, '::after').backgroundColor")
        assert dot == page.evaluate(f"heat({float(risky[c])})")
    demo = page.locator("#interior-demo").evaluate(
        "e => getComputedStyle(e, '::after').backgroundColor"
    )
    assert demo == cell(page, *interior[0]).evaluate(
        "e => getComputedStyle(e, '::after').backgroundColor"
    )  # the legend's swatch is the cells' look


def test_a_no_guess_game_is_won_by_autoplay_without_a_guess(server: str, page: Page) -> None:
    page.goto(f"{server}/?seed=4&level=intermediate")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 256")
    page.check("#no-guess")
    page.wait_for_function("state.game.no_guess === true")
    assert page.inner_text("#seeded") == "seeded"  # a seeded game says so first
    cell(page, 8, 8).click()
    page.wait_for_selector("#board .cell.open")
    assert not page.is_checked("#accept-guesses")  # autoplay stops before any guess
    page.fill("#speed", "20")
    page.click("#autoplay")
    page.wait_for_selector("#status.won, #status.lost", timeout=60_000)
    assert page.evaluate("state.game.status") == "won"
    assert page.evaluate("state.stopGuess") is None


def test_autoplay_stops_before_a_guess_unless_guesses_are_accepted(server: str, page: Page) -> None:
    start(page, server, 2, (0, 0))
    page.fill("#speed", "20")
    page.click("#autoplay")
    page.wait_for_function("document.querySelector('#hint-info').dataset.stop === 'guess'")
    assert page.get_attribute("#autoplay", "aria-pressed") == "false"
    assert page.evaluate("state.game.status") == "playing"
    move = page.evaluate("state.stopGuess.move")
    assert move["guess"] and move["risk"] > 0
    framed = cell(page, move["x"], move["y"])
    assert "best" in (framed.get_attribute("class") or "")  # the guess it stopped before
    assert page.evaluate(f"state.game.board[{move['y']}][{move['x']}]") == "H"
    assert "Autoplay stopped before a guess" in page.inner_text("#hint-info")
    page.check("#accept-guesses")
    page.click("#autoplay")
    page.wait_for_selector("#status.won, #status.lost", timeout=60_000)


def test_download_the_game_and_play_its_board_again(
    server: str, page: Page, tmp_path: Path
) -> None:
    start(page, server, 5, (0, 0))
    local = replay("beginner", 5, "safe", (0, 0))
    assert local.layout is not None
    with page.expect_download() as evf_download:
        page.click("#download-evf")
    evf = Path(evf_download.value.path()).read_bytes()
    assert evf_download.value.suggested_filename.endswith(".evf")
    assert load(evf).layout == local.layout
    page.wait_for_function("state.game.revealed === true")
    assert page.inner_text("#seeded") == "mines downloaded"  # the game says its mines left
    with page.expect_download() as mbf_download:
        page.click("#download-mbf")
    mbf = tmp_path / "board.mbf"
    mbf.write_bytes(Path(mbf_download.value.path()).read_bytes())
    assert read_mbf(mbf.read_bytes())[0] == local.layout
    old = page.evaluate("state.game.id")
    page.set_input_files("#layout-file", str(mbf))
    page.wait_for_function(f"state.game.id !== {old!r} && state.game.from_layout")
    assert page.inner_text("#seeded") == "board from a file"
    cell(page, 0, 0).click()
    page.wait_for_function("state.game.started")
    assert page.evaluate("state.game.board") == local.view().to_text(header=False).splitlines()


def test_the_tile_panel_of_a_corner_cell_leaves_the_controls_free(
    server: str, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    start(page, server, 1, (4, 4))
    assert replay("beginner", 1, "safe", (4, 4)).view()[(0, 0)] == HIDDEN
    page.check("#hints")
    page.wait_for_selector("#board .cell.best")
    cell(page, 0, 0).hover()
    page.wait_for_function("!document.querySelector('#tile-info').hidden")
    panel = box(page, "#tile-info")
    controls = page.eval_on_selector_all(
        "#play-panel button, #play-panel input, #play-panel select, #board-head",
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().toJSON())",
    )
    for c in controls:
        apart = (
            c["right"] <= panel["x"]
            or c["left"] >= panel["x"] + panel["width"]
            or c["bottom"] <= panel["y"]
            or c["top"] >= panel["y"] + panel["height"]
        )
        assert apart, (c, panel)
    context.close()


def test_analyse_keeps_the_board_in_view_at_1280_by_900(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    text = (Path(__file__).resolve().parents[2] / "examples" / "expert-midgame.txt").read_text()
    page.goto(server)
    page.click("#tab-analyse")
    page.fill("#position-text", text)
    page.click("#analyse-button")
    page.wait_for_function("state.analysis && state.analysis.width === 30")
    board = box(page, "#board")
    assert board["y"] + board["height"] <= 900
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    count = page.inner_text("#layout-count")  # a big count: a superscript power, one line
    assert re.fullmatch(
        "\\d\\.\\d{3}\u00a0\u00d7\u00a010[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+", count
    )
    assert "^" not in page.inner_text("#hint-info")
    context.close()


def test_a_refused_custom_size_leaves_the_fields_telling_the_truth(server: str, page: Page) -> None:
    page.goto(f"{server}/?level=custom")
    page.wait_for_function("state.game !== null")
    before = page.evaluate("[state.game.width, state.game.height, state.game.mines]")
    page.fill("#custom-width", "100")
    page.fill("#custom-height", "100")
    page.fill("#custom-mines", "20")
    page.click("#new-game")
    page.wait_for_function("document.querySelector('#error').textContent.length > 0")
    assert "limit" in page.inner_text("#error")
    shown = [int(page.input_value(f"#custom-{k}")) for k in ("width", "height", "mines")]
    assert shown == before  # the board on the page


def test_a_new_game_right_after_a_level_change_deletes_each_game_once(
    server: str, page: Page
) -> None:
    statuses: list[int] = []
    page.on(
        "response", lambda r: statuses.append(r.status) if r.request.method == "DELETE" else None
    )
    # a slow server: the level change's new game is still on its way when the face is clicked
    page.add_init_script(
        "const f = window.fetch; window.fetch = async (u, o) => {"
        " if (String(u).endsWith('/api/games') && o && o.method === 'POST')"
        " await new Promise((r) => setTimeout(r, 400)); return f(u, o); };"
    )
    page.goto(f"{server}/?level=beginner")
    page.wait_for_function("state.game !== null")
    first = page.evaluate("state.game.id")
    page.select_option("#level", "intermediate")
    page.click("#new-game")
    page.wait_for_function(f"state.game.width === 16 && state.game.id !== {first!r}")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 256")
    page.wait_for_timeout(800)  # both games replaced: two deletions, each answered
    assert len(statuses) == 2 and all(s == 204 for s in statuses), statuses


def test_the_review_of_a_lost_game_and_the_way_back(server: str, page: Page) -> None:
    start(page, server, 5, (0, 0))
    local = replay("beginner", 5, "safe", (0, 0))
    assert local.layout is not None
    page.check("#hints")
    page.wait_for_selector("#board .cell.best")
    a = page.evaluate("state.analysis")
    risky = {(c["x"], c["y"]) for c in a["cells"] if 0 < c["prob"] < 1}
    mines = [c for c in local.layout.cells() if c in risky]
    flagged, loser = mines[0], mines[1]
    cell(page, *flagged).click(button="right")  # a flag on a cell that is not certain
    page.wait_for_function(f"state.game.board[{flagged[1]}][{flagged[0]}] === 'F'")
    page.wait_for_selector("#board .cell.best")
    cell(page, *loser).click()
    page.wait_for_selector("#status.lost")
    line = page.inner_text("#hint-info")
    assert line.startswith("The losing click opened")
    page.click("#review-game")
    page.wait_for_selector("#board .cell.action.exploded")
    assert page.inner_text('#review-summary dd[data-key="Player"]') == "you"
    f = cell(page, *flagged)  # the grader gives the flag a probability: it is tinted
    assert f.get_attribute("data-p") and f.evaluate(
        "e => e.style.getPropertyValue('--tint')"
    ).startswith("rgb(")
    interior = page.locator("#board .cell.interior").count()
    assert page.is_visible("#legend-interior") == (interior > 0)  # said only when there
    page.click("#review-first")  # the first click, graded by the game's rule
    page.wait_for_function("review.step === 0")
    action = page.inner_text("#review-action")
    assert action.startswith("The first click") and "(0, 0)" in action
    assert "certainly safe" in action
    page.click("#tab-play")
    page.wait_for_function("document.querySelector('#hint-info').textContent.length > 0")
    assert page.inner_text("#hint-info") == line  # the losing click's line is back
