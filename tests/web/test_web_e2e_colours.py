"""End to end, the hint colours in Chromium, measured in CIEDE2000 (the CIE's colour
difference, Sharma, Wu and Dalal 2005): two frontier risks 10 points apart anywhere in
0-60% differ by at least 8 (clearly different at a glance); the cells away from the digits
are drawn quieter than those beside them, with the same scale; a risky cell never looks
like the exploded mine. The colours are those the page's own ``heat`` function returns and
those the board's cells are rendered with (read back with ``getComputedStyle``).

The formula is written here from the paper, and checked against the paper's 34 test pairs
before it judges anything.
"""

from __future__ import annotations

import io
import math
import re
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import Page, cell, start
from webtest_helpers import replay

pytest.importorskip("playwright.sync_api")

Lab = tuple[float, float, float]

CLEARLY_DIFFERENT = 8.0
"""The least CIEDE2000 between two frontier risks 10 points apart in 0-60%."""

NOT_THE_EXPLOSION = 10.0
"""The least CIEDE2000 between any risk's colour and the exploded mine's fill."""

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def ciede2000(lab1: Lab, lab2: Lab) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1), as Sharma, Wu and Dalal (2005)
    state it, step by step (their equations 1-22)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (dhh / s_h) ** 2 + r_t * (dc / s_c) * (dhh / s_h)
    )


# Table 1 of Sharma, Wu and Dalal (2005): (L*a*b* 1, L*a*b* 2, CIEDE2000).
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, -1.1848, -84.8006), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, -0.9009, -85.5211), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0010), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0012), 7.2195),
    ((50.0, -0.001, 2.49), (50.0, 0.0009, -2.49), 4.8045),
    ((50.0, -0.001, 2.49), (50.0, 0.0010, -2.49), 4.8045),
    ((50.0, -0.001, 2.49), (50.0, 0.0011, -2.49), 4.7461),
    ((50.0, -0.001, 2.49), (50.0, 0.0012, -2.49), 4.7461),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 3.2972, 0.0), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 1.8634, 0.5757), 1.0000),
    ((50.0, 2.5, 0.0), (50.0, 3.2592, 0.3350), 1.0000),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((63.0109, -31.0961, -5.8663), (62.8187, -29.7946, -4.0864), 1.2630),
    ((61.2901, 3.7196, -5.3901), (61.4292, 2.2480, -4.9620), 1.8731),
    ((35.0831, -44.1164, 3.7933), (35.0232, -40.0716, 1.5901), 1.8645),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ((36.4612, 47.8580, 18.3852), (36.2715, 50.5065, 21.2231), 1.4146),
    ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
    ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


def lab(css: str) -> Lab:
    """A CSS ``rgb(r, g, b)`` colour (sRGB, D65) in CIE L*a*b*."""
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = linear(r), linear(g), linear(b)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def test_the_formula_gives_the_papers_values() -> None:
    for k, (one, two, want) in enumerate(SHARMA, 1):
        got = ciede2000(one, two)
        assert got == pytest.approx(ciede2000(two, one), abs=1e-9), k  # symmetric
        if k in (10, 14):
            # the two colours are mirror images: their hue difference is 180 degrees
            # exactly, where the mean hue's branch is decided by rounding; the paper's
            # neighbours (9 and 11, 13 and 15) give the values on either side
            assert any(abs(got - w) < 1e-4 for w in (SHARMA[k - 2][2], SHARMA[k][2])), k
        else:
            assert got == pytest.approx(want, abs=1e-4), k
    assert lab("rgb(255, 255, 255)") == pytest.approx((100, 0, 0), abs=0.01)
    assert lab("rgb(255, 0, 0)") == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert lab("rgb(128, 128, 128)")[1:] == pytest.approx((0, 0), abs=0.01)


def heat(page: Page, risks: list[float]) -> list[str]:
    """The colours the page's ``heat`` gives these risks."""
    colours: list[str] = page.evaluate("ps => ps.map(heat)", risks)
    return colours


def test_risks_ten_points_apart_are_clearly_different(server: str, page: Page) -> None:
    page.goto(f"{server}/?level=beginner")
    page.wait_for_function("state.game !== null")
    steps = [k / 1000 for k in range(0, 501)]  # 0.0% ... 50.0%, each against 10 points more
    low, high = heat(page, steps), heat(page, [p + 0.1 for p in steps])
    worst = min((ciede2000(lab(a), lab(b)), p) for p, a, b in zip(steps, low, high, strict=True))
    assert worst[0] >= CLEARLY_DIFFERENT, worst
    # and the order reads: a riskier cell is darker, over the whole scale
    every = heat(page, [k / 200 for k in range(201)])
    lightness = [lab(c)[0] for c in every]
    assert all(a > b for a, b in pairwise(lightness)), lightness


def exploded_fill(page: Page, server: str) -> str:
    """The fill of the exploded mine, from a lost game on the page."""
    start(page, server, 5, (0, 0))
    local = replay("beginner", 5, "safe", (0, 0))
    assert local.layout is not None
    cell(page, *local.layout.cells()[0]).click()
    page.wait_for_selector("#board .cell.exploded")
    fill: str = page.eval_on_selector(
        "#board .cell.exploded", "e => getComputedStyle(e).backgroundColor"
    )
    return fill


