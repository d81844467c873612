"""End to end: ``minesolver serve`` in a subprocess, the page in Debian's Chromium.

Games are seeded through the page's ``?seed=N`` parameter, and the same game is replayed
here with :mod:`minesolver.game` to know where the mines are: the test plays a real game
the way a user would, then checks what the page shows against the engine.
"""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import (
    Page,
    board_rows,
    cell,
    percent_text,
    shown_probabilities,
    start,
    with_hints,
)
from webtest_helpers import KNOWN, replay

from minesolver.analysis import analyze, fraction_text
from minesolver.game import Move
from minesolver.position import HIDDEN, Position

pytest.importorskip("playwright.sync_api")


def test_reveal_flag_and_lose(server: str, page: Page) -> None:
    start(page, server, 5, (0, 0))
    local = replay("beginner", 5, "safe", (0, 0))
    assert board_rows(page) == local.view().to_text(header=False).splitlines()
    assert local.layout is not None
    (mx, my), (lx, ly) = local.layout.cells()[:2]
    cell(page, mx, my).click(button="right")
    page.wait_for_selector(f'#board .cell.flag[data-x="{mx}"][data-y="{my}"]')
    assert page.inner_text("#mine-counter") == "009"
    cell(page, lx, ly).click()
    page.wait_for_selector("#status.lost")
    assert "lost" in page.inner_text("#status")
    assert page.locator("#board.lost").count() == 1
    assert page.locator("#board .cell.exploded").count() == 1
    assert page.locator("#board .cell.mine").count() == 9  # the flagged one keeps its flag


def test_win_by_opening_every_safe_cell(server: str, page: Page) -> None:
    start(page, server, 3, (4, 4))
    local = replay("beginner", 3, "safe", (4, 4))
    assert local.layout is not None
    for x, y in local.view():
        if local.outcome.status == "playing" and local.view()[(x, y)] == HIDDEN:
            if local.layout.is_mine((x, y)):
                continue
            local.push(Move("open", (x, y)))
            cell(page, x, y).click()
            page.wait_for_function(
                f"state.game && state.game.board[{y}][{x}] !== 'H'", timeout=60_000
            )
    assert local.outcome.status == "won"
    page.wait_for_selector("#status.won")
    assert "You won" in page.inner_text("#status")
    assert page.get_attribute("#status", "data-by") == "you"
    # a won board shows its mines flagged, never as mines, and no mine left to find
    flags = page.eval_on_selector_all(
        "#board .cell.flag", "els => els.map(e => [+e.dataset.x, +e.dataset.y])"
    )
    assert sorted(map(tuple, flags)) == sorted(local.layout.cells())
    assert page.locator("#board .cell.mine, #board .cell.exploded").count() == 0
    assert page.inner_text("#mine-counter") == "000"


def test_hints_show_the_engine_s_probabilities(server: str, page: Page) -> None:
    expected = with_hints(page, server)
    shown = shown_probabilities(page)
    assert shown == {c: fraction_text(p) for c, p in expected.probabilities.items()}
    for x, y in expected.safe:
        assert "certain-safe" in (cell(page, x, y).get_attribute("class") or "")
    some = next(c for c, p in expected.probabilities.items() if 0 < p < 1)
    label = cell(page, *some).get_attribute("aria-label") or ""
    assert fraction_text(expected.probabilities[some]) in label
    assert "Best move" in page.inner_text("#hint-info")
    page.uncheck("#hints")
    page.wait_for_function("document.querySelectorAll('#board .cell[data-p]').length === 0")


def test_ai_autoplay_finishes_a_game(server: str, page: Page) -> None:
    start(page, server, 21, (0, 0))
    page.click("#ai-move")
    page.wait_for_function("document.querySelector('#hint-info').textContent.startsWith('AI')")
    page.fill("#speed", "20")
    page.check("#accept-guesses")  # to the end, guesses included
    page.click("#autoplay")
    page.wait_for_selector("#status.won, #status.lost", timeout=60_000)
    assert page.get_attribute("#autoplay", "aria-pressed") == "false"
    assert page.get_attribute("#status", "data-by") == "ai"
    status = page.inner_text("#status")
    assert status.startswith(("The AI won", "Boom! The AI")) and "autoplay" in status, status


