"""Take the web page's screenshots for the docs, in Chromium.

    .venv/bin/python scripts/screenshot.py [OUT_DIR]

Starts the app on a free port in this process, plays a seeded expert game with the AI
button until a few dozen moves are made (the game still on), turns hints on and saves
``screenshot.png``; hovers a frontier cell for ``screenshot-tile.png`` (the tile panel);
lets autoplay finish a beginner game for ``screenshot-won.png``. OUT_DIR is ``docs`` unless
given. Needs the web and dev extras and Debian's Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, sync_playwright

from minesolver.web import create_app

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
        page.click("#autoplay")
        page.wait_for_selector("#status.won, #status.lost", timeout=60_000)
        if page.evaluate("state.game.status") == "won":
            break
    page.mouse.move(0, 0)


def main(out: Path) -> None:
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
            mid_game(page, port)
            page.screenshot(path=str(out / "screenshot.png"), full_page=True)
            hover_frontier(page)
            page.screenshot(path=str(out / "screenshot-tile.png"), full_page=True)
            won_by_autoplay(page, port)
            page.screenshot(path=str(out / "screenshot-won.png"), full_page=True)
            browser.close()
    finally:
        server.should_exit = True
        thread.join()
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
