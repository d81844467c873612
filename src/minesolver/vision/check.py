"""Checks of a board read, so that no board is returned that the reader is not sure of:
whether the board may run on past the image's edge (:func:`_cut_off`, :func:`_cut_part`) or
under a window laid over it (:func:`_cut_hidden`),
an edge line is a frame read as empty cells (:func:`_empty_edge`), the digits read have
a layout that explains them (:func:`_inconsistency`), and how the readings of several
lattices compare (:func:`_clean`, :func:`_nearly`, :func:`_coarser`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from minesolver.errors import MinesolverError
from minesolver.position import neighbour_table
from minesolver.vision._load import numpy
from minesolver.vision.grid import SQUARE
from minesolver.vision.reading import BoardReading

FEW_UNSURE = 0.1
"""A first reading whose extent is clear and with at most this share of its cells unsure
is the board's: the reader does not look for another lattice (a pointer over a cell is
no reason to)."""


def _inconsistent(reading: BoardReading) -> bool:
    """Whether a reading was refused only because no layout explains its digits."""
    return reading._problem is not None and reading._problem.startswith(
        "the board read is inconsistent"
    )


COARSER = 0.05
"""How far (as a share) a cell of a coarser lattice may be from a whole multiple of a
finer lattice's cell for :func:`_coarser`."""


def _coarser(fine: BoardReading, coarse: BoardReading) -> bool:
    """Whether ``coarse``'s cells are whole multiples (two or more times, within
    :data:`COARSER`) of ``fine``'s across and down, and its board covers more of the
    image: then ``fine`` is a lattice of parts of cells (a board's, or a strip of the
    frame's and the status bar's strokes beside it), not a board. A KMines board at
    display scale 0.8 had a strip of 34x2 half cells below it read surely in
    JSMinesweeper's skin, inconsistent, before the board itself."""
    for f, c in zip(fine.cell_size, coarse.cell_size, strict=True):
        k = round(c / f)
        if k < 2 or abs(c - k * f) > COARSER * c:
            return False

    def area(box: tuple[float, float, float, float]) -> float:
        return (box[2] - box[0]) * (box[3] - box[1])

    return area(coarse.box) > area(fine.box)


def _nearly(reading: BoardReading) -> bool:
    """Whether a reading not read surely is still a board's: its extent clear, its
    cells square and at most :data:`FEW_UNSURE` of them unsure (a pointer or a blot
    over a cell, a cell drawn unlike every template)."""
    cw, ch = reading.cell_size
    return (
        reading._problem is None
        and abs(cw - ch) <= SQUARE * max(cw, ch)
        and len(reading.unsure) <= FEW_UNSURE * len(reading.cells)
    )


def _empty_edge(reading: BoardReading) -> str | None:
    """Why the edge rows or columns of the board read are likely frame, or ``None``.

    A frame or a panel of flat grey beside a board reads much like a line of empty cells
    (0), and a window's plain background beside a lattice twice the board's period like
    several. No game shows such lines beside a hidden cell: opening an empty cell opens
    all its neighbours. So edge rows or columns read all 0 (one or more, up to the
    first that is not) whose next row or column holds a hidden cell, a flag or a
    question mark are no board's edge. O(width x height)."""
    w, h = reading.width, reading.height
    if w < 2 or h < 2:
        return None
    label = [c.label for c in reading.cells]
    rows = ["".join(label[y * w : (y + 1) * w]) for y in range(h)]
    cols = ["".join(label[y * w + x] for y in range(h)) for x in range(w)]
    sides = {"left": cols, "right": cols[::-1], "top": rows, "bottom": rows[::-1]}
    for side, lines in sides.items():
        k = 0
        while k < len(lines) - 1 and set(lines[k]) == {"0"}:
            k += 1
        if k and any(c in lines[k] for c in "HF?"):
            what = f"{side} row or column reads" if k == 1 else f"{k} {side} rows or columns read"
            return (
                f"cannot tell where the board ends: the {what} as empty cells beside "
                "hidden ones, which no game shows (a frame read as cells?)"
            )
    return None