def test_custom_level(server: str, page: Page) -> None:
    page.goto(server)
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    assert page.locator("#custom").is_hidden()
    page.select_option("#level", "custom")
    assert page.locator("#custom").is_visible()
    for name, value in (("#custom-width", "7"), ("#custom-height", "5"), ("#custom-mines", "4")):
        page.fill(name, value)
    page.click("#new-game")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 35")
    assert page.inner_text("#mine-counter") == "004"
    assert page.evaluate("state.game.level") == "7x5x4"
    page.select_option("#rule", "opening")  # a new game whose first click is an opening
    page.wait_for_function("state.game.rule === 'opening' && !state.game.started")
    cell(page, 3, 2).click()
    page.wait_for_function("state.game.started")
    assert page.evaluate("state.game.board[2][3]") == "0"
    assert "d0" in (cell(page, 3, 2).get_attribute("class") or "")


def test_keyboard_play(server: str, page: Page) -> None:
    page.goto(f"{server}/?seed=5&level=beginner")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 81")
    cell(page, 0, 0).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .cell.open")
    local = replay("beginner", 5, "safe", (0, 0))
    hidden = next(c for c in local.view() if local.view()[c] == HIDDEN)
    for _ in range(hidden[0]):
        page.keyboard.press("ArrowRight")
    for _ in range(hidden[1]):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("f")
    page.wait_for_function(f"state.game.board[{hidden[1]}][{hidden[0]}] === 'F'")
    page.keyboard.press("n")  # a new game, from the keyboard
    page.wait_for_function("state.game.board.every(r => !r.includes('F'))")


def test_analyse_a_pasted_position_and_share_it(server: str, page: Page) -> None:
    text = open_example()
    page.goto(server)
    page.click("#tab-analyse")
    page.fill("#position-text", text)
    page.click("#analyse-button")
    expected = analyze(Position.from_text(text))
    page.wait_for_function(f"state.analysis && state.analysis.width === {expected.position.width}")
    shown = shown_probabilities(page)
    assert shown == {c: fraction_text(p) for c, p in expected.probabilities.items()}
    digits = str(expected.layouts)
    assert page.inner_text("#layout-count").startswith(digits[0])
    page.select_option("#engine", "bp")  # an approximate engine says so, with errors
    page.wait_for_function("state.analysis && state.analysis.exact === false")
    assert "approximate" in page.inner_text("#engine-used")
    labels = page.eval_on_selector_all(
        "#board .cell.heat",
        "els => els.map(e => [+e.dataset.x, +e.dataset.y, e.getAttribute('aria-label')])",
    )
    cells = {(c["x"], c["y"]): c for c in page.evaluate("state.analysis.cells")}

    def error_words(c: dict[str, Any]) -> str:
        # bp's bound can be no tighter than max(p, 1 - p): then it is not shown as a bar
        trivial = c["error"] >= max(c["prob"], 1 - c["prob"]) - 1e-12
        return "(no error bound)" if trivial else f"± {c['error'] * 100:.2f}%"

    assert labels
    for x, y, label in labels:
        assert error_words(cells[(x, y)]) in label and "approximate" in label, label
        assert "/" not in label
    x, y, _ = labels[0]
    cell(page, x, y).hover()  # the panel shows no exact-looking fraction
    page.wait_for_function("!document.querySelector('#tile-info').hidden")
    panel = page.inner_text("#tile-info").split("If safe")[0]  # above the exact digit chances
    assert error_words(cells[(x, y)]) in panel and "approximate" in panel and "/" not in panel
    page.select_option("#engine", "exact")
    page.wait_for_function("state.analysis && state.analysis.exact === true")
    shared = page.url
    assert "?analyse=30x16x99/" in shared
    other = page.context.new_page()
    other.goto(shared)
    other.wait_for_selector("#layout-count")
    assert other.inner_text("#layout-count") == page.inner_text("#layout-count")
    assert other.input_value("#position-text").split() == text.split()


