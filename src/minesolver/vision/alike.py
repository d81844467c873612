"""Labels drawn alike told apart on the few pixels where they differ: a flag and a
question mark drawn as a flag with a small mark (:func:`_flag_or_mark`), an empty cell
and a digit drawn pale on it (:func:`_pale_or_empty`), two digits of one colour that
differ in a few strokes (:func:`_digit_strokes`). Over the whole cell such labels are as
near each other as a cell a pixel off is to its own template, so the margin between
them says nothing; on their pixels they differ plainly."""

from __future__ import annotations

from functools import cache
from typing import Any

from minesolver.vision._load import numpy
from minesolver.vision.reading import MIN_MARGIN
from minesolver.vision.templates import Skin, load_skin

Array = Any


MARK_LEVEL = 0.12
"""The pixels where a skin's flags and question marks differ by more than this (in any
colour, between the means of their templates) are the mark's: see :func:`_flag_or_mark`."""
MARK_MARGIN = 0.06
"""A flag or a question mark is sure when the nearest template of one is nearer than the
other's by this much on the pixels of the mark (root-mean-square over those pixels)."""


@cache
def _mark_pixels(name: str) -> Array | None:
    """The entries of a cell vector where skin ``name``'s flags and question marks differ
    (every colour of the pixels of the mark), or ``None`` when the skin has no question
    mark or no such pixel."""
    np = numpy()
    skin = load_skin(name)
    labels = np.asarray(skin.labels)
    if not ((labels == "F").any() and (labels == "?").any()):
        return None
    flag = skin.vectors[labels == "F"].mean(axis=0).reshape(-1, 3)
    mark = skin.vectors[labels == "?"].mean(axis=0).reshape(-1, 3)
    pixels = np.abs(flag - mark).max(axis=1) > MARK_LEVEL
    if not pixels.any():
        return None
    return np.repeat(pixels, 3)


def _flag_or_mark(skin: Skin, vectors: Array, d: Array) -> tuple[Array, Array, Array, Array] | None:
    """Flags and question marks told apart on the pixels of the mark. GNOME Mines draws a
    question mark as its flag with a small ``?`` beside it: over the whole cell the two
    are as near as a cell is to its own template when a pixel off, so the margin between
    them says nothing; on the few pixels of the mark they differ by half the range of a
    colour. For the cells whose two nearest labels are ``F`` and ``?`` (``vectors`` and
    the distances ``d`` by rows and columns): which they are, the label on the mark's
    pixels, its nearest template's distance over the whole cell, and its margin (the
    difference on the mark's pixels, scaled so that :data:`MARK_MARGIN` there is
    :data:`MIN_MARGIN`, and no more than the margin to the third label). ``None`` when the
    skin draws no question mark. O(cells x templates x the mark's pixels)."""
    np = numpy()
    pixels = _mark_pixels(skin.name)
    if pixels is None:
        return None
    labels = np.asarray(skin.labels)
    is_flag, is_mark = labels == "F", labels == "?"
    to_flag = d[:, :, is_flag].min(axis=2)
    to_mark = d[:, :, is_mark].min(axis=2)
    rest = d[:, :, ~(is_flag | is_mark)]
    to_rest = rest.min(axis=2) if rest.shape[2] else np.full(to_flag.shape, np.inf)
    which = np.maximum(to_flag, to_mark) < to_rest
    if not which.any():
        return None

    def on_mark(templates: Array) -> Array:
        cells = vectors[which][:, pixels]
        t = templates[:, pixels]
        sq = (cells**2).sum(axis=1)[:, None] + (t**2).sum(axis=1)[None, :]
        sq -= 2 * np.einsum("ij,kj->ik", cells, t)
        return np.sqrt(np.maximum(sq, 0) / cells.shape[1]).min(axis=1)

    flag_on, mark_on = on_mark(skin.vectors[is_flag]), on_mark(skin.vectors[is_mark])
    mark_wins = mark_on < flag_on
    label = np.full(which.shape, "F", dtype=labels.dtype)
    label[which] = np.where(mark_wins, "?", "F")
    distance = np.where(label == "?", to_mark, to_flag)
    margin = np.zeros(which.shape, dtype=np.float64)
    margin[which] = np.abs(flag_on - mark_on) * (MIN_MARGIN / MARK_MARGIN)
    margin = np.minimum(margin, to_rest - distance)
    return which, label, distance, margin