def _cut_off(edges: tuple[Any, Any], reading: BoardReading) -> str | None:
    """Why the board read may run on past the image's edge, or ``None``.

    A screenshot cut through a row of cells shows part of that row between the board's
    last line and the image's edge: too little of each cell to read, so the reading
    drops it as it drops a frame, and would return a board a row short. What tells the
    two apart is the lattice's lines: the lines between columns run on through a cut row,
    and through no frame. For each side with a strip of at least a quarter of a cell
    between the board and the image's edge, the lines between the board's cells that
    run through the board's own edge row are followed into the strip (a pixel in from
    either end): a strip through which most of them run on is a cut row. A skin that
    draws no line between hidden cells (KMines) shows few, and a cut row of hidden cells
    there is not seen. O(cells along the side x strip's width).
    """
    np = numpy()
    vx, vy = edges  # vertical lines (h, w - 1), horizontal lines (h - 1, w)
    h, w = vy.shape[0] + 1, vx.shape[1] + 1
    left, top, right, bottom = reading.box
    cw, ch = reading.cell_size

    def shares(lines: Any, across: tuple[int, int], along: Any) -> Any:
        """For each line at ``along``, the share of the pixels ``across`` (along the
        line) with an edge within a pixel of it."""
        a0, a1 = across
        out = np.zeros(len(along))
        if a1 - a0 < 1:
            return out
        for k, pos in enumerate(along):
            c = round(pos)
            band = lines[a0:a1, max(0, c - 2) : c + 2]
            out[k] = float((band.max(axis=1) > 0).mean()) if band.size else 0.0
        return out

    xs_in = [left + i * cw for i in range(1, reading.width)]
    ys_in = [top + j * ch for j in range(1, reading.height)]
    sides = {
        # side: (strip width, lines, strip's pixels across, board row's, line positions)
        "bottom": (
            h - bottom,
            vx,
            (int(bottom) + 2, h - 1),
            (int(bottom - ch) + 2, int(bottom) - 1),
            xs_in,
        ),
        "top": (top, vx, (1, int(top) - 1), (int(top) + 2, int(top + ch) - 1), xs_in),
        "right": (
            w - right,
            vy.T,
            (int(right) + 2, w - 1),
            (int(right - cw) + 2, int(right) - 1),
            ys_in,
        ),
        "left": (left, vy.T, (1, int(left) - 1), (int(left) + 2, int(left + cw) - 1), ys_in),
    }
    for side, (strip, lines, outside, inside, along) in sides.items():
        size = ch if side in ("top", "bottom") else cw
        if strip >= size or strip < 0.25 * size or outside[1] - outside[0] < 2:
            continue  # a whole cell's room (read as no board) or too little to tell
        own = shares(lines, inside, along) >= 0.5  # the lines the board's edge row shows
        if own.sum() < 2:
            continue  # too few to tell (a skin that draws no line between hidden cells)
        if (shares(lines, outside, along)[own] >= 0.5).mean() >= 0.6:
            return (
                f"the board may run on past the image's {side} edge: part of a row of "
                "cells is cut off there (take the screenshot with the whole board)"
            )
    return None


EDGE_ROUNDING = 1e-6
"""How far under a whole pixel a board's edge computed as its first line plus a number
of periods may fall by rounding alone (208 read as 207.9999999999995): the strip beside
it is counted as that whole pixel's wider."""
PART_NEAR = 8.0
"""The most a strip at the image's edge may differ, a cell's width of it on average (in
levels of 0 to 255 per channel), from the same part of one of the board's own cells
for :func:`_cut_part` to take it for that part of a cut cell."""
PART_DRAWN = 8.0
"""The least a strip's colour must vary along it (the 95th percentile of its columns'
difference from its median column, or the median over the cells along it of the most
in each, in levels) for :func:`_cut_part` to judge it: a strip the same all along is a
frame or a cell's plain edge, which tells nothing."""


