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

GNOME Mines and KMines show instead a line of small text: ``n/m``, the flags placed and
the mines (GNOME Mines beside the board, near its top; KMines in its status bar below
it, after ``Mines:``). In the places it may stand, the reader takes the dark marks
(8-connected components of pixels darker than :data:`INK`) about as tall as text,
groups them into words (side by side, less than a third of their height apart; a mark
too wide for one glyph is split where the least ink joins it: a slash's tip touches the
next digit at some sizes), and
reads each mark of a word by the nearest of the program's glyph templates, cut from
real captures of its counter (``templates/counter/gnome.png``, ``kmines.png``: digits
and the slash at display scales 0.75 to 3). A word is read only when every glyph is
near a template (:data:`TEXT_DISTANCE`) and far from every other character's
(:data:`TEXT_MARGIN`), of a template's shape, the digits of one height and the slash
taller, its text ``digits/digits``, and nothing dark just beyond its ends and no edge
of the image or the area near it (a counter cut off is not read). Every such word found
must say the same. Glyphs less than :data:`MIN_HEIGHT` pixels tall are not read: both
programs draw them 9 pixels tall, so a screenshot shrunk below about 0.8 of its size
keeps its counter unread.

The total of mines is then the counter plus the flags on the board (the reader does
that: :mod:`minesolver.vision.reader`; for ``n/m``, ``m``, when ``n`` is the flags it
read on the board). A counter never read surely is ``None``: the total stays from the
board's size, or unknown; it is never guessed.

Cost: O(pixels of the search area) (a few cells above the board), plus O(glyphs x
templates x 96) for the glyphs: a few milliseconds; the text counters' components
take O(pixels) with numpy and O(runs of ink) in Python, tens of milliseconds for an
area of a few hundred thousand pixels.
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
"""The skins whose red counter is read (see :data:`TEXT_COUNTERS` for the others)."""

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
    flags: int | None = None
    """The flags the counter says are placed, for a counter that shows them (GNOME
    Mines' and KMines' ``n/m``: ``n`` flags of ``m`` mines; ``value`` is then ``m - n``).
    The reader takes a total from such a counter only when they are the flags it read
    on the board."""


def read_counter(
    rgb: Array,
    skin: str,
    box: tuple[float, float, float, float],
    cell: float,
) -> CounterReading | None:
    """The mine counter of a board of ``skin`` whose cells (``cell`` pixels) fill
    ``box`` in the RGB array ``rgb``, or ``None`` when the skin shows none this reader
    knows or it cannot be read surely."""
    if cell <= 0:
        return None
    if skin in TEXT_COUNTERS:
        return _text_counter(rgb, TEXT_COUNTERS[skin], box, cell)
    if skin not in COUNTER_SKINS:
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


# --- GNOME Mines' and KMines' counters: small proportional text --------------------------

TEXT_COUNTERS = {
    "gnome": "gnome",
    "gnome-classic": "gnome",
    "gnome-default": "gnome",
    "kmines": "kmines",
    "kmines-classic": "kmines",
}
"""The skins whose counter is a line of text (``"n/m"``: the flags placed and the mines),
and the program whose glyph templates read it (GNOME Mines' label beside the board,
KMines' status bar below it: ``Mines: n/m``)."""

INK = 165
"""A pixel darker than this (luminance 0..255) is ink: both programs draw their text
near black on a light grey; a stroke blurred by scaling stays below it."""
TEXT_GLYPH = (8, 12)
"""The size a glyph of the text counters is scaled to before it is compared."""
TEXT_WIDTH = 0.8
"""The window a glyph is cut in is this share of its height wide (a digit's width is
0.6 to 0.75 of its height)."""
TEXT_DISTANCE = 0.16
"""A glyph farther than this from every template (root-mean-square, darkness 0..1) is
not read."""
TEXT_MARGIN = 0.07
"""A glyph whose nearest template of another character is closer than this beyond its
nearest is not read."""
TEXT_ASPECT = 0.3
"""A template whose width-to-height ratio differs from the glyph's by more than this
(natural logarithm) is not compared: a glyph scaled to a square loses its width."""
MAX_RUNS = 200_000
"""An area with more runs of ink than this (rows of a busy picture, noise) holds no
counter to read: its marks are not joined (a bound on the work in Python)."""
TOUCHING = 0.9
"""A mark wider than this share of its height is two glyphs touching, and split (a digit
is 0.6 to 0.8 of its height wide, the slash less)."""
MIN_HEIGHT = 7
"""Digits less tall than this (pixels) are not read: below it a digit's strokes blur
together (the programs draw them 9 pixels tall; the display scale may shrink them)."""