PALE_DIGITS = {"gnome-classic": ("6", "7", "8")}
"""Skins that draw some digits so faintly that a cell of one is nearly an empty cell, and
those digits. GNOME Mines' classic theme draws its 6 pale blue, its 7 pale yellow and its
8 white on the light grey of an empty cell: scaled to 16x16 pixels, each is 0.03 to 0.05
from an empty cell, as near as two labels may be and still be told apart, so over the
whole cell every empty cell read unsure. They are told apart on the pixels of the
digits (:func:`_pale_or_empty`). And such a digit always has closed cells or mines
around it, which no empty cell has (opening an empty cell opens its neighbours): a board
with a cell read empty beside a closed one is refused
(:func:`~minesolver.vision.check._empty_beside_closed`)."""
PALE_LEVEL = 0.05
"""The pixels where a pale digit's templates differ from the empty cell's by more than this
(in any colour, between the means of their templates) are the digits' pixels: see
:func:`_pale_or_empty`."""
PALE_MARGIN = 0.04
"""An empty cell or a pale digit is sure when its nearest template is nearer than every
other of the two's by this much on the digits' pixels (root-mean-square over those
pixels): measured, an empty cell or a pale digit of the held-out screenshots is within
0.02 of its own there and at least 0.07 from the others."""


@cache
def _pale_pixels(name: str) -> Array | None:
    """The entries of a cell vector where skin ``name``'s pale digits
    (:data:`PALE_DIGITS`) differ from its empty cells (every colour of those pixels), or
    ``None`` when the skin has no pale digits or no templates of them."""
    np = numpy()
    pale = PALE_DIGITS.get(name)
    if pale is None:
        return None
    skin = load_skin(name)
    labels = np.asarray(skin.labels)
    if not (labels == "0").any() or not any((labels == p).any() for p in pale):
        return None
    empty = skin.vectors[labels == "0"].mean(axis=0).reshape(-1, 3)
    pixels = np.zeros(len(empty), dtype=bool)
    for p in pale:
        if (labels == p).any():
            digit = skin.vectors[labels == p].mean(axis=0).reshape(-1, 3)
            pixels |= np.abs(digit - empty).max(axis=1) > PALE_LEVEL
    if not pixels.any():
        return None
    return np.repeat(pixels, 3)


def _pale_or_empty(
    skin: Skin, vectors: Array, d: Array
) -> tuple[Array, Array, Array, Array] | None:
    """Empty cells and pale digits told apart on the digits' pixels, as
    :func:`_flag_or_mark` tells flags from question marks. Over the whole cell a pale
    digit (:data:`PALE_DIGITS`) is as near an empty cell as a cell a pixel off is to its
    own template; on the pixels of the digits (:func:`_pale_pixels`, about a sixth of
    the cell) an empty cell is flat and each digit differs from it and from the others
    by a tenth of the range. For the cells whose two nearest labels are both the empty
    cell's or a pale digit's (``vectors`` and the distances ``d`` by rows and columns):
    which they are, the label nearest on those pixels, its nearest template's distance
    over the whole cell, and its margin (the difference to the next of those labels on
    those pixels, scaled so that :data:`PALE_MARGIN` there is :data:`MIN_MARGIN`, and no
    more than the margin to the nearest other label). ``None`` when the skin has no pale
    digits. O(cells x those labels' templates x the digits' pixels)."""
    np = numpy()
    pixels = _pale_pixels(skin.name)
    if pixels is None:
        return None
    labels = np.asarray(skin.labels)
    group = [lab for lab in ("0", *PALE_DIGITS[skin.name]) if (labels == lab).any()]
    in_group = np.isin(labels, group)
    to_label = np.stack([d[:, :, labels == lab].min(axis=2) for lab in group], axis=2)
    rest = d[:, :, ~in_group]
    to_rest = rest.min(axis=2) if rest.shape[2] else np.full(to_label.shape[:2], np.inf)
    two = np.sort(to_label, axis=2)[:, :, 1]
    which = two < to_rest  # the two nearest labels are both of the group
    if not which.any():
        return None
    cells = vectors[which][:, pixels]
    sq_cells = (cells**2).sum(axis=1)[:, None]
    on_digits = []
    for lab in group:
        t = skin.vectors[labels == lab][:, pixels]
        sq = sq_cells + (t**2).sum(axis=1)[None, :] - 2 * np.einsum("ij,kj->ik", cells, t)
        on_digits.append(np.sqrt(np.maximum(sq, 0) / cells.shape[1]).min(axis=1))
    near = np.stack(on_digits, axis=1)  # (cells, group)
    ranked = np.sort(near, axis=1)
    pick = np.argmin(near, axis=1)
    label = np.full(which.shape, "0", dtype=labels.dtype)
    label[which] = np.asarray(group)[pick]
    distance = np.zeros(which.shape, dtype=np.float64)
    distance[which] = to_label[which][np.arange(len(pick)), pick]
    margin = np.zeros(which.shape, dtype=np.float64)
    margin[which] = (ranked[:, 1] - ranked[:, 0]) * (MIN_MARGIN / PALE_MARGIN)
    margin = np.minimum(margin, to_rest - distance)
    return which, label, distance, margin


