"""Read the mine counter near a board: the mines left to flag (mines less flags).

Once the board is found, its skin says where the counter stands: the classic skin and
our page show it at the top left of the panel above the board, red on black. The
reader looks there for a black box of about a counter's shape holding red marks (rows
of the image where a run of black-or-red pixels starts and ends at the same columns),
then reads its three characters:

- the classic skin's seven-segment digits by their segments: each of the three equal
  parts of the box is a digit, each segment (a known place within the digit) lit or
  not, compared with the brightest segment (an unlit segment may be drawn dark red, as
  Windows draws it, or not at all). A segment neither clearly lit nor clearly unlit, or
  a pattern that is no digit, and the counter is not read;
- our page's digits (a monospace font) by templates of its glyphs, cut from screenshots
  of the page (``templates/counter/web.png``): each red glyph, scaled to 8x12, is
  compared with every template; too far from all, or nearly as near two, and the
  counter is not read.

The total of mines is then the counter plus the flags on the board (the reader does
that: :mod:`minesolver.vision.reader`). A counter never read surely is ``None``: the
total stays from the board's size, or unknown; it is never guessed.

Cost: O(pixels of the search area) (a few cells above the board), plus O(glyphs x
templates x 96) for our page's digits: a few milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from minesolver.vision._load import numpy, pillow

__all__ = ["CounterReading", "read_counter", "segments_text"]

Array = Any

COUNTER_SKINS = ("classic", "web")
"""The skins whose counter is read."""

_SEGMENTS = {
    "abcdef": "0",
    "bc": "1",
    "abdeg": "2",
    "abcdg": "3",
    "bcfg": "4",
    "acdfg": "5",
    "acdefg": "6",
    "abc": "7",
    "abcf": "7",
    "abcdefg": "8",
    "abcdfg": "9",
    "abcfg": "9",
    "g": "-",
    "": " ",
}
"""The characters a seven-segment counter shows, by the segments lit (a top, b top
right, c bottom right, d bottom, e bottom left, f top left, g middle); a 7 with its
top-left segment and a 9 without its bottom one are drawn so by some programs."""

_PLACES = {  # the middle of each segment within a digit's box (x, y as shares): a digit
    # fills its box but for a column at the right (the gap to the next)
    "a": (0.47, 0.087),
    "b": (0.77, 0.29),
    "c": (0.77, 0.71),
    "d": (0.47, 0.913),
    "e": (0.16, 0.71),
    "f": (0.16, 0.29),
    "g": (0.47, 0.5),
}
LIT = 0.75
"""A segment at least this share of the brightest segment's redness is lit..."""
UNLIT = 0.6
"""... one at most this share is unlit; one in between is unsure (Windows draws unlit
segments dark red, half the lit red)."""

GLYPH = (8, 12)
"""The size our page's counter glyphs are scaled to before they are compared."""
GLYPH_DISTANCE = 0.2
"""A glyph farther than this from every template (root-mean-square, redness 0..1) is
not read."""
GLYPH_MARGIN = 0.08
"""A glyph whose second-nearest character is closer than this beyond its nearest is
not read."""


@dataclass(frozen=True, slots=True)
class CounterReading:
    """A mine counter read surely: the characters shown (``"010"``, ``"-05"``), their
    value, and the counter's box in the image (left, top, right, bottom, pixels)."""

    text: str
    value: int
    box: tuple[float, float, float, float]


def read_counter(
    rgb: Array,
    skin: str,
    box: tuple[float, float, float, float],
    cell: float,
) -> CounterReading | None:
    """The mine counter of a board of ``skin`` whose cells (``cell`` pixels) fill
    ``box`` in the RGB array ``rgb``, or ``None`` when the skin shows none this reader
    knows or it cannot be read surely."""
    if skin not in COUNTER_SKINS or cell <= 0:
        return None
    np = numpy()
    h, w = rgb.shape[:2]
    left, top, right, _ = box
    # the counter stands above the board at its left: within three and a half cells
    # above it, from a cell left of the board to its middle
    x0 = max(0, int(left - cell))
    x1 = min(w, int(left + max(4.0 * cell, (right - left) / 2)))
    y0 = max(0, int(top - 3.5 * cell))
    y1 = min(h, int(top))
    if x1 - x0 < cell or y1 - y0 < cell / 2:
        return None
    area = rgb[y0:y1, x0:x1].astype(np.int16)
    found = _led_box(area, cell)
    if found is None:
        return None
    bx0, by0, bx1, by1 = found
    inner = area[by0:by1, bx0:bx1]
    text = _seven_segments(inner) if skin == "classic" else _glyphs(inner)
    if text is None:
        return None
    value = _value(text)
    if value is None:
        return None
    return CounterReading(text, value, (x0 + bx0, y0 + by0, x0 + bx1, y0 + by1))


