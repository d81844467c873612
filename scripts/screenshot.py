"""Take the web page's screenshots for the docs, in Chromium.

    .venv/bin/python scripts/screenshot.py [OUT_DIR] [--only NAME,...]

Starts the app on a free port in this process, plays a seeded expert game with the AI
button until a few dozen moves are made (the game still on), turns hints on and saves
``screenshot.png``; hovers a frontier cell for ``screenshot-tile.png`` (the tile panel);
lets autoplay finish a beginner game for ``screenshot-won.png``; opens a sample expert
replay in the Replays view at a guess midway for ``screenshot-replay.png``; loses a seeded
intermediate game on a risky click after some AI moves and reviews it for
``screenshot-review.png``. ``--only`` takes some of the names (main, tile, won, replay,
review, beginner, analyse); ``screenshot-beginner.png`` is a seeded beginner game with hints
after its first click, ``screenshot-analyse.png`` the example expert position in Analyse.
OUT_DIR is ``docs`` unless given. Needs the web and dev extras and Debian's
Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import random
import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, sync_playwright

from minesolver.game import PRESETS, Game, Move
from minesolver.web import create_app

REPLAY = Path(__file__).parents[1] / "tests" / "data" / "replays" / "arbiter-expert-127bv.avf"
NAMES = ("main", "tile", "won", "replay", "review", "beginner", "analyse")
EXAMPLE = Path(__file__).parents[1] / "examples" / "expert-midgame.txt"

ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def first_click(page: Page, url: str, cells: int, x: int, y: int) -> None:
    """Load ``url`` (a board of ``cells`` cells) and open (x, y)."""
    page.goto(url)
    page.wait_for_function(f"document.querySelectorAll('#board .cell').length === {cells}")
    page.click(f'#board .cell[data-x="{x}"][data-y="{y}"]')
    page.wait_for_selector("#board .cell.open")


def mid_game(page: Page, port: int) -> None:
    """A seeded expert game after 30 AI moves, still on, with hints on."""
    for seed in range(1, 50):
        url = f"http://127.0.0.1:{port}/?seed={seed}&level=expert&rule=opening"
        first_click(page, url, 480, 15, 8)
        for _ in range(30):
            moves = page.evaluate("state.game.moves")
            page.click("#ai-move")
            page.wait_for_function(f"state.game.moves > {moves} || state.game.status !== 'playing'")
        if page.evaluate("state.game.status") == "playing":
            break
    page.check("#hints")
    page.wait_for_selector("#board .cell.best")
    page.wait_for_timeout(300)


def hover_frontier(page: Page) -> None:
    """The tile panel of a frontier cell (one whose probability is not the common one of the
    cells away from the digits)."""
    cells = page.locator("#board .cell.heat")
    js = "els => els.map(e => state.probs.get(`${e.dataset.x},${e.dataset.y}`).p)"
    probs: list[str] = cells.evaluate_all(js)
    common = max(set(probs), key=probs.count)
    frontier = [i for i, p in enumerate(probs) if p != common]
    cells.nth(frontier[len(frontier) // 2]).hover()
    page.wait_for_selector("#tile-info:not([hidden]) .tile-digits")  # the digit chances


def won_by_autoplay(page: Page, port: int) -> None:
    """A beginner game that autoplay wins (the first seed it wins)."""
    for seed in range(1, 50):
        first_click(page, f"http://127.0.0.1:{port}/?seed={seed}&level=beginner", 81, 4, 4)
        page.fill("#speed", "20")
        page.check("#accept-guesses")  # else autoplay stops before its first guess
        page.click("#autoplay")
        page.wait_for_selector("#status.won, #status.lost", timeout=60_000)
        if page.evaluate("state.game.status") == "won":
            break
    page.mouse.move(0, 0)


def replay_midway(page: Page, port: int) -> None:
    """The sample expert replay in the Replays view, at the guess nearest its middle."""
    page.set_viewport_size({"width": 1280, "height": 820})
    page.goto(f"http://127.0.0.1:{port}/")
    page.click("#tab-review")
    page.set_input_files("#replay-file", str(REPLAY))
    page.wait_for_selector("#board .cell.action")
    steps: list[int] = page.evaluate(
        "review.report.positions.flatMap((e, k) => e.guess ? [k] : [])"
    )
    middle = page.evaluate("review.report.positions.length") // 2
    page.locator("#review-guesses li button").nth(
        min(range(len(steps)), key=lambda i: abs(steps[i] - middle))
    ).click()
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)


def review_after_loss(page: Page, port: int, seed: int = 2, moves: int = 12) -> None:
    """A seeded intermediate game: AI moves until, after ``moves`` of them, the position
    needs a guess; then the riskiest-looking click that is a mine with a probability under
    one half (a guess that loses); then its review."""
    page.set_viewport_size({"width": 1100, "height": 820})
    first = (8, 8)
    local = Game.new(PRESETS["intermediate"], random.Random(seed), "safe")
    local.push(Move("open", first))
    assert local.layout is not None
    url = f"http://127.0.0.1:{port}/?seed={seed}&level=intermediate&rule=safe"
    first_click(page, url, 256, *first)
    page.check("#hints")
    for made in range(200):
        page.wait_for_selector("#board .cell.best")
        if made >= moves and page.evaluate("state.analysis.move.guess"):
            break
        page.evaluate("window.shown = state.analysis")
        page.click("#ai-move")
        page.wait_for_function("state.analysis && state.analysis !== window.shown")
    cells = page.evaluate("state.analysis.cells")
    mines = [c for c in cells if local.layout.is_mine((c["x"], c["y"])) and c["prob"] < 0.5]
    loser = max(mines, key=lambda c: c["prob"])
    page.click(f'#board .cell[data-x="{loser["x"]}"][data-y="{loser["y"]}"]')
    page.wait_for_selector("#status.lost")
    page.click("#review-game")
    page.wait_for_selector("#board .cell.action.exploded")
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)


def beginner_hints(page: Page, port: int) -> None:
    """A seeded beginner game after its first click, with hints on."""
    page.set_viewport_size({"width": 1040, "height": 620})
    first_click(page, f"http://127.0.0.1:{port}/?seed=8&level=beginner&rule=safe", 81, 0, 0)
    page.check("#hints")
    page.wait_for_selector("#board .cell.best")
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)


def analyse_example(page: Page, port: int) -> None:
    """The example expert position in Analyse, at 1400x900."""
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"http://127.0.0.1:{port}/")
    page.click("#tab-analyse")
    page.fill("#position-text", EXAMPLE.read_text())
    page.click("#analyse-button")
    page.wait_for_function("state.analysis && state.analysis.width === 30")
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)


def main(out: Path, only: tuple[str, ...] = NAMES) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1040, "height": 760})
            if {"main", "tile"} & set(only):
                mid_game(page, port)
            if "main" in only:
                page.screenshot(path=str(out / "screenshot.png"), full_page=True)
            if "tile" in only:
                hover_frontier(page)
                page.screenshot(path=str(out / "screenshot-tile.png"), full_page=True)
            if "won" in only:
                won_by_autoplay(page, port)
                page.screenshot(path=str(out / "screenshot-won.png"), full_page=True)
            if "replay" in only:
                replay_midway(page, port)
                page.screenshot(path=str(out / "screenshot-replay.png"), full_page=True)
            if "review" in only:
                review_after_loss(page, port)
                page.screenshot(path=str(out / "screenshot-review.png"), full_page=True)
            if "beginner" in only:
                beginner_hints(page, port)
                page.screenshot(path=str(out / "screenshot-beginner.png"), full_page=True)
            if "analyse" in only:
                analyse_example(page, port)
                page.screenshot(path=str(out / "screenshot-analyse.png"), full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join()
    print(f"wrote {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Take the web page's screenshots.")
    parser.add_argument("out", nargs="?", type=Path, default=Path("docs"))
    parser.add_argument("--only", default=",".join(NAMES), help="some of " + ", ".join(NAMES))
    args = parser.parse_args()
    chosen = tuple(n for n in args.only.split(",") if n)
    unknown = set(chosen) - set(NAMES)
    if unknown:
        parser.error(f"unknown screenshots {sorted(unknown)}: expected some of {NAMES}")
    main(args.out, chosen)
