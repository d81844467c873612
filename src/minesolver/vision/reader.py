"""Read a board from a screenshot: find the grid, pick the skin, read every cell.

1. :func:`~minesolver.vision.grid.find_axes` finds the columns and rows (period and
   extent) from the straight edges of the image.
2. For each shipped skin and each candidate offset of the cell boundary, a sample of the
   cells is compared with the skin's templates; the skin and offsets that fit best win,
   and offsets spread across the period are tried on each axis too (:func:`_rephased`).
3. Every cell (and one more row and column on each side, in case the outer lines were
   faint) is scaled to 16x16 and compared with each template: its label is the nearest
   template's, its margin the distance to the nearest template of another label. Rows and
   columns at the edges that match nothing are dropped, and so is what lies beyond a
   wall, the board's frame (:func:`_walled`), and an edge line that is a band of the
   frame, the same all along however it reads (:func:`_banded`).
4. A cell whose nearest template is far, or whose margin is small, is *unsure*; a board
   with an unsure cell, a mine shown (a lost game) or digits that no layout explains is
   refused with the reason, never returned as a confident position.
5. When the first lattice cannot be read surely (unsure cells, unclear edges, no skin),
   it is fitted again to the board it found, then (unless its edges are clear and few of
   its cells unsure: :data:`FEW_UNSURE`) the other lattices of
   :func:`~minesolver.vision.grid.other_axes` are read in turn; the first read surely is
   the answer (one whose digits no layout explains gives way to a coarser lattice's
   read surely: :func:`_coarser`), else a board with few unsure cells
   (:func:`_nearly`), else the first reading with its reason.

Cost: O(pixels) for the edges and the summed-area table every cell is scaled from, then
O(cells x templates x 768) for the comparisons, a few hundred samples of 80 cells while
the lattice is fitted: a few tenths of a second of CPU for a full-HD screenshot, more for
one whose first lattice cannot be read (each other lattice costs as much again).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from minesolver.position import Position
from minesolver.vision._load import ImageSource, VisionError, load_rgb, numpy
from minesolver.vision.alike import PALE_DIGITS
from minesolver.vision.cells import (
    CAP,
    CLOSE,
    FLAT,
    JITTER,
    MAX_NUDGED,
    _lattice_stats,
    _limits,
    _nearest,
    _nudge,
    _structure,
)
from minesolver.vision.check import (
    _clean,
    _coarser,
    _cut_off,
    _cut_part,
    _empty_beside_closed,
    _empty_edge,
    _inconsistency,
    _inconsistent,
    _nearly,
)
from minesolver.vision.counter import read_counter
from minesolver.vision.grid import SQUARE, Axis, edge_maps, find_axes, other_axes, phases
from minesolver.vision.reading import (
    _OPEN,
    BoardReading,
    CellReading,
    _sure,
)
from minesolver.vision.templates import (
    SIZE,
    Skin,
    coarse,
    integral,
    lattice_vectors,
    load_skin,
    skin_names,
)

__all__ = ["BoardReading", "CellReading", "read_board", "read_screenshot"]

Array = Any

EDGE_BAD = 0.25
"""A row or column at the board's edge with at most this share of cells unsure is part
of the board."""
EDGE_GOOD = 0.5
"""One with less than this share read surely is not; one in between leaves the board's
extent unclear, and the reading is refused."""
LIKE_CELLS = 0.04
"""An edge row or column not read surely whose cells are nearer than this (median) to
the templates, or than one and a half times the board's typical distance and a little
more, looks like cells: the board's extent is then unclear, and it is refused."""
EDGE_DISTANCE = 0.12
"""A row or column at the board's edge whose cells are on average farther than this from
the templates is not part of the board."""


MAX_LATTICE = 1_000_000
"""The most cells a lattice read may hold (a board's limit is a quarter of it; the
lattice holds the frame around it): beyond, the image is refused before it is read."""

_STANDARD = {(9, 9): 10, (8, 8): 10, (16, 16): 40, (30, 16): 99, (16, 30): 99}
"""Board sizes of the standard levels and their mines (beginner old and new,
intermediate, expert either way round)."""


def read_board(image: ImageSource, *, mines: int | None = None) -> Position:
    """The position shown in a screenshot (a path, the file's bytes or a Pillow image).

    ``mines`` gives the total when known; otherwise it comes from the mine counter when
    it is read surely (the counter plus the flags on the board), else from the board
    size when that is a standard level, or stays unknown. Raises :class:`VisionError` when no board
    is found, a cell cannot be read surely, the game is lost, or the digits read are
    inconsistent: never a position the reader is not sure of.
    """
    return read_screenshot(image, mines=mines).position()


def read_screenshot(
    image: ImageSource, *, mines: int | None = None, skins: tuple[str, ...] | None = None
) -> BoardReading:
    """Everything the reader saw: each cell's label, margin and candidates, the board's
    box and skin, the mine counter (see :class:`BoardReading`). Raises
    :class:`VisionError` only when no board is found at all; unsure cells and a lost
    game are reported in the reading (its :meth:`~BoardReading.position` refuses them).
    """
    rgb = load_rgb(image)
    edges = edge_maps(rgb)
    reading = _board(rgb, edges, mines, skins)
    cut = _cut_off(edges, reading) or _cut_part(rgb, reading) or _empty_edge(reading)
    if cut is not None and reading._problem is None:
        reading = replace(reading, _problem=cut)
    return _counted(rgb, reading, mines)


