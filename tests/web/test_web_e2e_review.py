"""End to end: the Replays view in Chromium. A real replay is opened (file input or a drop),
stepped through with the keyboard, the slider, the buttons and the list of guesses; at each
step the page must show what :mod:`minesolver.replay` grades locally from the same bytes:
the position, its exact probabilities, the click marked with its exact risk. A finished
game of the Play tab is reviewed the same way, its losing click marked as the explosion."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import Page, board_rows, cell, check_cell, shown_probabilities, start
from replay_samples import SAMPLES
from webtest_helpers import replay

from minesolver.analysis import analyze, fraction_text
from minesolver.position import Position
from minesolver.replay import grade_replay, load
from minesolver.strategy.outcomes import tile_outcomes
from minesolver.ui.json_shapes import positions_json
from minesolver.ui.json_shapes import replay_json as to_json

pytest.importorskip("playwright.sync_api")

SAMPLE = SAMPLES / "arbiter-beginner-24bv.avf"
"""A beginner game with guesses (one of them needless), flags and chords."""


def graded(data: bytes) -> dict[str, Any]:
    """The library's grading of a replay file, as the API's JSON (report and positions)."""
    analysis = grade_replay(load(data))
    report = to_json(analysis)
    report["positions"] = positions_json(analysis)
    out: dict[str, Any] = json.loads(json.dumps(report))
    return out


def percent(p: str) -> str:
    """An exact probability ``"n/d"`` as a percentage with two decimals, rounded half up."""
    n, d = (int(v) for v in p.split("/")) if "/" in p else (int(p), 1)
    q = (n * 20000 + d) // (2 * d)
    return f"{q // 100}.{q % 100:02d}%"


def risk_text(entry: dict[str, Any]) -> str:
    """What the page must say of a graded click's risk."""
    p = entry["p"]
    if p == "0":
        return "certainly safe"
    if p == "1":
        return "a certain mine"  # not "1 = 100.00% risk"
    what = "needless guess" if entry["needless"] else "guess"
    exact = f"{p} = {percent(p)}" if len(p) <= 12 else percent(p)  # long: the title has it
    return f"{what}, {exact} risk"


def step(page: Page) -> int:
    return int(page.evaluate("review.step"))


def open_sample(page: Page, url: str, data: bytes) -> None:
    page.goto(url)
    page.click("#tab-review")
    page.set_input_files(
        "#replay-file",
        files=[{"name": SAMPLE.name, "mimeType": "application/octet-stream", "buffer": data}],
    )
    page.wait_for_selector("#board .cell.action")


def assert_step_shown(page: Page, k: int, entry: dict[str, Any]) -> None:
    """The page shows step ``k``: its position, its probabilities, its click and risk."""
    page.wait_for_function(f"review.step === {k}")
    rows = entry["position"].splitlines()[1:]
    assert board_rows(page) == rows
    cells = {(c["x"], c["y"]): c["p"] for c in entry["analysis"]["cells"]}
    assert shown_probabilities(page) == cells  # the player's flags too: graded as unknown
    marked = page.eval_on_selector_all(
        "#board .cell.action", "els => els.map(e => [+e.dataset.x, +e.dataset.y])"
    )
    assert marked == [[entry["x"], entry["y"]]]
    assert page.inner_text("#review-risk") == risk_text(entry)
    assert page.get_attribute("#review-risk", "title") == f"mine probability {entry['p']}"
    kind = "safe" if entry["p"] == "0" else None
    if kind:
        assert "risk-safe" in (cell(page, entry["x"], entry["y"]).get_attribute("class") or "")
    if entry.get("best"):
        best = entry["best"]
        assert "best" in (cell(page, best["x"], best["y"]).get_attribute("class") or "")
    assert page.input_value("#review-slider") == str(k)