def test_build_a_position_by_clicking(server: str, page: Page) -> None:
    page.goto(f"{server}/?analyse={KNOWN.strip().replace(chr(10), '/')}")
    page.wait_for_selector("#layout-count")
    assert page.inner_text("#layout-count") == "72"
    for name, value in (("#edit-width", "3"), ("#edit-height", "3"), ("#edit-mines", "1")):
        page.fill(name, value)
    page.click("#edit-new")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 9")
    page.click('#tools button[data-tool="1"]')
    cell(page, 0, 0).click()
    page.wait_for_function("document.querySelector('#layout-count').textContent === '3'")
    cell(page, 1, 0).click(button="right")  # a flag: then (0,1) and (1,1) are safe
    page.wait_for_function("document.querySelector('#layout-count').textContent === '1'")
    assert "certain-safe" in (cell(page, 1, 1).get_attribute("class") or "")
    assert "3x3x1/1FH/HHH/HHH" in page.url
    error = page.locator("#position-error")  # said beside the text it is about
    cell(page, 2, 2).click(button="right")  # a second flag with one mine: inconsistent
    page.wait_for_function("document.querySelector('#position-error').textContent.length > 0")
    assert "mine" in error.inner_text()


def test_phone_sized_screen(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}/?level=expert")
    page.wait_for_function("document.querySelectorAll('#board .cell').length === 480")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375  # the page itself never scrolls sideways: the board does
    for control in ("#new-game", "#hints", "#ai-move", "#tab-analyse"):
        box = page.locator(control).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 375
    context.close()


def open_example() -> str:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return (root / "examples" / "expert-midgame.txt").read_text()


def test_a_seeded_game_is_marked_on_the_page(server: str, page: Page) -> None:
    page.goto(f"{server}/?seed=7&level=beginner")
    page.wait_for_function("state.game && state.game.seeded === true")
    assert page.is_visible("#seeded") and page.inner_text("#seeded") == "seeded"
    page.goto(f"{server}/?level=beginner")
    page.wait_for_function("state.game && state.game.seeded === false")
    assert not page.is_visible("#seeded")


def test_hint_board_marks_safe_mine_and_best_and_numbers_on_demand(server: str, page: Page) -> None:
    expected = with_hints(page, server)
    classes = {
        (int(x), int(y)): set(c.split())
        for x, y, c in page.eval_on_selector_all(
            "#board .cell", "els => els.map(e => [e.dataset.x, e.dataset.y, e.className])"
        )
    }
    view = replay("beginner", 8, "safe", (0, 0)).view()
    frontier = {c for c in expected.probabilities if any(view[n] >= 0 for n in view.neighbours(c))}
    for c, p in expected.probabilities.items():
        # a cell away from the digits keeps the plain tile; the legend gives their value
        tint = "heat" if c in frontier else "interior"
        want = "certain-safe" if p == 0 else "certain-mine" if p == 1 else tint
        assert want in classes[c], (c, p, classes[c])
    interior = {p for c, p in expected.probabilities.items() if c not in frontier}
    assert len(interior) == 1  # no digit speaks of them: one shared probability
    assert page.inner_text("#interior-p") == percent_text(interior.pop())
    move = page.evaluate("state.analysis.move")
    assert "best" in classes[(move["x"], move["y"])]
    assert sum("best" in v for v in classes.values()) == 1
    # a risky cell is tinted, never with the safe cell's mark, and carries no number yet
    risky = [c for c, p in expected.probabilities.items() if 0 < p < 1 and c in frontier]
    tints = {cell(page, *c).evaluate("e => e.style.getPropertyValue('--tint')") for c in risky}
    assert all(t.startswith("rgb(") for t in tints)
    assert all(cell(page, *c).inner_text() == "" for c in risky)
    page.check("#hint-numbers")
    for c in risky:
        shown = cell(page, *c).inner_text()
        value = float(expected.probabilities[c]) * 100
        assert shown in (f"{value:.0f}", "<1", ">99"), (c, shown, value)
    page.uncheck("#hint-numbers")
    assert all(cell(page, *c).inner_text() == "" for c in risky)