def _board(
    rgb: Any, edges: tuple[Any, Any], mines: int | None, skins: tuple[str, ...] | None
) -> BoardReading:
    """The board read in ``rgb`` (:func:`read_screenshot` without the counter and
    the check of the image's edges), ``edges`` its :func:`~minesolver.vision.grid.edge_maps`."""
    candidates = [load_skin(name) for name in (skins or skin_names())]
    axes = find_axes(rgb, edges)
    sums: list[Any] = []

    def table() -> Any:
        """The image's running sums, from which every cell is scaled: made once, when a
        lattice is first read (an image with no grid needs none; 12 bytes a pixel)."""
        if not sums:
            sums.append(integral(rgb))
        return sums[0]

    first: BoardReading | VisionError = VisionError(
        "no board found in the image: no regular grid of cells"
    )
    near_first: BoardReading | None = None  # the first lattice placed on its board again
    if axes is not None:
        try:
            first = _read_lattice(table(), candidates, *axes, mines)
        except VisionError as exc:
            first = exc
    # a reading read surely but inconsistent is kept while the other lattices are read:
    # a lattice of parts of the board's cells (half its period, over a board of few
    # digits) can read every cell surely, and its digits no layout explains
    pending: BoardReading | None = None

    def settled(reading: BoardReading | None) -> BoardReading | None:
        """``reading`` when it is the answer: read surely and consistent, or (once a
        reading read surely but inconsistent is kept) a coarser lattice's over it, whose
        cells are whole multiples of its cells, read surely and consistent."""
        nonlocal pending
        if reading is None or not _clean(reading):
            return None
        if pending is None:
            if not _inconsistent(reading):
                return reading
            pending = reading
            return None
        if not _inconsistent(reading) and _coarser(pending, reading):
            return reading
        return None

    if isinstance(first, BoardReading):
        if (done := settled(first)) is not None:
            return done
        if pending is None:
            # the lines found covered part of the board: placed again on the whole board
            again = _refitted(table(), first, mines)
            if (done := settled(again)) is not None:
                return done
            near_first = again
            if pending is None and _nearly(first):
                # the board's extent is clear and nearly every cell read surely: this is
                # the board's lattice, and a few cells are hidden (a pointer, a blot);
                # not when its cells are far from square (a lattice of half the rows
                # over a board of few digits reads nearly surely: GNOME Mines' default
                # theme), which is no board's
                return first
    # the lattice found first cannot be read: another period the image shows (the half
    # or the double, one that the frames around the board hid) may be the board's
    near: list[BoardReading] = []  # readings of a clear extent, nearly every cell sure
    if near_first is not None and _nearly(near_first):
        near.append(near_first)
    for other in other_axes(rgb, first=axes, edges=edges):
        try:
            reading = _read_lattice(table(), candidates, *other, mines, spread=1.0)
        except VisionError:
            continue
        if (done := settled(reading)) is not None:
            return done
        again = None if _clean(reading) else _refitted(table(), reading, mines)
        if (done := settled(again)) is not None:
            return done
        near += [r for r in (reading, again) if r is not None and _nearly(r)]
    if pending is not None:
        return pending
    if near:
        # none read surely: the reading that a few unsure cells keep from being the
        # board's, rather than a lattice whose board cannot be placed at all (the first
        # lattice found may be a digit's strokes, a fraction of the cells' period, over
        # a board another lattice reads with one cell under the pointer)
        return min(near, key=lambda r: len(r.unsure) / len(r.cells))
    if isinstance(first, VisionError):
        raise first
    return first


def _counted(rgb: Any, reading: BoardReading, mines: int | None) -> BoardReading:
    """``reading`` with its mine counter, and the total from it when no total was given,
    every cell is read surely (an unsure cell may be a flag) and the board's extent is
    clear: the counter plus the
    flags on the board (the crossed-out ones of a lost game included). On a board of a
    standard level's size whose counter gives another total, the counter wins: it is a
    custom game of that size (when it gives the level's, the total stays the level's,
    confirmed). A total outside 0 to the number of cells is no total (the
    counter is still reported). A counter that shows the flags placed (GNOME Mines'
    and KMines' ``n/m``) whose flags are not those read on the board is dropped."""
    found = read_counter(rgb, reading.skin, reading.box, reading.cell_size[0])
    if found is None:
        return reading
    flags = sum(1 for c in reading.cells if c.label in ("F", "x"))
    if found.flags is not None and found.flags != flags:
        return reading  # a counter of flags that are not the board's: not this board's
    total = found.value + flags
    use = (
        mines is None
        and _clean(reading)  # every cell sure and the board's extent clear
        and 0 <= total <= reading.width * reading.height
        and total != reading.mines
    )
    if not use:  # given, unsure, impossible, or the level's total confirmed
        return replace(reading, counter=found)
    problem = reading._problem
    if problem is not None and problem.startswith("the board read is inconsistent"):
        problem = None  # found under the other total: checked again under this one
    counted = replace(reading, counter=found, mines=total, mines_from="counter", _problem=problem)
    if counted.problem is None:
        counted = replace(counted, _problem=_inconsistency(counted))
    return counted


def _refitted(table: Any, reading: BoardReading, mines: int | None) -> BoardReading | None:
    """``reading`` read again on a lattice fitted to the board it found: when the lines
    found spanned only part of the board, their period was fitted to that part alone, and
    a period a tenth of a pixel off puts the far cells a pixel or more askew. ``None``
    when no board is found there any more."""
    np = numpy()
    left, top = reading.box[:2]
    cols = Axis(left, reading.cell_size[0], reading.width, np.zeros(1))
    rows = Axis(top, reading.cell_size[1], reading.height, np.zeros(1))
    skin = load_skin(reading.skin)
    ox, oy, px, py, _ = _refine(table, skin, cols, rows, 0.0, 0.0)
    cols = Axis(left, px, reading.width, cols.profile)
    rows = Axis(top, py, reading.height, rows.profile)
    ox, oy, px, py, _ = _centred(table, skin, cols, rows, ox, oy)
    cols = Axis(left, px, reading.width, cols.profile)
    rows = Axis(top, py, reading.height, rows.profile)
    try:
        return _grown(table, skin, cols, rows, ox, oy, mines)
    except VisionError:
        return None