def test_stepping_through_a_replay_shows_each_graded_position(server: str, page: Page) -> None:
    data = SAMPLE.read_bytes()
    expected = graded(data)
    positions = expected["positions"]
    assert len(positions) > 10 and expected["guesses"] >= 2
    open_sample(page, server, data)
    got = page.evaluate("review.report")
    assert {k: v for k, v in got.items() if k != "positions"} == {
        k: v for k, v in expected.items() if k != "positions"
    }
    assert_step_shown(page, 0, positions[0])
    page.keyboard.press("ArrowRight")
    assert_step_shown(page, 1, positions[1])
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert_step_shown(page, 1, positions[1])
    page.keyboard.press("End")
    last = len(positions) - 1
    assert_step_shown(page, last, positions[last])
    page.keyboard.press("ArrowRight")  # past the end: stays
    assert step(page) == last
    page.keyboard.press("Home")
    # an AVF file states no first-click rule: its first click stays ungraded
    assert_step_shown(page, 0, positions[0])
    assert not page.inner_text("#review-action").startswith("The first click")
    middle = len(positions) // 2
    page.fill("#review-slider", str(middle))
    assert_step_shown(page, middle, positions[middle])
    page.click("#review-next")
    assert_step_shown(page, middle + 1, positions[middle + 1])
    page.click("#review-first")
    assert step(page) == 0
    # every guess is listed, coloured by its risk; a click on one goes to its step
    guesses = [k for k, e in enumerate(positions) if e["guess"]]
    items = page.locator("#review-guesses li")
    assert items.count() == len(guesses) == expected["guesses"]
    for i, k in enumerate(guesses):
        assert risk_text(positions[k]) in items.nth(i).inner_text()
    items.nth(len(guesses) - 1).locator("button").click()
    assert_step_shown(page, guesses[-1], positions[guesses[-1]])
    needless = [k for k in guesses if positions[k]["needless"]]
    assert needless, "the sample has a needless guess"
    items.nth(guesses.index(needless[0])).locator("button").click()
    assert_step_shown(page, needless[0], positions[needless[0]])
    assert "needless guess" in page.inner_text("#review-risk")
    assert "needless" in (page.get_attribute("#board .cell.action", "class") or "")


def test_the_figures_beside_the_board(server: str, page: Page) -> None:
    data = SAMPLE.read_bytes()
    expected = graded(data)
    open_sample(page, server, data)
    figures = dict(
        zip(
            page.locator("#review-summary dt").all_inner_texts(),
            page.locator("#review-summary dd").all_inner_texts(),
            strict=True,
        )
    )
    assert figures["Player"] == expected["player"]
    board = f"{expected['width']}\N{MULTIPLICATION SIGN}{expected['height']}"
    assert figures["Board"] == f"{board}, {expected['mines']} mines"
    assert figures["Result"] == "won"
    assert figures["3BV"].startswith(str(expected["bbbv"]))
    assert figures["3BV/s"] == f"{expected['bbbv_per_second']:.3f}"
    assert figures["IOE"] == f"{expected['ioe']:.3f}"
    assert figures["Correctness"] == f"{expected['correctness']:.3f}"
    assert figures["Pluck"] == f"{expected['pluck']:.4f}"
    assert figures["Guesses"] == f"{expected['guesses']}, {expected['needless_guesses']} needless"
    assert f"{expected['clicks']['total']} in all" in figures["Clicks"]
    assert page.inner_text("#review-title") == SAMPLE.name


def test_the_tile_panel_works_on_the_review_board(server: str, page: Page) -> None:
    data = SAMPLE.read_bytes()
    positions = graded(data)["positions"]
    open_sample(page, server, data)
    page.locator("#review-guesses li button").first.click()  # a position with risky cells
    entry = next(e for e in positions if e["guess"])
    rows = entry["position"].splitlines()[1:]
    risky = next(
        c
        for c in entry["analysis"]["cells"]
        if c["p"] not in ("0", "1") and rows[c["y"]][c["x"]] == "H"
    )
    cell(page, risky["x"], risky["y"]).hover()
    page.wait_for_function(
        f"!document.querySelector('#tile-info').hidden && "
        f"document.querySelector('#tile-info').dataset.x === '{risky['x']}' && "
        f"document.querySelector('#tile-info').dataset.y === '{risky['y']}'"
    )
    assert f"Mine: {risky['p']} = {percent(risky['p'])}" in page.inner_text("#tile-info")
    # the digit chances of the graded position: the player's flags untrusted (hidden)
    untrusted = Position.from_text(entry["position"].replace("F", "H"))
    check_cell(page, analyze(untrusted), (risky["x"], risky["y"]))
    rows = board_rows(page)
    cell(page, risky["x"], risky["y"]).click()  # the review board is not played on
    assert board_rows(page) == rows