@dataclass(frozen=True, slots=True)
class Glyph:
    """A mark of ink: its box in the search area (left, top, right, bottom, end
    exclusive) and its darkness scaled to :data:`TEXT_GLYPH` (0..1, a flat vector)."""

    box: tuple[int, int, int, int]
    vector: Array

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]

    @property
    def aspect(self) -> float:
        return (self.box[2] - self.box[0]) / max(1, self.height)


def _text_area(
    shape: tuple[int, ...], family: str, box: tuple[float, float, float, float], cell: float
) -> list[tuple[int, int, int, int]]:
    """Where a program's counter text may stand, as areas of the image (left, top,
    right, bottom): GNOME Mines puts it right of the board near its top, or above the
    board; KMines in the status bar below the board."""
    h, w = shape[:2]
    left, top, right, bottom = box
    bw, bh = right - left, bottom - top
    if family == "gnome":
        areas = [
            (right, top - 2 * cell, right + max(0.6 * bw, 5 * cell), top + 0.5 * bh),
            (left, top - 3 * cell, right, top),
        ]
    else:
        # KMines centres the board in its window: the taller the window, the farther
        # below it the status bar
        areas = [(left - 0.5 * bw, bottom, right + 0.5 * bw, bottom + max(3 * cell, 0.6 * bh))]
    out = []
    for x0, y0, x1, y1 in areas:
        a = (max(0, int(x0)), max(0, int(y0)), min(w, int(x1) + 1), min(h, int(y1) + 1))
        if a[2] - a[0] >= 8 and a[3] - a[1] >= 8:
            out.append(a)
    return out