REFINED = 3
"""Once this many skins (those that fit a lattice best before refinement) are refined on
it and one of them fits within :data:`CLOSE`, as near as a board's cells are to their
templates, the skins that fit worse are not refined: refinement costs about 70 sample
comparisons a skin, and on the labelled screenshots and the benchmark's boards the skin
chosen in the end was always among the first three when one of them fit that well. When
none does (a lattice off the board's, a crisp skin not yet placed to a fraction of a
pixel), every skin that fits nearly as well as the best is refined."""


def _read_lattice(
    table: Any,
    candidates: list[Skin],
    cols: Axis,
    rows: Axis,
    mines: int | None,
    spread: float = 3.0,
) -> BoardReading:
    """The board read on a lattice found in the image: the skin and offsets that fit a
    sample of its cells best, refined (with every skin whose fit is within ``spread`` times
    the best's, but see :data:`REFINED`), then every cell read."""
    best: dict[str, tuple[float, Skin, float, float]] = {}
    for ox in _offsets(cols):
        for oy in _offsets(rows):
            xs, ys = cols.lines(ox), rows.lines(oy)
            sample = _sample(xs, ys, 80)
            if sample is None:
                continue
            vectors = lattice_vectors(table, xs, ys, *sample)  # once for every skin
            small = coarse(vectors)
            for skin in candidates:
                score = _trimmed(_nearest(skin, vectors, small))
                if skin.name not in best or score < best[skin.name][0]:
                    best[skin.name] = (score, skin, ox, oy)
    fits = [best[skin.name] for skin in candidates if skin.name in best]
    fits.sort(key=lambda f: f[0])
    if not fits or fits[0][0] > EDGE_DISTANCE:
        raise VisionError("no board found in the image: no known skin matches its cells")
    # the offsets above are whole pixels: a skin whose templates are crisp (cut from
    # screenshots at one scale) fits only once placed to a fraction of a pixel, so the
    # skins that fit nearly as well are refined before one is chosen
    refined: list[tuple[float, Skin, tuple[float, float, float, float]]] = []
    for score, skin, ox, oy in fits:
        if score > spread * fits[0][0] + 0.01:
            break
        if len(refined) >= REFINED and min(f[0] for f in refined) <= CLOSE:
            break
        ox, oy = _rephased(table, skin, cols, rows, ox, oy)
        ox, oy, px, py, fit = _refine(table, skin, cols, rows, ox, oy)
        refined.append((fit, skin, (ox, oy, px, py)))
    refined.sort(key=lambda f: f[0])
    # the best fit of a sample, mostly closed and empty cells, may be a skin that draws
    # those alike and its digits otherwise (GNOME Mines' themes): when the board read in
    # it is not sure, the skins that fit nearly as well are read too, the first read
    # surely the answer (every check holds for each alike)
    first: BoardReading | None = None
    failed: VisionError | None = None
    for fit, skin, place in refined:
        if first is not None and fit > max(SKIN_SPREAD * refined[0][0] + 0.005, CLOSE):
            break
        try:
            reading = _placed(table, skin, cols, rows, place, mines)
        except VisionError as exc:
            # no board in this skin: the others are still read (a lost KMines board on
            # a lattice a pixel a cell off read unsure in KMines' skin, then found no
            # board in GNOME Mines' default theme, which ended the search before the
            # board was placed again on its own cells)
            failed = failed or exc
            continue
        if _clean(reading):
            return reading
        first = first or reading
    if first is None:
        assert failed is not None
        raise failed
    return first


SKIN_SPREAD = 2.0
"""A skin refined to within this many times the best fit's distance (and a little more),
or as near as a board's cells are to their templates (:data:`CLOSE`), is read too when
the best one's reading is not sure (see :func:`_read_lattice`): a fresh board's closed
cells, the same in two of GNOME Mines' themes, fit one of them almost exactly."""


def _placed(
    table: Any,
    skin: Skin,
    cols: Axis,
    rows: Axis,
    place: tuple[float, float, float, float],
    mines: int | None,
) -> BoardReading:
    """The board read in ``skin`` on the lattice ``cols`` x ``rows`` refined to ``place``
    (offsets and periods: :func:`_refine`), its periods last moved about the middle."""
    ox, oy, px, py = place
    cols = Axis(cols.start, px, cols.count, cols.profile)
    rows = Axis(rows.start, py, rows.count, rows.profile)
    ox, oy, px, py, _ = _centred(table, skin, cols, rows, ox, oy)
    cols = Axis(cols.start, px, cols.count, cols.profile)
    rows = Axis(rows.start, py, rows.count, rows.profile)
    return _grown(table, skin, cols, rows, ox, oy, mines)


def _grown(
    table: Any, skin: Skin, cols: Axis, rows: Axis, ox: float, oy: float, mines: int | None
) -> BoardReading:
    """The board read on the lattice of ``cols`` and ``rows`` (shifted by the offsets),
    grown beyond the lines found while the board reaches the lattice's edge."""
    h, w = table.shape[0] - 1, table.shape[1] - 1
    more = [2, 2, 2, 2]  # lines beyond those found: left, right, top, bottom
    for _ in range(6):
        xs = _within(cols, ox, more[0], more[1], w)
        ys = _within(rows, oy, more[2], more[3], h)
        core = (
            cols.start + ox,
            cols.start + ox + cols.count * cols.period,
            rows.start + oy,
            rows.start + oy + rows.count * rows.period,
        )
        reading, (x0, x1, y0, y1) = _read(table, skin, xs, ys, mines, core)
        grow = [
            x0 == 0 and xs[0] > cols.period,
            x1 == len(xs) - 1 and xs[-1] < w - cols.period,
            y0 == 0 and ys[0] > rows.period,
            y1 == len(ys) - 1 and ys[-1] < h - rows.period,
        ]
        if not any(grow):
            break
        for side, yes in enumerate(grow):
            if yes:
                more[side] *= 3
    return reading


def _within(axis: Axis, offset: float, before: int, after: int, size: int) -> list[float]:
    """The lines of ``axis`` shifted by ``offset``, ``before`` more before the first and
    ``after`` more after the last, within the image."""
    lines = [axis.start + offset + k * axis.period for k in range(-before, axis.count + 1 + after)]
    return [x for x in lines if -0.5 <= x <= size + 0.5]


