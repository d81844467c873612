"""End to end, in Chromium: a real screenshot of a board pasted (Ctrl+V) or dropped on the
page opens in Analyse as read and is analysed; while it is read the status names the
reader's stage, and the board read is drawn before its analysis comes; a cell the reader
is unsure of is outlined, and setting it with a tool clears the mark and analyses the
board."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest
from e2e_helpers import READ_BUDGET, READ_WAIT, Page, board_rows, cell

pytest.importorskip("playwright.sync_api")
pytest.importorskip("PIL")

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"
NAME = "web-every-b"  # held out of the templates

SERVE_ARGS = ["--read-budget", str(READ_BUDGET)]
"""Reading a screenshot takes seconds of CPU: on a loaded machine more than the default
budget, which would refuse it (the test is of the page, not of the reader's speed)."""
ROWS = (DATA / f"{NAME}.txt").read_text().split()[1:]

# A paste or a drop as the browser makes it: a File in a DataTransfer.
SEND = """([kind, b64, target]) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const dt = new DataTransfer();
  dt.items.add(new File([bytes], "board.png", { type: "image/png" }));
  const where = document.querySelector(target);
  const ev = kind === "paste"
    ? new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true })
    : new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true });
  where.dispatchEvent(ev);
}"""


# Every text the status under the text box shows, in order, kept in window.statuses.
WATCH = """() => {
  window.statuses = [];
  const el = document.getElementById("vision-status");
  new MutationObserver(() => window.statuses.push(el.textContent))
    .observe(el, { childList: true, characterData: true, subtree: true });
}"""

# The board as drawn: each cell's label from its classes (d0-d8 open, flag, else hidden).
DRAWN = """() => {
  const cells = Array.from(document.querySelectorAll("#board .cell"));
  const width = new Set(cells.map((c) => c.dataset.x)).size;
  const rows = [];
  cells.forEach((c, i) => {
    const digit = Array.from(c.classList).find((k) => /^d[0-8]$/.test(k));
    const label = digit ? digit[1] : c.classList.contains("flag") ? "F" : "H";
    if (i % width === 0) rows.push("");
    rows[rows.length - 1] += label;
  });
  return rows;
}"""

STAGE = re.compile(
    r"Reading the screenshot: (waiting for a reader|decoding the image|finding the board|"
    r"fitting the skins to the board's lattice|trying another lattice \(\d+\)|"
    r"checking the board's edges|reading the mine counter)\u2026"
)
"""A status while the server reads: one of the reader's stages (or the wait for a reader)."""


def png(image: object | None = None) -> str:
    if image is None:
        return base64.b64encode((DATA / f"{NAME}.png").read_bytes()).decode()
    buffer = io.BytesIO()
    image.save(buffer, "PNG")  # type: ignore[attr-defined]
    return base64.b64encode(buffer.getvalue()).decode()


@pytest.mark.parametrize(("kind", "target"), [("paste", "body"), ("drop", "#board")])
def test_a_screenshot_pasted_or_dropped_is_read_and_analysed(
    server: str, page: Page, kind: str, target: str
) -> None:
    page.goto(server + "/")  # from Play: the screenshot opens Analyse
    page.wait_for_function("document.querySelectorAll('#board .cell').length > 0")
    page.evaluate(SEND, [kind, png(), target])
    page.wait_for_function("state.analysis && state.analysis.width === 16", timeout=READ_WAIT)
    assert page.get_attribute("#tab-analyse", "aria-selected") == "true"
    assert board_rows(page) == ROWS
    assert page.input_value("#position-text").split() == ["16x16x40", *ROWS]
    assert "Read a 16\u00d716 board (web skin)" in page.inner_text("#vision-status")
    assert page.locator("#board .cell.unsure").count() == 0


def test_the_board_read_is_drawn_before_its_analysis(server: str, page: Page) -> None:
    """The analysis is held back (the page's request to /api/analyze waits in the test):
    the board read is on the page all the same, then the analysis fills it in. The
    statuses shown while reading name the reader's stages (how many are seen depends on
    the load, so only what they say is checked)."""
    page.goto(server + "/?analyse=3x3x1/HHH/HHH/HHH")
    page.wait_for_selector("#layout-count")
    page.evaluate(WATCH)
    held: list[object] = []

    def hold(route: object) -> None:
        held.append(route)

    page.route("**/api/analyze", hold)
    page.evaluate(SEND, ["paste", png(), "body"])
    page.wait_for_function(
        "document.querySelectorAll('#board .cell').length === 256", timeout=READ_WAIT
    )
    assert page.evaluate(DRAWN) == ROWS
    assert page.evaluate("() => state.analysis") is None  # its analysis is not there yet
    assert "Read a 16\u00d716 board (web skin)" in page.inner_text("#vision-status")
    assert page.locator("#board .cell[data-p]").count() == 0  # no probability drawn
    statuses: list[str] = page.evaluate("() => window.statuses")
    reading = [t for t in statuses if t.startswith("Reading the screenshot")]
    assert reading, statuses
    assert all(t == "Reading the screenshot\u2026" or STAGE.fullmatch(t) for t in reading)
    while not held:  # the analysis asked for once the board was drawn
        page.wait_for_timeout(50)
    held[0].continue_()  # type: ignore[attr-defined]
    page.wait_for_function("state.analysis && state.analysis.width === 16")
    assert page.evaluate(DRAWN) == ROWS
    assert page.locator("#board .cell[data-p]").count() > 0


def test_an_unsure_cell_is_marked_and_corrected(server: str, page: Page) -> None:
    from PIL import Image, ImageDraw

    box = json.loads((DATA / "samples.json").read_text())[NAME]["box"]
    image = Image.open(DATA / f"{NAME}.png").convert("RGB")
    side = (box[2] - box[0]) / 16
    x, y = 5, 7
    left, top = box[0] + x * side, box[1] + y * side
    ImageDraw.Draw(image).ellipse(
        (left + 6, top + 6, left + side - 6, top + side - 6), fill=(200, 0, 200)
    )  # a blot over the cell: nothing the skin draws
    page.goto(server + "/?analyse=3x3x1/HHH/HHH/HHH")
    page.wait_for_selector("#layout-count")
    page.evaluate(SEND, ["paste", png(image), "body"])
    page.wait_for_selector("#board .cell.unsure", timeout=READ_WAIT)
    assert page.locator("#board .cell.unsure").count() == 1
    marked = cell(page, x, y)
    assert "unsure" in (marked.get_attribute("class") or "")
    assert "read unsure" in (marked.get_attribute("aria-label") or "")
    assert "1 cell could not be read surely" in page.inner_text("#vision-status")
    page.click(f'#tools button[data-tool="{ROWS[y][x]}"]')
    marked.click()
    page.wait_for_function("state.analysis && state.analysis.width === 16")
    assert page.locator("#board .cell.unsure").count() == 0
    assert board_rows(page) == ROWS


def test_a_picture_with_no_board_says_why(server: str, page: Page) -> None:
    from PIL import Image

    page.goto(server + "/?analyse=3x3x1/HHH/HHH/HHH")
    page.wait_for_selector("#layout-count")
    page.evaluate(SEND, ["drop", png(Image.new("RGB", (300, 200), (40, 90, 160))), "body"])
    page.wait_for_function(
        "document.getElementById('vision-status').textContent.includes('could not be read')",
        timeout=READ_WAIT,
    )
    assert "no board found" in page.inner_text("#vision-status")
    assert board_rows(page) == ["HHH", "HHH", "HHH"]