def _components(ink: Array) -> tuple[Array, list[tuple[int, int, int, int]]]:
    """The 8-connected components of a boolean image: an image of their numbers (0 where
    no ink, ``k + 1`` for the ``k``-th) and each one's box (left, top, right, bottom, end
    exclusive). Runs of each row are joined to the runs they touch in the row above
    (union-find): O(pixels) for the runs, O(runs) in Python."""
    np = numpy()
    h, w = ink.shape
    padded = np.zeros((h, w + 2), dtype=np.int8)
    padded[:, 1:-1] = ink
    diff = np.diff(padded, axis=1)
    rows, starts = np.nonzero(diff == 1)
    _, ends = np.nonzero(diff == -1)
    if len(rows) > MAX_RUNS:  # noise, not text: no words (the Python loop stays bounded)
        return np.zeros((h, w), dtype=np.int32), []
    parent = list(range(len(rows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_row: dict[int, list[int]] = {}
    for i, r in enumerate(rows.tolist()):
        by_row.setdefault(r, []).append(i)
    starts_l, ends_l = starts.tolist(), ends.tolist()
    for r, ids in by_row.items():
        above = by_row.get(r - 1)
        if not above:
            continue
        j = 0
        for i in ids:
            s, e = starts_l[i], ends_l[i]
            while j < len(above) and ends_l[above[j]] < s:
                j += 1
            k = j
            while k < len(above) and starts_l[above[k]] <= e:
                a, b = find(i), find(above[k])
                if a != b:
                    parent[a] = b
                k += 1
    roots: dict[int, int] = {}
    labels = np.zeros((h, w), dtype=np.int32)
    boxes: list[list[int]] = []
    for i in range(len(rows)):
        root = find(i)
        found = roots.get(root)
        r, s, e = int(rows[i]), starts_l[i], ends_l[i]
        if found is None:
            found = roots[root] = len(boxes)
            boxes.append([s, r, e, r + 1])
        else:
            bx = boxes[found]
            bx[0], bx[1] = min(bx[0], s), min(bx[1], r)
            bx[2], bx[3] = max(bx[2], e), max(bx[3], r + 1)
        labels[r, s:e] = found + 1
    return labels, [(bx[0], bx[1], bx[2], bx[3]) for bx in boxes]


def text_words(area: Array) -> list[list[Glyph]]:
    """The words of dark text in an RGB ``area``: marks of ink about as tall as text,
    side by side on a line, less than a third of their height apart; each mark scaled
    to :data:`TEXT_GLYPH` (for the templates' build and the reader). A word touching
    the area's edge, or with ink just beyond its ends, is left out: it may be cut."""
    image_module, _ = pillow()
    np = numpy()
    rgb = np.asarray(area).astype(np.float32)
    gray = 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]
    ink = gray < INK
    labels, boxes = _components(ink)
    h, w = ink.shape
    marks: list[tuple[int, tuple[int, int, int, int]]] = []
    more = len(boxes)  # the number of the next mark split off
    for k, b in enumerate(boxes):
        if not (MIN_HEIGHT <= b[3] - b[1] <= 60 and b[2] - b[0] <= 1.2 * (b[3] - b[1])):
            continue
        cut = _split(labels, k, b) if b[2] - b[0] > TOUCHING * (b[3] - b[1]) else None
        if cut is None:
            marks.append((k, b))
            continue
        # two glyphs touching by a pixel or two (a slash's tip and the next digit): the
        # right part becomes a mark of its own
        right = labels[b[1] : b[3], cut : b[2]]
        right[right == k + 1] = more + 1
        marks += [(k, _ink_box(labels, k, b)), (more, _ink_box(labels, more, b))]
        more += 1
    marks.sort(key=lambda m: m[1][0])
    words: list[list[tuple[int, tuple[int, int, int, int]]]] = []
    for k, b in marks:
        for word in words:
            _, last = word[-1]
            top = min(x[1][1] for x in word)
            bottom = max(x[1][3] for x in word)
            tall = bottom - top
            overlap = min(bottom, b[3]) - max(top, b[1])
            if overlap >= 0.6 * min(tall, b[3] - b[1]) and 0 <= b[0] - last[2] <= tall / 3:
                word.append((k, b))
                break
        else:
            words.append([(k, b)])
    out: list[list[Glyph]] = []
    for word in words:
        x0 = min(b[0] for _, b in word)
        x1 = max(b[2] for _, b in word)
        y0 = min(b[1] for _, b in word)
        y1 = max(b[3] for _, b in word)
        tall = y1 - y0
        pad = max(2, int(0.5 * tall))
        if x0 < pad or y0 < 2 or x1 > w - pad or y1 > h - 2:
            continue  # at the area's edge: maybe cut
        # nothing else dark just before or after the word (a cut word's rest, a glyph
        # unseen)
        if ink[y0:y1, x0 - pad : x0].any() or ink[y0:y1, x1 : x1 + pad].any():
            continue
        around = gray[max(0, y0 - 2) : y1 + 2, x0 - pad : x1 + pad]
        light = float(np.percentile(around, 90))
        dark = float(gray[y0:y1, x0:x1].min())
        if light - dark < 80:
            continue
        darkness = np.clip((light - gray) / (light - dark), 0, 1).astype(np.float32)
        glyphs = []
        for k, (bx0, by0, bx1, by1) in word:
            # the glyph's own ink and the faint pixels about it, in a window as wide as
            # a share of its height about its centre of ink: a pixel more or less of
            # faint edge in its box moves the window half a pixel, not the whole glyph
            half = TEXT_WIDTH * (by1 - by0) / 2
            c0, c1 = max(0, int(bx0 - half)), min(w, int(bx1 + half) + 1)
            lab = labels[by0:by1, c0:c1]
            dk = darkness[by0:by1, c0:c1] * ((lab == k + 1) | (lab == 0))
            own = dk * (lab == k + 1)
            cx = float((own.sum(axis=0) * np.arange(c1 - c0)).sum() / max(own.sum(), 1e-6))
            image = image_module.fromarray(dk, "F")
            scaled = image.resize(
                TEXT_GLYPH, image_module.Resampling.BOX, box=(cx - half, 0, cx + half, by1 - by0)
            )
            vec = np.clip(np.asarray(scaled, dtype=np.float32).reshape(-1), 0, 1)
            glyphs.append(Glyph((bx0, by0, bx1, by1), vec))
        out.append(glyphs)
    return out


def _split(labels: Array, k: int, box: tuple[int, int, int, int]) -> int | None:
    """The column where mark ``k`` (too wide for one glyph) is two glyphs touching: the
    column of least ink in its middle (from 30% to 70% of its width) when it holds at
    most two of the mark's pixels (a quarter of its height, when more: a scaled touch),
    else ``None``."""
    np = numpy()
    x0, y0, x1, y1 = box
    counts = (labels[y0:y1, x0:x1] == k + 1).sum(axis=0)
    lo, hi = x0 + max(2, int(0.3 * (x1 - x0))), x0 + min(x1 - x0 - 2, int(0.7 * (x1 - x0)) + 1)
    if hi <= lo:
        return None
    cut = lo + int(np.argmin(counts[lo - x0 : hi - x0]))
    return cut if counts[cut - x0] <= max(2, round((y1 - y0) / 4)) else None


def _ink_box(labels: Array, k: int, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The box of the pixels of mark ``k`` within ``box``."""
    np = numpy()
    x0, y0, x1, y1 = box
    ys, xs = np.nonzero(labels[y0:y1, x0:x1] == k + 1)
    return (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)


@cache
def _text_templates(family: str) -> tuple[tuple[str, ...], Array, Array]:
    """A program's counter glyphs: their characters, their width-to-height ratios and
    their darkness scaled to :data:`TEXT_GLYPH` (rows of a float32 array in 0..1)."""
    image_module, _ = pillow()
    np = numpy()
    folder = resources.files("minesolver.vision") / "templates" / "counter"
    lines = [line.split() for line in (folder / f"{family}.txt").read_text().splitlines()]
    labels = tuple(line[0] for line in lines)
    aspects = np.array([float(line[1]) for line in lines], dtype=np.float32)
    with (folder / f"{family}.png").open("rb") as stream:
        strip = np.asarray(image_module.open(stream).convert("L"), dtype=np.float32) / 255.0
    gw, gh = TEXT_GLYPH
    vectors = strip.reshape(gh, len(labels), gw).transpose(1, 0, 2).reshape(len(labels), -1)
    return labels, aspects, vectors


def classify_glyph(family: str, glyph: Glyph) -> tuple[str, float, float] | None:
    """The character nearest ``glyph`` among ``family``'s templates of about its shape,
    its distance and the margin to the nearest other character; ``None`` when no
    template has its shape."""
    np = numpy()
    labels, aspects, templates = _text_templates(family)
    d = np.sqrt(((templates - glyph.vector[None, :]) ** 2).mean(axis=1))
    d[np.abs(np.log(aspects / max(glyph.aspect, 1e-3))) > TEXT_ASPECT] = np.inf
    order = np.argsort(d)
    if not np.isfinite(d[order[0]]):
        return None
    best = labels[int(order[0])]
    other = next((float(d[k]) for k in order if labels[int(k)] != best), float("inf"))
    return best, float(d[order[0]]), other - float(d[order[0]])


def _read_word(family: str, word: list[Glyph]) -> tuple[str, int, int] | None:
    """The text ``n/m`` a word shows and its two numbers, or ``None`` when it is not
    such a word or a glyph is not read surely: every glyph near a template and far from
    every other character's, the digits of one height, the slash taller."""
    text = ""
    for glyph in word:
        got = classify_glyph(family, glyph)
        if got is None:
            return None
        ch, distance, margin = got
        if distance > TEXT_DISTANCE or margin < TEXT_MARGIN:
            return None
        text += ch
    if text.count("/") != 1:
        return None
    n, _, m = text.partition("/")
    if not (n.isdigit() and m.isdigit()) or any(len(x) > 1 and x[0] == "0" for x in (n, m)):
        return None
    heights = [g.height for g, ch in zip(word, text, strict=True) if ch != "/"]
    slash = word[text.index("/")].height
    tall = max(heights)
    if min(heights) < max(MIN_HEIGHT, tall - max(1.5, 0.12 * tall)) or slash <= tall:
        return None
    return text, int(n), int(m)


def _text_counter(
    rgb: Array, family: str, box: tuple[float, float, float, float], cell: float
) -> CounterReading | None:
    """The counter text (``n/m``) of a GNOME Mines or KMines board, read surely, or
    ``None``. Each place the text may stand is searched; every word read there as
    ``n/m`` must say the same."""
    found: dict[str, tuple[int, int, tuple[float, float, float, float]]] = {}
    for x0, y0, x1, y1 in _text_area(rgb.shape, family, box, cell):
        for word in text_words(rgb[y0:y1, x0:x1]):
            got = _read_word(family, word)
            if got is None:
                continue
            text, n, m = got
            wb = (
                x0 + word[0].box[0],
                y0 + min(g.box[1] for g in word),
                x0 + word[-1].box[2],
                y0 + max(g.box[3] for g in word),
            )
            found[text] = (n, m, wb)
    if len(found) != 1:
        return None
    ((text, (n, m, where)),) = found.items()
    return CounterReading(text, m - n, where, flags=n)