def _cut_part(rgb: Any, reading: BoardReading) -> str | None:
    """Why the board read may run on past the image's edge, or ``None``: the strip between
    the board and the image's edge is the part of a row of cells nearest the board.

    :func:`_cut_off` follows the lines between columns into a strip of at least a
    quarter of a cell; a strip thinner than that, or one of cells that draw no line
    between them (KMines' closed cells), it does not judge, and a board read without
    that strip is a row short. Here the strip, of 2 pixels up to a cell, is compared
    with the same part of each of the board's rows (the pixels at the same place in the
    cell, a pixel either way for the lattice's rounding): a strip that, over most of
    the board's columns, is nearly the same as that part of one of the board's cells in
    that column, and is not the same all along (a frame or a panel is; the lines between
    cells, a pixel in each, are enough), is the part of a cut row of cells. The frame
    around a board, cut close, is like no part of its cells, or the same all along.
    O(board's pixels x 3) per side with a strip.
    """
    np = numpy()
    h, w = rgb.shape[:2]
    left, top, right, bottom = reading.box
    cw, ch = reading.cell_size
    across = rgb.transpose(1, 0, 2)
    views = {
        # side: (image with that side at the top, board's first line, period across,
        # lines, first line along, period along, cells along)
        "top": (rgb, top, ch, reading.height, left, cw, reading.width),
        "bottom": (rgb[::-1], h - bottom, ch, reading.height, left, cw, reading.width),
        "left": (across, left, cw, reading.width, top, ch, reading.height),
        "right": (across[::-1], w - right, cw, reading.width, top, ch, reading.height),
    }
    for side, (image, edge, period, lines, start, step, count) in views.items():
        strip = int(edge + EDGE_ROUNDING)
        if strip < 2 or edge >= period:
            continue  # no room, or a whole cell's (read as no board: see _read)
        bounds = [int(start + j * step) for j in range(count + 1)]
        lo, hi = bounds[0], bounds[-1]
        if hi > image.shape[1] or lo < 0 or hi - lo < count:
            continue
        part = image[:strip, lo:hi].astype(np.int16)
        column = part.mean(axis=0)
        drawn = np.abs(column - np.median(column, axis=0)).max(axis=1)
        cells = np.asarray(bounds[:-1]) - lo
        # drawn over a twentieth of the strip, or in most cells (a line between cells
        # of 20 pixels or more is under a twentieth)
        varied = max(
            float(np.percentile(drawn, 95)), float(np.median(np.maximum.reduceat(drawn, cells)))
        )
        if varied < PART_DRAWN:
            continue  # the same all along: a frame, or a cell's plain edge
        # the rows compared below, in one block of memory (the left and right sides
        # are the image's columns: slices of them strided, each compare several times
        # slower)
        band = np.ascontiguousarray(image[: round(lines * period) + 2 + strip, lo:hi])
        nearest = np.full(count, np.inf)
        for k in range(1, lines + 1):
            for shift in (-1, 0, 1):
                row = round(k * period) + shift
                if row < 0 or row + strip > band.shape[0]:
                    continue
                # the mean of each column's differences, as a sum of whole levels over
                # their count: the same values as numpy's float mean over two axes, at
                # a tenth of its cost
                diff = np.abs(part - band[row : row + strip])
                diff = diff.sum(axis=0, dtype=np.int32).sum(axis=1) / (strip * 3)
                sums = np.add.reduceat(diff, cells) / np.diff(np.asarray(bounds))
                nearest = np.minimum(nearest, sums)
        if float(np.median(nearest)) > PART_NEAR:
            rows = [
                band[round(k * period) + shift :][:strip]
                for k in range(1, min(lines, PART_ROWS) + 1)
                for shift in (-1, 0, 1)
            ]
            nearest = np.minimum(nearest, _nearest_part(part, rows, cells))
        if float(np.median(nearest)) <= PART_NEAR:
            return (
                f"the board may run on past the image's {side} edge: part of a row of "
                "cells is cut off there (take the screenshot with the whole board)"
            )
    return None


COVER_SPAN = 0.95
"""The least share of the board's width (or height), a cell more on either side, along
which a straight edge must run for :func:`_cut_hidden` to take it for the edge of
something laid over the board (a window, a panel)."""


def _cut_hidden(rgb: Any, edges: tuple[Any, Any], reading: BoardReading) -> str | None:
    """Why the board read may run on under something laid over it, or ``None``: a
    window or a panel over the board's last row shows part of that row between the
    board and the window's straight edge, as an image cut there would (the reading
    drops it as a row it cannot read, and the board it returns is a row short).

    On each side, the nearest straight edge beyond the board, within a cell, that runs
    along the whole board and a cell past either end (:data:`COVER_SPAN` of it) is
    taken for such an edge, and the image is judged as if it ended there, by
    :func:`_cut_off` and :func:`_cut_part`: a frame around the board, whose outer edge
    is such a line too, is no part of a cell's row, so it is not taken for one.
    O(cells along the side x a cell's pixels) per side."""
    vx, vy = edges  # vertical lines (h, w - 1), horizontal lines (h - 1, w)
    h, w = rgb.shape[:2]
    left, top, right, bottom = reading.box
    cw, ch = reading.cell_size
    x0, x1 = max(0, int(left - cw)), min(w - 1, int(right + cw))
    y0, y1 = max(0, int(top - ch)), min(h - 1, int(bottom + ch))
    # side: (lines, positions beyond the board, nearest first, span along them)
    sides = {
        "bottom": (vy, range(int(bottom) + 2, min(h - 1, int(bottom + ch))), (x0, x1)),
        "top": (vy, range(int(top) - 2, max(0, int(top - ch)), -1), (x0, x1)),
        "right": (vx.T, range(int(right) + 2, min(w - 1, int(right + cw))), (y0, y1)),
        "left": (vx.T, range(int(left) - 2, max(0, int(left - cw)), -1), (y0, y1)),
    }
    for side, (lines, beyond, (a0, a1)) in sides.items():
        if a1 - a0 < 2:
            continue
        cover = next((k for k in beyond if float((lines[k, a0:a1] > 0).mean()) >= COVER_SPAN), None)
        if cover is None:
            continue
        # the image as if it ended at the covering edge (the edge's pixel kept)
        if side == "bottom":
            crop, box, cut = rgb[: cover + 1], reading.box, (vx[: cover + 1], vy[:cover])
        elif side == "right":
            crop, box, cut = rgb[:, : cover + 1], reading.box, (vx[:, :cover], vy[:, : cover + 1])
        elif side == "top":
            crop, cut = rgb[cover + 1 :], (vx[cover + 1 :], vy[cover + 1 :])
            box = (left, top - cover - 1, right, bottom - cover - 1)
        else:
            crop, cut = rgb[:, cover + 1 :], (vx[:, cover + 1 :], vy[:, cover + 1 :])
            box = (left - cover - 1, top, right - cover - 1, bottom)
        moved = replace(reading, box=box)
        if _cut_off(cut, moved) or _cut_part(crop, moved):
            return (
                f"the board may run on under a window or a panel at its {side} edge: part "
                "of a row of cells is hidden there (bring the whole board into view)"
            )
    return None