def _redness(rgb: Array) -> Array:
    """How red each pixel is: red less the larger of green and blue (0 when negative),
    0..255."""
    np = numpy()
    return np.maximum(rgb[..., 0] - np.maximum(rgb[..., 1], rgb[..., 2]), 0)


def _led_box(area: Array, cell: float) -> tuple[int, int, int, int] | None:
    """The counter's black box within ``area`` (left, top, right, bottom, end
    exclusive), or ``None``: the tallest stack of rows in which a run of black or red
    pixels (or blends of the two) starts and ends at the same columns (to a pixel and a
    bit), about a counter's shape (wider than high, 1.2 to 3 times, half a cell to two and a half
    high), with red marks inside. The leftmost such box wins: a classic window's timer
    stands at the right."""
    np = numpy()
    red = _redness(area)
    # black, red, and every blend of the two (a glyph's smoothed edge) hold little
    # green and blue; the grey frame, white, yellow and blue title bars hold more
    led = np.maximum(area[..., 1], area[..., 2]) <= 60
    h = led.shape[0]
    slack = max(1, round(cell / 12))
    # a gap of a pixel or two within a row is closed: a glyph's edge, smoothed, is
    # neither black nor red
    before = np.zeros_like(led)
    after = np.zeros_like(led)
    for k in range(1, slack + 1):
        before[:, k:] |= led[:, :-k]
        after[:, :-k] |= led[:, k:]
    led = led | (before & after)
    # the runs of each row at least half a cell long: (start, end)
    runs: list[list[tuple[int, int]]] = []
    for y in range(h):
        row = np.concatenate(([False], led[y], [False]))
        edges = np.flatnonzero(row[1:] != row[:-1])
        starts, ends = edges[::2], edges[1::2]
        keep = ends - starts >= cell / 2
        runs.append(list(zip(starts[keep].tolist(), ends[keep].tolist(), strict=True)))
    boxes: list[tuple[int, int, int, int]] = []
    open_: list[tuple[int, int, int]] = []  # (start, end, first row) of stacks open
    for y in range(h + 1):
        current = runs[y] if y < h else []
        still: list[tuple[int, int, int]] = []
        for s, e, y_first in open_:
            match = [(a, b) for a, b in current if abs(a - s) <= slack and abs(b - e) <= slack]
            if match:
                still.append((s, e, y_first))
            else:
                boxes.append((s, y_first, e, y))
        taken = {(s, e) for s, e, _ in still}
        for a, b in current:
            if not any(abs(a - s) <= slack and abs(b - e) <= slack for s, e in taken):
                still.append((a, b, y))
                taken.add((a, b))
        open_ = still
    good = []
    for bx0, by0, bx1, by1 in boxes:
        bw, bh = bx1 - bx0, by1 - by0
        if not (0.5 * cell <= bh <= 2.5 * cell and 1.2 * bh <= bw <= 3.0 * bh):
            continue
        if int((red[by0:by1, bx0:bx1] >= 100).sum()) < 0.03 * bw * bh:
            continue
        good.append((bx0, by0, bx1, by1))
    if not good:
        return None
    return min(good, key=lambda b: (b[0], -(b[3] - b[1])))


def _seven_segments(inner: Array) -> str | None:
    """The three characters of a seven-segment counter whose black box is ``inner``,
    or ``None`` when a segment is neither clearly lit nor clearly unlit or a pattern is
    no character."""
    np = numpy()
    red = _redness(inner).astype(np.float32)
    h, w = red.shape
    values: list[list[float]] = []
    for i in range(3):
        dx0, dw = i * w / 3, w / 3
        digit = []
        for seg in "abcdefg":
            px, py = _PLACES[seg]
            cx, cy = dx0 + px * dw, py * h
            # a small window about the segment's middle: along the segment a fifth of
            # the digit, across it as thick as the segment (an eighth of the digit's
            # width: the box found may be a pixel off), its brightest pixel
            along_x = seg in "adg"
            rx = 0.1 * dw if along_x else max(1.0, 0.06 * h)
            ry = max(1.0, 0.05 * h) if along_x else 0.08 * h
            xa, xb = round(cx - rx), round(cx + rx) + 1
            ya, yb = round(cy - ry), round(cy + ry) + 1
            patch = red[max(0, ya) : min(h, yb), max(0, xa) : min(w, xb)]
            digit.append(float(patch.max()) if patch.size else 0.0)
        values.append(digit)
    top = max(max(d) for d in values)
    if top < 100:
        return None
    text = ""
    for digit in values:
        lit = ""
        for seg, v in zip("abcdefg", digit, strict=True):
            if v >= LIT * top:
                lit += seg
            elif v > UNLIT * top:
                return None
        ch = _SEGMENTS.get(lit)
        if ch is None:
            return None
        text += ch
    return text