STROKE_DIGITS = frozenset({"gnome-default"})
"""Skins whose digits are all drawn in one colour, so that two digits differ only in a few
strokes (GNOME Mines' default theme: a 3 is an 8 less the left halves of its loops, a
7 a 2 less its foot, a 1 and a 3 share a stem): over the whole cell, with the cell a
pixel off its template here and there, two such digits may read almost as near. They
are told apart on the pixels of the strokes that differ (:func:`_digit_strokes`)."""
STROKE_LEVEL = 0.15
"""The pixels where two digits' templates differ by more than this (in any colour,
between the means of their templates) are the strokes that tell them apart: see
:func:`_digit_strokes`."""
STROKE_MARGIN = 0.1
"""Two digits are told apart surely when the nearest template of one is nearer than the
other's by this much on the pixels of the strokes that differ (root-mean-square over
those pixels)."""


@cache
def _stroke_pixels(name: str, a: str, b: str) -> Array | None:
    """The entries of a cell vector where skin ``name``'s digits ``a`` and ``b`` differ
    (every colour of those pixels: :data:`STROKE_LEVEL`), or ``None`` when there are
    none."""
    np = numpy()
    skin = load_skin(name)
    labels = np.asarray(skin.labels)
    first = skin.vectors[labels == a].mean(axis=0).reshape(-1, 3)
    second = skin.vectors[labels == b].mean(axis=0).reshape(-1, 3)
    pixels = np.abs(first - second).max(axis=1) > STROKE_LEVEL
    if not pixels.any():
        return None
    return np.repeat(pixels, 3)


def _digit_strokes(
    skin: Skin, vectors: Array, d: Array
) -> tuple[Array, Array, Array, Array] | None:
    """Digits drawn alike told apart on the strokes that differ, as :func:`_flag_or_mark`
    tells flags from question marks, in the skins of :data:`STROKE_DIGITS`. For the cells
    whose two nearest labels are digits (1 to 8) almost as near as each other (within
    :data:`MIN_MARGIN` over the whole cell; the others are sure, or another matter), the
    digits that near (two or more) are compared two by two on the pixels where their
    templates differ (:func:`_stroke_pixels`). Returns which cells those are, the digit
    nearer than each other one on those pixels (none such: the nearest over the whole
    cell, with no margin), its nearest template's distance over the whole cell, and its
    margin: the least difference on those pixels, scaled so that :data:`STROKE_MARGIN`
    there is :data:`MIN_MARGIN`, and no more than the margin over the whole cell to the
    nearest label not compared. ``None`` when the skin is not one of those or no cell is
    such. O(cells x templates) to find them, then O(those cells x the digits' templates
    x the strokes' pixels)."""
    np = numpy()
    if skin.name not in STROKE_DIGITS:
        return None
    labels = np.asarray(skin.labels)
    names = np.asarray(sorted(set(skin.labels)))
    per = np.stack([d[:, :, labels == lab].min(axis=2) for lab in names], axis=2)
    order = np.argsort(per, axis=2)
    ranked = np.take_along_axis(per, order, axis=2)
    first, second = names[order[:, :, 0]], names[order[:, :, 1]]
    digits = list("12345678")
    which = np.isin(first, digits) & np.isin(second, digits)
    which &= ranked[:, :, 1] - ranked[:, :, 0] < MIN_MARGIN
    if not which.any():
        return None
    label = first.copy()
    distance = ranked[:, :, 0].astype(np.float64)
    margin = np.zeros(which.shape, dtype=np.float64)
    for y, x in zip(*np.nonzero(which), strict=True):
        # the digits about as near as the nearest; the labels beyond them cap the margin
        found: list[str] = []
        for k in range(len(names)):
            if (
                ranked[y, x, k] - ranked[y, x, 0] >= MIN_MARGIN
                or names[order[y, x, k]] not in digits
            ):
                break
            found.append(str(names[order[y, x, k]]))
        beyond = ranked[y, x, len(found)] if len(found) < len(names) else np.inf
        best: tuple[str, float] | None = None
        for won in found:
            gaps = []
            for other in found:
                if other == won:
                    continue
                pixels = _stroke_pixels(skin.name, *sorted((won, other)))
                if pixels is None:
                    gaps.append(0.0)
                    continue
                cell = vectors[y, x][pixels]
                on = []
                for lab in (won, other):
                    diff = skin.vectors[labels == lab][:, pixels] - cell
                    on.append(float(np.sqrt((diff**2).mean(axis=1)).min()))
                gaps.append(on[1] - on[0])
            if min(gaps) > 0:
                best = (won, min(gaps))
                break
        if best is None:
            margin[y, x] = 0.0  # no digit nearer than every other: left unsure
            continue
        won, gap = best
        label[y, x] = won
        distance[y, x] = float(per[y, x, int(np.flatnonzero(names == won)[0])])
        margin[y, x] = min(gap * (MIN_MARGIN / STROKE_MARGIN), beyond - distance[y, x])
    return which, label, distance, margin