def test_a_file_dropped_on_the_play_tab_opens_in_the_replays_view(server: str, page: Page) -> None:
    data = SAMPLE.read_bytes()
    positions = graded(data)["positions"]
    page.goto(server)
    page.wait_for_selector("#board .cell")
    assert page.evaluate("state.mode") == "play"
    page.evaluate(
        """([bytes, name]) => {
            const dt = new DataTransfer();
            dt.items.add(new File([new Uint8Array(bytes)], name));
            const init = { dataTransfer: dt, bubbles: true, cancelable: true };
            for (const kind of ["dragenter", "dragover", "drop"]) {
                document.querySelector("#board").dispatchEvent(new DragEvent(kind, init));
            }
        }""",
        [list(data), SAMPLE.name],
    )
    page.wait_for_selector("#board .cell.action")
    assert page.evaluate("state.mode") == "review"
    assert page.get_attribute("#tab-review", "aria-selected") == "true"
    assert page.is_hidden("#play-panel")
    assert_step_shown(page, 0, positions[0])


def test_a_bad_file_says_why_and_keeps_the_page(server: str, page: Page) -> None:
    data = SAMPLE.read_bytes()
    positions = graded(data)["positions"]
    open_sample(page, server, data)
    page.keyboard.press("ArrowRight")
    assert_step_shown(page, 1, positions[1])
    broken = {"name": "broken.avf", "mimeType": "application/octet-stream", "buffer": data[:300]}
    page.set_input_files("#replay-file", files=[broken])
    page.wait_for_function("document.querySelector('#review-error').textContent !== ''")
    error = page.inner_text("#review-error")  # beside the file picker, naming the file
    assert error.startswith("broken.avf was not graded: avf replay, byte")
    assert "Traceback" not in error
    assert "\n" not in error.strip()
    assert_step_shown(page, 1, positions[1])  # the replay shown before stays
    assert page.inner_text("#review-title") == SAMPLE.name


def test_review_after_a_loss_marks_the_losing_click_with_its_risk(server: str, page: Page) -> None:
    start(page, server, 5, (0, 0))
    local = replay("beginner", 5, "safe", (0, 0))
    assert local.layout is not None
    assert page.is_hidden("#review-game")
    mine = local.layout.cells()[0]
    cell(page, *mine).click()
    page.wait_for_selector("#status.lost")
    game_id = page.evaluate("state.game.id")
    evf = page.request.get(f"{server}/api/games/{game_id}/replay")
    assert evf.ok
    expected = graded(evf.body())
    positions = expected["positions"]
    page.click("#review-game")
    page.wait_for_selector("#board .cell.action.exploded")
    last = len(positions) - 1
    # the page's steps: the first click (graded by the game's rule, which its file states),
    # then the others
    assert_step_shown(page, last + 1, positions[last])  # it opens on the losing click
    entry = positions[last]
    assert (entry["x"], entry["y"]) == mine and entry["guess"]
    assert board_rows(page) == local.view().to_text(header=False).splitlines()
    assert "losing click" in page.inner_text("#review-action")
    assert page.evaluate("review.report.status") == "lost"
    pluck = page.inner_text('#review-summary dd[data-key="Pluck"]')
    assert pluck == "infinite (lost)"
    # the hints stay on the final board: every hidden cell has its probability
    assert len(shown_probabilities(page)) == sum(row.count("H") for row in board_rows(page))
    page.keyboard.press("Home")
    page.wait_for_function("review.step === 0")
    assert page.inner_text("#review-action").startswith("The first click")
    page.keyboard.press("ArrowRight")
    assert_step_shown(page, 1, positions[0])
    page.click("#tab-play")  # the lost game is still there
    page.wait_for_selector("#board .cell.exploded")
    assert page.evaluate("state.game.status") == "lost"


def test_on_a_phone_the_figures_follow_the_board(server: str, browser: Any) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    data = SAMPLE.read_bytes()
    open_sample(page, server, data)
    board_box = page.locator("#board").bounding_box()
    side_box = page.locator("#review-side").bounding_box()
    assert board_box is not None and side_box is not None
    assert side_box["y"] >= board_box["y"] + board_box["height"]  # below the board
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scroll
    page.tap("#review-next")
    page.wait_for_function("review.step === 1")
    page.tap("#tab-play")
    page.wait_for_selector("#play-panel:not([hidden])")
    assert page.is_hidden("#review-side")
    context.close()