def segments_text(inner: Array) -> str | None:
    """:func:`_seven_segments` for the tests: the characters of a counter's black box."""
    return _seven_segments(numpy().asarray(inner).astype(numpy().int16))


@cache
def _glyph_templates() -> tuple[tuple[str, ...], Array]:
    """Our page's counter glyphs: their characters and their redness scaled to
    :data:`GLYPH` (rows of a float32 array in 0..1)."""
    image_module, _ = pillow()
    np = numpy()
    folder = resources.files("minesolver.vision") / "templates" / "counter"
    labels = tuple((folder / "web.txt").read_text().split())
    with (folder / "web.png").open("rb") as stream:
        strip = np.asarray(image_module.open(stream).convert("L"), dtype=np.float32) / 255.0
    gw, gh = GLYPH
    vectors = strip.reshape(gh, len(labels), gw).transpose(1, 0, 2).reshape(len(labels), -1)
    return labels, vectors


def glyph_vectors(inner: Array) -> list[tuple[str, Array]]:
    """The red glyphs of a counter's black box, left to right: for each, ``"-"`` when
    it is a short bar in the middle (a minus: no template needed) or ``"?"``, and its
    redness scaled to :data:`GLYPH` (for the templates' build and the reader)."""
    image_module, _ = pillow()
    np = numpy()
    red = _redness(np.asarray(inner).astype(np.int16)).astype(np.float32)
    top = float(red.max())
    if top < 100:
        return []
    mark = red >= 0.35 * top
    cols = np.flatnonzero(mark.any(axis=0))
    rows_all = np.flatnonzero(mark.any(axis=1))
    if not len(cols):
        return []
    line_top, line_bottom = int(rows_all[0]), int(rows_all[-1]) + 1
    # the glyphs: runs of columns holding red, split where a column holds none
    splits = np.flatnonzero(np.diff(cols) > 1)
    groups = np.split(cols, splits + 1)
    out: list[tuple[str, Array]] = []
    for g in groups:
        c0, c1 = int(g[0]), int(g[-1]) + 1
        rows = np.flatnonzero(mark[:, c0:c1].any(axis=1))
        r0, r1 = int(rows[0]), int(rows[-1]) + 1
        tall = line_bottom - line_top
        if r1 - r0 <= 0.3 * tall and r0 > line_top + 0.2 * tall and r1 < line_bottom - 0.2 * tall:
            out.append(("-", np.zeros(GLYPH[0] * GLYPH[1], dtype=np.float32)))
            continue
        patch = red[line_top:line_bottom, c0:c1] / 255.0
        image = image_module.fromarray((patch * 255).astype(np.uint8), "L")
        scaled = image.resize(GLYPH, image_module.Resampling.BOX)
        out.append(("?", np.asarray(scaled, dtype=np.float32).reshape(-1) / 255.0))
    return out


def _glyphs(inner: Array) -> str | None:
    """The characters of our page's counter whose black box is ``inner``, or ``None``
    when a glyph is not read surely."""
    np = numpy()
    labels, templates = _glyph_templates()
    text = ""
    for kind, vector in glyph_vectors(inner):
        if kind == "-":
            text += "-"
            continue
        d = np.sqrt(((templates - vector[None, :]) ** 2).mean(axis=1))
        order = np.argsort(d)
        best = labels[int(order[0])]
        other = next((float(d[k]) for k in order if labels[int(k)] != best), float("inf"))
        if d[order[0]] > GLYPH_DISTANCE or other - float(d[order[0]]) < GLYPH_MARGIN:
            return None
        text += best
    return text


def _value(text: str) -> int | None:
    """The number a counter's characters show: digits, a leading minus, leading blanks;
    ``None`` for anything else (an empty counter, a minus elsewhere)."""
    body = text.lstrip(" ")
    if not body or " " in body:
        return None
    if body.startswith("-"):
        rest = body[1:]
        return -int(rest) if rest.isdigit() else None
    return int(body) if body.isdigit() else None
