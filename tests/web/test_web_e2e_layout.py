"""End to end, in Chromium: the page's layout. The review's figures stand beside a 16x16
board at 1400 px (no wide gap between them) and below it on a phone, and the review's rows
of controls never wrap, at 1400 px or on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_helpers import Page, cell

pytest.importorskip("playwright.sync_api")

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