PART_ROWS = 2
"""The board's rows beside a cut one in which :func:`_nearest_part` looks for its
cells' like in any column: a skin that shades its board (KMines' open cells, lighter at
the top) draws the same cell alike only in rows near each other."""


def _nearest_part(part: Any, rows: list[Any], cells: Any) -> Any:
    """For each cell of the strip ``part`` (its columns start at ``cells``), the least
    mean difference (levels) from the same part of any cell of ``rows`` (strips of the
    board's rows, at the same place in their cells, as tall and wide as ``part``), in
    any column: a cut row's cells are of the kinds its neighbours show, though not
    always in the same column. The cells are compared on the narrowest cell's width.
    O(cells^2 x rows x strip's pixels per cell)."""
    np = numpy()
    width = int(np.diff(np.append(cells, part.shape[1])).min())
    wanted = np.stack([part[:, c : c + width] for c in cells])
    others = np.stack(
        [row[:, c : c + width] for row in rows if row.shape == part.shape for c in cells]
    ).astype(np.int16)
    if not len(others):
        return np.full(len(cells), np.inf)
    count = others[0].size
    return np.array(
        [np.abs(others - cell).sum(axis=(1, 2, 3), dtype=np.int64).min() / count for cell in wanted]
    )


def _clean(reading: BoardReading) -> bool:
    """Whether every cell of a reading is sure and its board's extent is clear (its
    position may still be refused as lost or inconsistent)."""
    return not reading.unsure and (
        reading._problem is None or reading._problem.startswith("the board read is inconsistent")
    )


def _empty_beside_closed(reading: BoardReading) -> str | None:
    """Why a board of a :data:`~minesolver.vision.alike.PALE_DIGITS` skin cannot be read:
    a cell read empty with a closed cell or a mine beside it (``H``, ``*`` or ``!``),
    which opening an empty cell never leaves, so the cell may be a pale digit. ``None``
    when there is none. O(cells)."""
    width = reading.width
    labels = [c.label for c in reading.cells]
    found = [
        (k % width, k // width)
        for k, around in enumerate(neighbour_table(width, reading.height))
        if labels[k] == "0" and any(labels[j] in "H*!" for j in around)
    ]
    if not found:
        return None
    cells = ", ".join(f"({x}, {y})" for x, y in found[:6])
    more = f" and {len(found) - 6} more" if len(found) > 6 else ""
    return (
        f"{len(found)} cell(s) read empty beside a closed cell or a mine: {cells}{more} "
        "(no game leaves that; this theme draws its 6, 7 and 8 so pale that one may read as "
        "an empty cell)"
    )


def _inconsistency(reading: BoardReading) -> str | None:
    """Why no mine layout explains the position read, or ``None`` when one does."""
    from minesolver.constraints import build

    position = reading.position()
    try:
        build(position)
        if position.mines is not None:
            from minesolver.analysis import analyze
            from minesolver.result import Limit

            analyze(position, engine="auto", limit=Limit(seconds=2.0))
    except MinesolverError as exc:
        if isinstance(exc, ValueError) and type(exc).__name__ == "InconsistentPosition":
            return f"the board read is inconsistent ({exc}): the screenshot may be misread"
        return None
    return None