def test_no_risk_looks_like_the_exploded_mine_or_a_safe_cell(server: str, page: Page) -> None:
    boom = lab(exploded_fill(page, server))
    page.goto(f"{server}/?analyse=5x5x5/H2HHH/HHHHH/112HH/00HHH/000HH")
    page.wait_for_selector("#board .cell.certain-safe")
    safe = lab(
        page.eval_on_selector(
            "#board .cell.certain-safe", "e => getComputedStyle(e).backgroundColor"
        )
    )
    risks = [k / 100 for k in range(1, 100)]
    for p, colour in zip(risks, heat(page, risks), strict=True):
        assert ciede2000(lab(colour), boom) >= NOT_THE_EXPLOSION, (p, colour)
        assert ciede2000(lab(colour), safe) >= CLEARLY_DIFFERENT, (p, colour)


def rendered(page: Page) -> tuple[dict[tuple[int, int], tuple[float, str]], list[Any]]:
    """The frontier cells as the board renders them (risk, fill), and the cells away from
    the digits (risk, fill, dot)."""
    frontier = page.eval_on_selector_all(
        "#board .cell.heat",
        "els => els.map(e => [+e.dataset.x, +e.dataset.y, e.dataset.p,"
        " getComputedStyle(e).backgroundColor])",
    )
    interior = page.eval_on_selector_all(
        "#board .cell.interior",
        "els => els.map(e => [e.dataset.p, getComputedStyle(e).backgroundColor,"
        " getComputedStyle(e, '::after').backgroundColor])",
    )

    def value(p: str) -> float:
        n, d = p.split("/")
        return int(n) / int(d)

    cells = {(x, y): (value(p), fill) for x, y, p, fill in frontier}
    return cells, [(value(p), fill, dot) for p, fill, dot in interior]


@pytest.mark.parametrize("example", ["expert-midgame.txt", "known-5x5.txt"])
def test_the_rendered_board_keeps_the_rule(server: str, page: Page, example: str) -> None:
    text = (EXAMPLES / example).read_text()
    page.goto(server)
    page.click("#tab-analyse")
    page.fill("#position-text", text)
    page.click("#analyse-button")
    # this position's analysis, not the one of the board the tab showed before: that one
    # may be drawn first, and redrawn by this one between two reads of the page
    rows = [line for line in text.split() if "x" not in line]
    page.wait_for_function(
        "rows => state.analysis && state.rows.join('/') === rows"
        " && document.querySelector('#board .cell.heat')",
        arg="/".join(rows),
    )
    cells, interior = rendered(page)
    risks = {p for p, _ in cells.values()}
    assert len(risks) >= 4, risks  # a board with several risks to tell apart
    for (p, fill), (q, other) in combinations(cells.values(), 2):
        if p == q:
            assert fill == other  # one risk, one colour
        elif max(p, q) <= 0.6 + 1e-12 and abs(p - q) >= 0.1 - 1e-12:
            assert ciede2000(lab(fill), lab(other)) >= CLEARLY_DIFFERENT, (p, q, fill, other)
    # the cells away from the digits: the plain tile, with a dot of the scale's colour
    assert interior
    plain = "rgb(192, 192, 192)"
    for p, fill, dot in interior:
        assert fill == plain
        assert dot == heat(page, [p])[0]
    demo = page.eval_on_selector(
        "#interior-demo", "e => getComputedStyle(e, '::after').backgroundColor"
    )
    assert demo == interior[0][2]  # the legend shows the dot the board has


def test_the_legend_s_ramp_carries_numbers(server: str, page: Page) -> None:
    """The legend's ramp: numbers from 0 to 100 (percent) under the bar, each at its place,
    and the bar's colour there (read from the rendered pixels) the colour of that risk."""
    image = pytest.importorskip("PIL.Image")
    page.goto(f"{server}/?analyse=5x5x5/H2HHH/HHHHH/112HH/00HHH/000HH")
    page.wait_for_selector("#legend:not([hidden]) .ramp-tick")
    ticks = page.eval_on_selector_all(
        "#legend .ramp-tick",
        "els => els.map(e => { const b = e.getBoundingClientRect();"
        " return [e.textContent, b.left + b.width / 2]; })",
    )
    values = [int(text) for text, _ in ticks]
    assert values[0] == 0 and values[-1] == 100 and values == sorted(values)
    assert {10, 20, 30, 40, 50, 60} <= set(values)  # every 10 points of the 0-60% rule
    bar = page.locator("#legend .ramp-bar")
    box = bar.bounding_box()
    assert box is not None
    inner = box["width"] - 2  # the gradient fills the bar inside its 1-pixel border
    picture = image.open(io.BytesIO(bar.screenshot())).convert("RGB")
    scale = picture.width / box["width"]
    colours = heat(page, [v / 100 for v in values])
    for (_, centre), v, colour in zip(ticks, values, colours, strict=True):
        place = box["x"] + 1 + inner * v / 100
        assert abs(centre - place) <= 1.5, (v, centre, place)  # the number at its value
        x = min(max(1 + inner * v / 100, 2), box["width"] - 3)
        pixel = picture.getpixel((round(x * scale), round(picture.height / 2)))
        shown = "rgb({}, {}, {})".format(*pixel)
        assert ciede2000(lab(shown), lab(colour)) <= 2.5, (v, shown, colour)