def test_tile_panel_shows_the_exact_probability(server: str, page: Page) -> None:
    expected = with_hints(page, server)
    panel = page.locator("#tile-info")
    assert panel.is_hidden()
    risky = [c for c, p in expected.probabilities.items() if 0 < p < 1]
    from_api = {(c["x"], c["y"]): c["p"] for c in page.evaluate("state.analysis.cells")}
    assert from_api == {c: fraction_text(p) for c, p in expected.probabilities.items()}
    for c in risky[:3] + risky[-2:]:
        cell(page, *c).hover()
        page.wait_for_function(
            f"!document.querySelector('#tile-info').hidden && "
            f"document.querySelector('#tile-info').dataset.x === '{c[0]}' && "
            f"document.querySelector('#tile-info').dataset.y === '{c[1]}'"
        )
        text = panel.inner_text()
        p = expected.probabilities[c]
        assert f"Mine: {fraction_text(p)} = {percent_text(p)}" in text
        assert f"Safe: {fraction_text(1 - p)} = {percent_text(1 - p)}" in text
        assert cell(page, *c).get_attribute("title") is None  # a panel, not the tooltip
    safe = next(iter(expected.safe), None)
    if safe is not None:
        cell(page, *safe).hover()
        page.wait_for_function(f"document.querySelector('#tile-info').dataset.x === '{safe[0]}'")
        assert "Certainly safe" in panel.inner_text()
    move = page.evaluate("state.analysis.move")
    cell(page, move["x"], move["y"]).hover()
    page.wait_for_function(
        f"document.querySelector('#tile-info').dataset.x === '{move['x']}' && "
        f"document.querySelector('#tile-info').dataset.y === '{move['y']}'"
    )
    assert f"Best move: {move['kind']}: {move['why']}" in panel.inner_text()
    page.mouse.move(1000, 880)  # off the board: the panel closes
    page.wait_for_function("document.querySelector('#tile-info').hidden")


def test_long_press_opens_the_tile_panel_on_a_phone(server: str, browser: Any) -> None:
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    with_hints(page, server)
    risky = page.locator("#board .cell.heat").first
    x, y = risky.get_attribute("data-x"), risky.get_attribute("data-y")
    risky.dispatch_event("touchstart")
    page.wait_for_timeout(700)
    risky.dispatch_event("contextmenu")  # Android ends a long press so: it must not flag
    risky.dispatch_event("touchend")
    risky.dispatch_event("click")  # the click that ends a long press does not open the cell
    assert page.locator("#tile-info").is_visible()
    assert page.get_attribute("#tile-info", "data-x") == x
    assert "Mine: " in page.inner_text("#tile-info")
    assert page.evaluate(f"state.game.board[{y}][{x}]") == "H"
    risky.tap()  # a plain tap opens the cell
    page.wait_for_function(f"state.game.board[{y}][{x}] !== 'H'")
    context.close()


CONTRAST = """el => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let bg = el, style = getComputedStyle(el);
  while (bg && getComputedStyle(bg).backgroundColor === "rgba(0, 0, 0, 0)") bg = bg.parentElement;
  const [a, b] = [lum(style.color), lum(getComputedStyle(bg).backgroundColor)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_hovered_controls_stay_readable(server: str, page: Page) -> None:
    start(page, server, 21, (0, 0))
    page.fill("#speed", "1")
    page.click("#autoplay")  # pressed: white on blue, also under the mouse
    controls = ["#autoplay", "#tab-play", "#tab-analyse", "#new-game", "#ai-move"]
    for control in controls:
        page.hover(control)
        ratio = page.eval_on_selector(control, CONTRAST)
        assert ratio >= 4.5, (control, ratio)
    page.click("#autoplay")
    page.click("#tab-analyse")
    page.wait_for_selector('#tools button[aria-checked="true"]')
    page.hover('#tools button[aria-checked="true"]')
    assert page.eval_on_selector('#tools button[aria-checked="true"]', CONTRAST) >= 4.5