def test_the_tile_panel_of_a_position_with_flags_leaves_them_untrusted(
    server: str, page: Page
) -> None:
    # this player flagged cells before any digit proved them: trusting the flags would
    # give other chances than the grader's
    data = (SAMPLES / "vienna-rmv2_16px_preflags.rmv").read_bytes()
    positions = graded(data)["positions"]
    k = next(i for i, e in enumerate(positions) if "F" in e["position"])
    entry = positions[k]
    open_sample(page, server, data)
    page.keyboard.press("Home")
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    assert_step_shown(page, k, entry)
    rows = entry["position"].splitlines()[1:]
    trusted = analyze(Position.from_text(entry["position"]))
    untrusted = analyze(Position.from_text(entry["position"].replace("F", "H")))
    assert untrusted.probabilities == {
        (c["x"], c["y"]): Fraction(c["p"]) for c in entry["analysis"]["cells"]
    }  # the grader's analysis is that of the flags taken as hidden cells
    differ = [
        c
        for c, p in untrusted.probabilities.items()
        if 0 < p < 1
        and rows[c[1]][c[0]] == "H"
        and tile_outcomes(untrusted, c).digits != tile_outcomes(trusted, c).digits
    ]
    assert differ
    check_cell(page, untrusted, differ[0])
    # a flag of the player's: the grader's probability of it (it is not taken as a mine)
    flag = next((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "F")
    p = untrusted.probabilities[flag]
    cell(page, *flag).hover()
    page.wait_for_function(
        f"(() => {{ const t = document.querySelector('#tile-info'); return !t.hidden && "
        f"t.dataset.x === '{flag[0]}' && t.dataset.y === '{flag[1]}'; }})()"
    )
    if 0 < p < 1:
        assert f"Mine: {fraction_text(p)}" in page.inner_text("#tile-info")
    assert cell(page, *flag).get_attribute("data-p") == fraction_text(p)


def review_shown(page: Page) -> dict[str, Any]:
    """What the review shows: its figures (but the fewest clicks, whose safety deadline
    depends on the load), its steps (click, risk) and its list of guesses."""
    rows = page.eval_on_selector_all(
        "#review-summary dd", "els => els.map(e => [e.dataset.key, e.textContent])"
    )
    steps = page.evaluate("review.report.positions.map(e => [e.action, e.x, e.y, e.p, !!e.first])")
    page.keyboard.press("Home")
    page.wait_for_function("review.step === 0")
    return {
        "figures": {k: v for k, v in rows if k not in ("Fewest clicks", "Efficiency")},
        "steps": steps,
        "count": page.inner_text("#review-count"),
        "first": page.inner_text("#review-action"),
        "guesses": page.inner_text("#review-guesses"),
    }


def test_a_downloaded_game_reviews_as_the_page_did(server: str, page: Page) -> None:
    """A game played in the page (an unprotected first click, moves by the AI), reviewed,
    downloaded and the file opened back: the same graded clicks, player and figures."""
    page.goto(f"{server}/?seed=12&level=beginner&rule=none")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    cell(page, 4, 4).click()  # seed 12: no mine there
    page.wait_for_selector("#board .cell.open")
    for k in (2, 3):
        page.click("#ai-move")
        page.wait_for_function(f"state.game.moves >= {k} || state.game.status !== 'playing'")
    page.check("#accept-guesses")
    page.fill("#speed", "20")
    page.click("#autoplay")
    page.wait_for_selector("#status.won, #status.lost", timeout=60_000)
    page.click("#review-game")
    page.wait_for_function("review.report !== null && review.report.status !== 'playing'")
    page.wait_for_selector("#board .cell.action")
    in_page = review_shown(page)
    assert in_page["figures"]["Player"].startswith("you, with ")
    assert in_page["figures"]["First click"] == "unprotected (may hit a mine)"
    assert in_page["steps"][0] == ["open", 4, 4, "10/81", True]  # the first click, a guess
    assert in_page["first"].startswith("The first click, at") and "guess, 10/81" in in_page["first"]
    page.click("#tab-play")
    with page.expect_download() as download:
        page.click("#download-evf")
    data = Path(download.value.path()).read_bytes()
    page.click("#tab-review")
    page.set_input_files(
        "#replay-file",
        files=[{"name": "game.evf", "mimeType": "application/octet-stream", "buffer": data}],
    )
    page.wait_for_function("document.querySelector('#review-title').textContent === 'game.evf'")
    page.wait_for_selector("#board .cell.action")
    assert review_shown(page) == in_page