def _fit(
    table: Any,
    skin: Skin,
    cols: Axis,
    rows: Axis,
    ox: float,
    oy: float,
    seen: dict[tuple[float, ...], float] | None = None,
) -> float:
    """Mean distance of a sample of cells to their nearest templates on a lattice;
    ``seen`` keeps the scores of the lattices tried already (the search around a fit
    comes back to the same ones)."""
    key = (cols.start + ox, cols.period, rows.start + oy, rows.period)
    if seen is not None:
        if key in seen:
            return seen[key]
        seen[key] = score = _fit(table, skin, cols, rows, ox, oy)
        return score
    xs, ys = cols.lines(ox), rows.lines(oy)
    sample = _sample(xs, ys, 80)
    if sample is None:
        return float("inf")
    return _trimmed(_nearest(skin, lattice_vectors(table, xs, ys, *sample)))


PHASES = 8
"""Offsets tried across a period, besides the edges' (see :func:`_rephased`)."""


def _rephased(
    table: Any, skin: Skin, cols: Axis, rows: Axis, ox: float, oy: float
) -> tuple[float, float]:
    """The offsets, among those found and the :data:`PHASES` spread evenly across a period
    on each axis in turn, that fit the templates best: the strongest edges a period holds
    need not be the cells' boundaries (KMines draws its cells' lines faintly, and a board
    of many ones repeats the ones' strokes at the period, a third of a cell off). When
    none of those fits within :data:`CLOSE`, as a board's cells do, every pair of the
    spread offsets is tried too: a lattice found on a digit's strokes can be off on
    both axes, and one axis moved alone then fits no better. Fifteen sample comparisons,
    or 79 when none fits (about 0.5 to 2 ms each)."""
    seen: dict[tuple[float, ...], float] = {}
    best = _fit(table, skin, cols, rows, ox, oy, seen)
    for axis in ("x", "y"):
        period = cols.period if axis == "x" else rows.period
        base = ox if axis == "x" else oy
        for k in range(1, PHASES):
            shift = base + k * period / PHASES
            if shift > period / 2:
                shift -= period
            nox, noy = (shift, oy) if axis == "x" else (ox, shift)
            score = _fit(table, skin, cols, rows, nox, noy, seen)
            if score < best - 1e-3:
                best, ox, oy = score, nox, noy
    if best > CLOSE:
        # no offset fits as a board's cells do: the search one axis at a time can miss
        # a fit that needs both offsets moved (KMines' cells fit their templates only
        # within a sixteenth of a cell each way: with one axis a third of a cell off,
        # every offset of the other fits alike), so every pair of the spread offsets
        # is tried
        bx, by = ox, oy
        for kx in range(PHASES):
            for ky in range(PHASES):
                nox = bx + kx * cols.period / PHASES
                noy = by + ky * rows.period / PHASES
                nox -= cols.period if nox > cols.period / 2 else 0.0
                noy -= rows.period if noy > rows.period / 2 else 0.0
                score = _fit(table, skin, cols, rows, nox, noy, seen)
                if score < best - 1e-3:
                    best, ox, oy = score, nox, noy
    return ox, oy


def _trimmed(nearest: Array) -> float:
    """The mean of the distances, each capped at :data:`CAP`: the sample may reach beyond
    the board (the lattice found can include a row of the window), where a cell's
    distance says nothing of the fit but that it is large."""
    np = numpy()
    return float(np.mean(np.minimum(nearest, CAP)))


def _refine(
    table: Any, skin: Skin, cols: Axis, rows: Axis, ox: float, oy: float
) -> tuple[float, float, float, float, float]:
    """The offsets and periods that fit the templates best near those found, and their
    score: the grid lines are known to a pixel or so, the templates decide the rest (a
    few dozen sample comparisons)."""
    px, py = cols.period, rows.period
    seen: dict[tuple[float, ...], float] = {}
    best = _fit(table, skin, cols, rows, ox, oy, seen)
    starts = cols.start, rows.start
    if abs(px - py) < 0.04 * px:
        # cells are square in every skin: when the two periods nearly agree, either axis may
        # take the other's period (about the same middle), the offsets searched anew
        found = (best, cols, rows, ox, oy)
        for p in (px, py):
            c, r = _rescaled(cols, p), _rescaled(rows, p)
            for dx in (-1.0, 0.0, 1.0):
                for dy in (-1.0, 0.0, 1.0):
                    score = _fit(table, skin, c, r, ox + dx, oy + dy, seen)
                    if score < found[0] - 1e-4:
                        found = (score, c, r, ox + dx, oy + dy)
        best, cols, rows, ox, oy = found
        px, py = cols.period, rows.period
    # the offsets first (a period moved early trades against them: GNOME Mines' gaps make
    # that landscape bumpy), then the periods, then both
    for moves in (("offset",), ("period",), ("offset", "period")):
        for step in (1.0, 0.5, 0.25):
            for axis in ("x", "y"):
                for move in moves:
                    for sign in (-1.0, 1.0):
                        c = Axis(cols.start, px, cols.count, cols.profile)
                        r = Axis(rows.start, py, rows.count, rows.profile)
                        nox, noy, npx, npy = ox, oy, px, py
                        if move == "offset":
                            if axis == "x":
                                nox += sign * step
                            else:
                                noy += sign * step
                        elif axis == "x":
                            npx += sign * step / max(1, cols.count)
                            c = Axis(cols.start, npx, cols.count, cols.profile)
                        else:
                            npy += sign * step / max(1, rows.count)
                            r = Axis(rows.start, npy, rows.count, rows.profile)
                        score = _fit(table, skin, c, r, nox, noy, seen)
                        if score < best - 1e-4:
                            best, ox, oy, px, py = score, nox, noy, npx, npy
    # the caller's lines start where its axes do
    return ox + cols.start - starts[0], oy + rows.start - starts[1], px, py, best


def _centred(
    table: Any, skin: Skin, cols: Axis, rows: Axis, ox: float, oy: float
) -> tuple[float, float, float, float, float]:
    """:func:`_refine`'s lattice (``cols`` and ``rows`` at their periods, shifted by the
    offsets) with each period moved about the board's middle line, which stays in place,
    and its score. :func:`_refine` moves a period about the first line, trading it against
    the offset: a skin with a one-pixel line between its cells (xdemineur) fits only once
    every line is within half a pixel, and the lines found may be a twelfth of a pixel a
    cell off (the two edges of a thin line are equally strong). Run for the skin chosen
    only: 13 sample comparisons at most."""
    seen: dict[tuple[float, ...], float] = {}
    px, py = cols.period, rows.period
    best = _fit(table, skin, cols, rows, ox, oy, seen)
    for step in (1.0, 0.5, 0.25):
        for axis in ("x", "y"):
            for sign in (-1.0, 1.0):
                nox, noy, npx, npy = ox, oy, px, py
                if axis == "x":
                    npx += sign * step / max(1, cols.count)
                    nox -= cols.count * (npx - px) / 2
                else:
                    npy += sign * step / max(1, rows.count)
                    noy -= rows.count * (npy - py) / 2
                c = Axis(cols.start, npx, cols.count, cols.profile)
                r = Axis(rows.start, npy, rows.count, rows.profile)
                score = _fit(table, skin, c, r, nox, noy, seen)
                if score < best - 1e-4:
                    best, ox, oy, px, py = score, nox, noy, npx, npy
    return ox, oy, px, py, best


def _rescaled(axis: Axis, period: float) -> Axis:
    """``axis`` with lines ``period`` apart, about the same middle."""
    middle = axis.start + axis.count * axis.period / 2
    return Axis(middle - axis.count * period / 2, period, axis.count, axis.profile)


def _offsets(axis: Axis) -> list[float]:
    return [o - axis.period if o > axis.period / 2 else o for o in phases(axis)]


def _sample(xs: list[float], ys: list[float], n: int) -> tuple[list[int], list[int]] | None:
    """About ``n`` cells spread over the inner lattice: the columns and the rows of a
    sub-lattice (for :func:`~minesolver.vision.templates.lattice_vectors`), or ``None``
    when there is none."""
    nx, ny = len(xs) - 1, len(ys) - 1
    if nx < 1 or ny < 1:
        return None
    step = max(1, int((nx * ny / n) ** 0.5))
    cols = [i for i in range(step // 2, nx, step) if xs[i] >= 0]
    rows = [j for j in range(step // 2, ny, step) if ys[j] >= 0]
    if not cols or not rows:
        return None
    return cols, rows


def _read(
    table: Any,
    skin: Skin,
    xs: list[float],
    ys: list[float],
    mines: int | None,
    core: tuple[float, float, float, float],
) -> tuple[BoardReading, tuple[int, int, int, int]]:
    """The reading of the board within the lattice ``xs`` x ``ys``, and the board's
    first and last lines in it (x0, x1, y0, y1). ``core`` (left, right, top, bottom) is
    the part of the image where the grid was found: surely board, it sets how closely
    each label's cells match in this image."""
    np = numpy()
    nx, ny = len(xs) - 1, len(ys) - 1
    if nx * ny > MAX_LATTICE:
        raise VisionError(
            f"no board found in the image: a lattice of {nx}x{ny} cells exceeds the limit "
            f"of {MAX_LATTICE} cells"
        )
    nearest, margin, cell_label, flat, by_label, order = _lattice_stats(table, skin, xs, ys)
    cx = (np.asarray(xs[:-1]) + np.asarray(xs[1:])) / 2
    cy = (np.asarray(ys[:-1]) + np.asarray(ys[1:])) / 2
    inside = ((cx >= core[0]) & (cx <= core[1]))[None, :] & ((cy >= core[2]) & (cy <= core[3]))[
        :, None
    ]
    limit = _limits(cell_label, nearest, margin, flat, inside)
    if skin.name in JITTER:
        unsure = ~_sure(nearest, margin, limit) & ~flat
        if 0 < unsure.sum() <= MAX_NUDGED:
            # judged by the limits of the cells as placed: the cells mended must not
            # make their label's limit in this image any tighter for the others
            _nudge(table, skin, xs, ys, unsure, (nearest, margin, cell_label, by_label))
    bad = ~_sure(nearest, margin, limit) | flat
    x0, x1, y0, y1 = _board_ends(flat, bad, nearest)
    typical = float(np.median(nearest[inside] if inside.any() else nearest))
    problem: str | None = None
    # the cells read surely as the skin's emptiest label (for the walls: see _walled), on
    # a lattice of square cells (any other is no board's, and is not cut to one)
    empty = ~bad & (cell_label == skin.labels[int(np.argmin(_structure(skin.vectors)))])
    px, py = (xs[-1] - xs[0]) / nx, (ys[-1] - ys[0]) / ny
    square = abs(px - py) <= SQUARE * max(px, py)

    bands: dict[tuple[str, int, int, int, int], bool] = {}

    def banded(side: str) -> bool:
        """Whether the edge line on ``side`` of the extent now kept is a band of the
        frame (see :func:`_banded`)."""
        key = (side, x0, x1, y0, y1)
        if key not in bands:
            bands[key] = _banded_line(side)
        return bands[key]

    def _banded_line(side: str) -> bool:
        line, beside = _edge_lines(side, (x0, x1, y0, y1))
        return _banded(
            _cells_at(table, xs, ys, line),
            _cells_at(table, xs, ys, beside),
            side in ("left", "right"),
        )

    while x1 - x0 > 1 and y1 - y0 > 1:  # drop edge rows and columns that are not board
        walled = _walled(bad, empty, (x0, x1, y0, y1)) if square else None
        if walled is not None:
            # beyond a wall is not board: how closely the board matches is judged within
            # the walls (the lines found may have spanned what lies beyond)
            x0, x1, y0, y1 = walled
            within = inside[y0:y1, x0:x1]
            if within.any():
                typical = float(np.median(nearest[y0:y1, x0:x1][within]))
            continue
        empty_side = _empty_line(cell_label, bad, (x0, x1, y0, y1))
        if empty_side is not None:
            # a strip of plain light grey beside the board (GNOME Mines' header bar above
            # it) read surely as empty cells, beside a closed one: no game shows that
            x0, x1, y0, y1 = empty_side
            continue
        edges = {
            "left": bad[y0:y1, x0].mean(),
            "right": bad[y0:y1, x1 - 1].mean(),
            "top": bad[y0, x0:x1].mean(),
            "bottom": bad[y1 - 1, x0:x1].mean(),
        }
        side = max(edges, key=lambda k: edges[k])
        if edges[side] <= EDGE_BAD:
            # every edge read surely: one that is a band of the frame, however it reads
            # (the frame beside a board scaled down reads as hidden cells or as empty
            # ones), is dropped (see _banded)
            side = next((k for k in edges if banded(k)), "")
            if not side:
                break
            x0, x1, y0, y1 = _inward(side, (x0, x1, y0, y1))
            continue
        if edges[side] < 1 - EDGE_GOOD:
            problem = (
                f"cannot tell where the board ends: the {side} row or column of cells is "
                f"read only in part ({100 * (1 - edges[side]):.0f}% of it)"
            )
            break
        line = {
            "left": (slice(y0, y1), x0),
            "right": (slice(y0, y1), x1 - 1),
            "top": (y0, slice(x0, x1)),
            "bottom": (y1 - 1, slice(x0, x1)),
        }[side]
        drawn = ~flat[line]
        like = max(LIKE_CELLS, 1.5 * typical + 0.02)
        if (
            drawn.mean() > 0.5
            and float(np.median(nearest[line][drawn])) < like
            and not banded(side)
        ):
            # unsure, yet as close to the templates as the board kept: cells of a board read
            # askew (or of another skin like this one), not the frame around it (a band of
            # the frame, the same all along, is no line of cells: see _banded)
            problem = (
                f"cannot tell where the board ends: the {side} row or column of cells looks "
                "like cells but cannot be read surely"
            )
            break
        inner = {
            "left": (slice(y0, y1), slice(x0 + 1, x1)),
            "right": (slice(y0, y1), slice(x0, x1 - 1)),
            "top": (slice(y0 + 1, y1), slice(x0, x1)),
            "bottom": (slice(y0, y1 - 1), slice(x0, x1)),
        }[side]
        closed = drawn & (cell_label[line] == "H")
        if (
            closed.mean() > 0.5
            and _like_the_board(
                _cells_at(table, xs, ys, line)[closed],
                _cells_at(table, xs, ys, inner),
                cell_label[line][closed],
                cell_label[inner],
            )
            and not banded(side)
        ):
            # closed cells far from the templates, yet like the board's own closed cells: a
            # row of the board read a pixel or two askew (the lattice's period a little off
            # piles up at the far edge), not the frame around it
            problem = (
                f"cannot tell where the board ends: the {side} row or column of cells looks "
                "like the board's own cells but cannot be read surely"
            )
            break
        x0, x1, y0, y1 = _inward(side, (x0, x1, y0, y1))
    width, height = x1 - x0, y1 - y0
    if width < 2 or height < 2:
        raise VisionError("no board found in the image: too few cells match a known skin")
    cells = []
    for y in range(y0, y1):
        for x in range(x0, x1):
            dist = by_label[y, x]
            ranked = np.argsort(dist)[:3]
            cand = tuple((order[k], round(float(dist[k]), 4)) for k in ranked)
            if cand[0][0] != cell_label[y, x]:
                # F or ?, decided on the pixels of the mark (_flag_or_mark): that label first
                cand = tuple(sorted(cand[:2], key=lambda c: c[0] != cell_label[y, x])) + cand[2:]
            cells.append(
                CellReading(
                    str(cell_label[y, x]),
                    float(nearest[y, x]),
                    float(margin[y, x]),
                    cand,
                    float(limit[y, x]),
                )
            )
    mines_from: str | None = None
    if mines is not None:
        mines_from = "given"
    elif (width, height) in _STANDARD:
        mines, mines_from = _STANDARD[width, height], "level"
    reading = BoardReading(
        skin.name,
        width,
        height,
        (xs[x0], ys[y0], xs[x1], ys[y1]),
        ((xs[x1] - xs[x0]) / width, (ys[y1] - ys[y0]) / height),
        tuple(cells),
        mines,
        mines_from,
    )
    if problem is None and not square:
        # every skin draws square cells (GNOME Mines' a pixel apart at most): a lattice of
        # cells far from square read surely is another period of the board's over cells
        # that look alike (half a row of closed cells reads as a closed cell)
        problem = (
            f"the cells read are {px:.1f} by {py:.1f} pixels, far from square: no game draws "
            "such cells (a lattice of another period over the board)"
        )
    if reading.problem is None and problem is None and skin.name in PALE_DIGITS:
        problem = _empty_beside_closed(reading)
    if reading.problem is None and problem is None:
        problem = _inconsistency(reading)
    if problem is None and all(c.label in _OPEN for c in cells):
        # a game always has a cell that may hold a mine: cells all open are another
        # picture read as a board (a lattice twice the cells' size over revealed cells)
        problem = "no cell of the board read is closed, flagged or a mine: not a game board"
    if problem is not None:
        reading = BoardReading(
            reading.skin,
            width,
            height,
            reading.box,
            reading.cell_size,
            reading.cells,
            mines,
            mines_from,
            problem,
        )
    return reading, (x0, x1, y0, y1)


def _empty_line(
    cell_label: Array, bad: Array, extent: tuple[int, int, int, int]
) -> tuple[int, int, int, int] | None:
    """The extent less an edge row or column whose cells read surely are all empty
    (``0``), at least half of it, beside a line with a closed cell read surely (hidden, a
    flag or a question mark) that touches one of them, or ``None`` when no edge is such.
    No game shows that (opening an empty cell opens all its neighbours), so that line is
    not the board's: a plain strip beside the board (GNOME Mines' light header bar above
    it, its title
    read unsure) read as empty cells. O(width + height)."""
    x0, x1, y0, y1 = extent
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    sure = ~bad
    empty = sure & (cell_label == "0")
    closed = sure & ((cell_label == "H") | (cell_label == "F") | (cell_label == "?"))
    for side in ("top", "bottom", "left", "right"):
        edge, beside = _edge_lines(side, extent)
        plain = (empty[edge] | bad[edge]).all() and empty[edge].mean() >= 0.5
        # a closed cell touching an empty one read surely (not one beside unsure cells
        # only: those may be digits of a real edge row read badly)
        near = empty[edge].copy()
        near[1:] |= empty[edge][:-1]
        near[:-1] |= empty[edge][1:]
        if plain and (closed[beside] & near).any():
            return _inward(side, extent)
    return None


def _edge_lines(
    side: str, extent: tuple[int, int, int, int]
) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """The index (rows, columns) of the edge line on ``side`` of ``extent`` (x0, x1, y0,
    y1) and of the line next to it, inward."""
    x0, x1, y0, y1 = extent
    rows, cols = slice(y0, y1), slice(x0, x1)
    return {
        "left": ((rows, x0), (rows, x0 + 1)),
        "right": ((rows, x1 - 1), (rows, x1 - 2)),
        "top": ((y0, cols), (y0 + 1, cols)),
        "bottom": ((y1 - 1, cols), (y1 - 2, cols)),
    }[side]


def _inward(side: str, extent: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """``extent`` (x0, x1, y0, y1) less its edge line on ``side``."""
    x0, x1, y0, y1 = extent
    if side == "left":
        return x0 + 1, x1, y0, y1
    if side == "right":
        return x0, x1 - 1, y0, y1
    if side == "top":
        return x0, x1, y0 + 1, y1
    return x0, x1, y0, y1 - 1


WALL = 1 - EDGE_BAD
"""A row or column with at least this share of its cells unsure may be a wall (the frame
around the board): see :func:`_walled`."""


def _walled(
    bad: Array, empty: Array, extent: tuple[int, int, int, int]
) -> tuple[int, int, int, int] | None:
    """The extent cut at a wall: a row or column in the outer half of the extent with at
    least :data:`WALL` of its cells unsure, more than the rows or columns beyond it on
    average, where every cell read surely is an empty one (``empty``: the skin's
    flattest label); the innermost such, on the side where it cuts most. A board's frame
    reads as such a wall, and the plain grey beyond it is not board even though it looks
    like empty cells (KMines draws its revealed cells faintly over the window's grey). A
    lattice drifting askew gets worse outward, not better, and a lattice of half the
    period shows digits between its walls: both are left to the usual edge checks.
    ``None`` when no side is walled. O(cells)."""
    x0, x1, y0, y1 = extent
    region, plain = bad[y0:y1, x0:x1], empty[y0:y1, x0:x1]
    cols, rows = region.mean(axis=0), region.mean(axis=1)  # each line's share unsure

    def beyond_is_plain(cells: Array, plain_cells: Array) -> bool:
        sure = ~cells
        return bool(sure.any() and (plain_cells | ~sure).all())

    cuts: list[tuple[int, tuple[int, int, int, int]]] = []
    for k in range((x1 - x0 - 1) // 2, 0, -1):  # columns from the left, innermost first
        if cols[k] >= WALL and cols[:k].mean() < cols[k]:
            if beyond_is_plain(region[:, :k], plain[:, :k]):
                cuts.append((k, (x0 + k, x1, y0, y1)))
            break
    for k in range(x1 - x0 - 1 - (x1 - x0 - 1) // 2, x1 - x0 - 1):  # from the right
        if cols[k] >= WALL and cols[k + 1 :].mean() < cols[k]:
            if beyond_is_plain(region[:, k + 1 :], plain[:, k + 1 :]):
                cuts.append((x1 - x0 - 1 - k, (x0, x0 + k + 1, y0, y1)))
            break
    for k in range((y1 - y0 - 1) // 2, 0, -1):  # rows from the top
        if rows[k] >= WALL and rows[:k].mean() < rows[k]:
            if beyond_is_plain(region[:k], plain[:k]):
                cuts.append((k, (x0, x1, y0 + k, y1)))
            break
    for k in range(y1 - y0 - 1 - (y1 - y0 - 1) // 2, y1 - y0 - 1):  # from the bottom
        if rows[k] >= WALL and rows[k + 1 :].mean() < rows[k]:
            if beyond_is_plain(region[k + 1 :], plain[k + 1 :]):
                cuts.append((y1 - y0 - 1 - k, (x0, x1, y0, y0 + k + 1)))
            break
    if not cuts:
        return None
    return max(cuts)[1]


def _board_ends(flat: Array, bad: Array, nearest: Array) -> tuple[int, int, int, int]:
    """The first and last columns and rows (x0, x1, y0, y1, ends exclusive) of a lattice
    of cells that may be board (``flat``: the flat patches, no cells; ``bad``: the cells
    not read surely; ``nearest``: each cell's distance to its nearest template).

    The board is where the cells are read surely: the rows and columns with at least
    half as many sure cells as the best. Beyond it, where no cell (across the board) is
    read surely, the frame begins at

    - a row with at least half its cells flat (a flat patch is no cell), or
    - the row next to the board when its cells are at least twice as far from the
      templates as those of the board's edge row: a lattice askew by a fraction of a
      pixel a cell moves a row's cells only a little farther than the next row's.

    The frame and the panel around a classic board, scaled down, read like cells (a flat
    grey patch with a faint edge is nearly an empty cell), which the edge checks of
    :func:`_read` would otherwise take for a board they cannot tell the end of. A row
    beyond with a cell read surely stops nothing (the board may go on there, under a
    window over part of it): the edges are left to the usual checks. O(cells)."""
    np = numpy()
    ny, nx = flat.shape
    x0, x1, y0, y1 = 0, nx, 0, ny
    sure = ~bad
    per_row, per_col = sure.sum(axis=1), sure.sum(axis=0)
    if per_row.max() == 0:
        return x0, x1, y0, y1
    rows = np.flatnonzero(per_row >= per_row.max() / 2)
    cols = np.flatnonzero(per_col >= per_col.max() / 2)
    r0, r1, c0, c1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    across = sure[:, c0:c1], flat[:, c0:c1], nearest[:, c0:c1]
    down = sure[r0:r1].T, flat[r0:r1].T, nearest[r0:r1].T

    def frame(lines: tuple[Array, Array, Array], edge: int, outward: range) -> int | None:
        """The first line of ``outward`` (from the board's ``edge`` line) that is frame."""
        ok, flats, near = lines
        for k in outward:
            beyond = ok[k:] if outward.step > 0 else ok[: k + 1]
            if beyond.any():
                return None
            next_to = k == outward.start
            far = float(np.median(near[k])) >= 2 * float(np.median(near[edge]))
            if flats[k].mean() >= 0.5 or (next_to and far):
                return k
        return None

    if (k := frame(across, r0, range(r0 - 1, -1, -1))) is not None:
        y0 = k + 1
    if (k := frame(across, r1 - 1, range(r1, ny))) is not None:
        y1 = k
    if (k := frame(down, c0, range(c0 - 1, -1, -1))) is not None:
        x0 = k + 1
    if (k := frame(down, c1 - 1, range(c1, nx))) is not None:
        x1 = k
    return x0, x1, y0, y1


LIKE_BOARD = 0.065
"""An edge row or column whose cells are (median) this near to cells of the same label
on the board kept is part of the board (see :func:`_like_the_board`)."""


def _cells_at(table: Any, xs: list[float], ys: list[float], where: tuple[Any, Any]) -> Array:
    """The vectors of the cells of the lattice ``xs`` x ``ys`` at ``where`` (an index of
    rows and of columns, each an int or a slice), in the order of an array indexed so:
    O(those cells x 768)."""
    np = numpy()
    nx, ny = len(xs) - 1, len(ys) - 1
    rows = np.arange(ny)[where[0]]
    cols = np.arange(nx)[where[1]]
    one_row, one_col = np.ndim(rows) == 0, np.ndim(cols) == 0
    rows, cols = np.atleast_1d(rows), np.atleast_1d(cols)
    vectors = lattice_vectors(table, xs, ys, cols, rows).reshape(len(rows), len(cols), -1)
    if one_row:
        return vectors[0]
    if one_col:
        return vectors[:, 0]
    return vectors


def _like_the_board(line: Array, board: Array, line_labels: Array, board_labels: Array) -> bool:
    """Whether the cells of an edge row or column (vectors ``line`` with their nearest
    labels) are, in the median, within :data:`LIKE_BOARD` of the board's own cells of the
    same label on the rest of the board (``board``, rows by columns by vector): then they
    are board cells that the lattice misses by a pixel or two, not the frame, a panel or
    the desktop, which are like no cell of the board. About 256 board cells of a label are
    compared: O(line x 256 x 768)."""
    np = numpy()
    flat_board = board.reshape(-1, board.shape[-1])
    flat_labels = board_labels.reshape(-1)
    nearest = []
    for vec, lab in zip(line, line_labels, strict=True):
        same = flat_board[flat_labels == lab]
        same = same[:: max(1, len(same) // 256)]
        if len(same) == 0:
            nearest.append(np.inf)
            continue
        nearest.append(float(np.sqrt(((same - vec) ** 2).mean(axis=1)).min()))
    return bool(len(nearest)) and float(np.median(nearest)) < LIKE_BOARD


BAND = 0.02
"""An edge row or column whose cells differ from the line's own profile across it by
less than this (root-mean-square, the median cell) is a band of the frame, not cells:
see :func:`_banded`."""
BAND_RATIO = 0.25
"""... when the board's line beside it differs from its own profile at least four times
as much (its cells' boundaries cross it)."""


def _banded(line: Array, beside: Array, down: bool) -> bool:
    """Whether an edge line of cells (``line``: their vectors, in order along the line,
    a column when ``down``) is a band: the same pixels all along it, the line of the
    board beside it (``beside``) not. A line of cells shows the boundaries between its
    cells, which cross it at every period (a hidden cell's bevel, a revealed cell's grid
    line); a bevelled frame beside the board, scaled, has the light and dark stripes of
    a hidden cell's sides and reads nearly as a column of hidden cells, but it is the
    same at every point along the board. Each cell is compared with the line's mean
    profile across it (the mean of the line's pixels at each place across): the median
    cell of a band differs from it by less than :data:`BAND`, and by less than
    :data:`BAND_RATIO` times the board's line beside it does from its own; and the
    profile has stripes (it is at least :data:`FLAT` from flat): a line of nearly flat
    empty cells (a skin that draws them faintly) is left to the other checks, never
    dropped as a band. O(line x 768)."""
    np = numpy()

    def spread(cells: Array) -> tuple[float, float]:
        """How far the median cell is from the line's profile across it, and how far
        that profile is from flat."""
        v = cells.reshape(len(cells), SIZE, SIZE, 3)
        # the profile across the line: over the cells and, within each, along the line
        profile = v.mean(axis=(0, 1), keepdims=True) if down else v.mean(axis=(0, 2), keepdims=True)
        off = float(np.sqrt(np.median(((v - profile) ** 2).mean(axis=(1, 2, 3)))))
        return off, float(np.sqrt(((profile - profile.mean()) ** 2).mean()))

    if len(line) == 0 or len(beside) == 0:
        return False
    own, stripes = spread(line)
    return own < BAND and stripes >= FLAT and own < BAND_RATIO * spread(beside)[0]
