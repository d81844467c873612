"""The board on a lattice: every cell of the lattice read (:mod:`minesolver.vision.cells`)
and where the board ends in it, the rows and columns at its edges that are not board
(unsure, flat, beyond the frame's wall, a band of the frame, a strip read as empty cells
beside closed ones) dropped, or the reading refused when the board's extent is unclear.
Cost O(cells x templates x 768) for the comparisons, O(cells) for the rest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from minesolver.vision._load import VisionError, numpy
from minesolver.vision.alike import PALE_DIGITS
from minesolver.vision.cells import (
    FLAT,
    MAX_NUDGED,
    NUDGED,
    _flattest,
    _lattice_stats,
    _limits,
    _nudge,
)
from minesolver.vision.check import _empty_beside_closed, _inconsistency
from minesolver.vision.grid import SQUARE
from minesolver.vision.reading import _OPEN, BoardReading, CellReading, _sure
from minesolver.vision.templates import SIZE, Skin, lattice_vectors

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
MAX_LATTICE = 1_000_000
"""The most cells a lattice read may hold (a board's limit is a quarter of it; the
lattice holds the frame around it): beyond, the image is refused before it is read."""
_STANDARD = {(9, 9): 10, (8, 8): 10, (16, 16): 40, (30, 16): 99, (16, 30): 99}
"""Board sizes of the standard levels and their mines (beginner old and new,
intermediate, expert either way round)."""


@dataclass(frozen=True, slots=True)
class _Judged:
    """Every cell of a lattice compared with a skin's templates and judged, arrays by
    rows and columns: the distance to the nearest template, the margin to the next
    label, that label, whether the cell is flat, each label's nearest distance (by
    ``order``, the skin's labels sorted), the limit trusted for the cell's label, whether
    the cell is bad (not sure, or flat), and whether it lies where the grid was found."""

    nearest: Array
    margin: Array
    label: Array
    flat: Array
    by_label: Array
    order: list[str]
    limit: Array
    bad: Array
    inside: Array


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
    nx, ny = len(xs) - 1, len(ys) - 1
    if nx * ny > MAX_LATTICE:
        raise VisionError(
            f"no board found in the image: a lattice of {nx}x{ny} cells exceeds the limit "
            f"of {MAX_LATTICE} cells"
        )
    judged = _judged(table, skin, xs, ys, core)
    px, py = (xs[-1] - xs[0]) / nx, (ys[-1] - ys[0]) / ny
    # a lattice of cells far from square is no board's, and is not cut to one
    square = abs(px - py) <= SQUARE * max(px, py)
    (x0, x1, y0, y1), problem = _extent(table, skin, xs, ys, judged, square)
    width, height = x1 - x0, y1 - y0
    if width < 2 or height < 2:
        raise VisionError("no board found in the image: too few cells match a known skin")
    cells = _cell_readings(judged, (x0, x1, y0, y1))
    mines, mines_from = _total(mines, width, height)
    reading = BoardReading(
        skin.name,
        width,
        height,
        (xs[x0], ys[y0], xs[x1], ys[y1]),
        ((xs[x1] - xs[x0]) / width, (ys[y1] - ys[y0]) / height),
        cells,
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
    problem = _refusal(reading, problem)
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


def _judged(
    table: Any,
    skin: Skin,
    xs: list[float],
    ys: list[float],
    core: tuple[float, float, float, float],
) -> _Judged:
    """Every cell of the lattice ``xs`` x ``ys`` compared with the skin's templates
    (:func:`~minesolver.vision.cells._lattice_stats`), the limits of its labels set by
    the cells within ``core`` (:func:`~minesolver.vision.cells._limits`), the unsure
    cells of a skin that lays its tiles a pixel off here and there read again shifted
    (:func:`~minesolver.vision.cells._nudge`), and the bad cells marked."""
    np = numpy()
    nearest, margin, cell_label, flat, by_label, order = _lattice_stats(table, skin, xs, ys)
    cx = (np.asarray(xs[:-1]) + np.asarray(xs[1:])) / 2
    cy = (np.asarray(ys[:-1]) + np.asarray(ys[1:])) / 2
    inside = ((cx >= core[0]) & (cx <= core[1]))[None, :] & ((cy >= core[2]) & (cy <= core[3]))[
        :, None
    ]
    limit = _limits(cell_label, nearest, margin, flat, inside)
    if skin.name in NUDGED:
        unsure = ~_sure(nearest, margin, limit) & ~flat
        if 0 < unsure.sum() <= MAX_NUDGED:
            # judged by the limits of the cells as placed: the cells mended must not
            # make their label's limit in this image any tighter for the others
            _nudge(table, skin, xs, ys, unsure, (nearest, margin, cell_label, by_label))
    bad = ~_sure(nearest, margin, limit) | flat
    return _Judged(nearest, margin, cell_label, flat, by_label, order, limit, bad, inside)


def _extent(
    table: Any, skin: Skin, xs: list[float], ys: list[float], judged: _Judged, square: bool
) -> tuple[tuple[int, int, int, int], str | None]:
    """The board's first and last lines (x0, x1, y0, y1) in the lattice ``xs`` x ``ys``
    whose cells are ``judged``, and why its extent is unclear (``None`` when it is
    clear): from the rows and columns that may be board (:func:`_board_ends`), edge
    rows and columns that are not board are dropped one at a time, those beyond a wall
    (:func:`_walled`, on a lattice of ``square`` cells only), a strip read as empty
    cells beside closed ones (:func:`_empty_line`), a band of the frame
    (:func:`_banded`) and a line mostly unsure that looks like nothing on the board
    (:func:`_unclear_edge`). O(cells) and O(line x 768) per line judged."""
    np = numpy()
    nearest, bad, inside = judged.nearest, judged.bad, judged.inside
    x0, x1, y0, y1 = _board_ends(judged.flat, bad, nearest)
    typical = float(np.median(nearest[inside] if inside.any() else nearest))
    # the cells read surely as the skin's emptiest label (for the walls: see _walled)
    empty = ~bad & (judged.label == skin.labels[_flattest(skin)[0]])
    bands: dict[tuple[str, int, int, int, int], bool] = {}

    def banded(side: str) -> bool:
        """Whether the edge line on ``side`` of the extent now kept is a band of the
        frame (see :func:`_banded`)."""
        key = (side, x0, x1, y0, y1)
        if key not in bands:
            line, beside = _edge_lines(side, (x0, x1, y0, y1))
            bands[key] = _banded(
                _cells_at(table, xs, ys, line),
                _cells_at(table, xs, ys, beside),
                side in ("left", "right"),
            )
        return bands[key]

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
        empty_side = _empty_line(judged.label, bad, (x0, x1, y0, y1))
        if empty_side is not None:
            # a strip of plain light grey beside the board (GNOME Mines' header bar above
            # it) read surely as empty cells, beside a closed one: no game shows that
            x0, x1, y0, y1 = empty_side
            continue
        crowded_side = _crowded_line(judged.label, bad, (x0, x1, y0, y1))
        if crowded_side is not None:
            # a strip read surely as 6s, 7s or 8s at the edge: no edge cell can show one
            x0, x1, y0, y1 = crowded_side
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
        problem = _unclear_edge(
            table, xs, ys, judged, side, edges[side], (x0, x1, y0, y1), typical, banded
        )
        if problem is not None:
            return (x0, x1, y0, y1), problem
        x0, x1, y0, y1 = _inward(side, (x0, x1, y0, y1))
    return (x0, x1, y0, y1), None


def _unclear_edge(
    table: Any,
    xs: list[float],
    ys: list[float],
    judged: _Judged,
    side: str,
    share_bad: float,
    extent: tuple[int, int, int, int],
    typical: float,
    banded: Callable[[str], bool],
) -> str | None:
    """Why the edge line on ``side`` of ``extent``, with ``share_bad`` of its cells not
    read surely, leaves the board's extent unclear, or ``None`` when it is no board's
    (dropped): read only in part, or unsure yet as near the templates as the board's
    cells (``typical``: their median distance) or as near its own cells of the same
    label, and no band of the frame (``banded``)."""
    np = numpy()
    x0, x1, y0, y1 = extent
    if share_bad < 1 - EDGE_GOOD:
        return (
            f"cannot tell where the board ends: the {side} row or column of cells is "
            f"read only in part ({100 * (1 - share_bad):.0f}% of it)"
        )
    line = {
        "left": (slice(y0, y1), x0),
        "right": (slice(y0, y1), x1 - 1),
        "top": (y0, slice(x0, x1)),
        "bottom": (y1 - 1, slice(x0, x1)),
    }[side]
    drawn = ~judged.flat[line]
    like = max(LIKE_CELLS, 1.5 * typical + 0.02)
    if (
        drawn.mean() > 0.5
        and float(np.median(judged.nearest[line][drawn])) < like
        and not banded(side)
    ):
        # unsure, yet as close to the templates as the board kept: cells of a board read
        # askew (or of another skin like this one), not the frame around it (a band of
        # the frame, the same all along, is no line of cells: see _banded)
        return (
            f"cannot tell where the board ends: the {side} row or column of cells looks "
            "like cells but cannot be read surely"
        )
    inner = {
        "left": (slice(y0, y1), slice(x0 + 1, x1)),
        "right": (slice(y0, y1), slice(x0, x1 - 1)),
        "top": (slice(y0 + 1, y1), slice(x0, x1)),
        "bottom": (slice(y0, y1 - 1), slice(x0, x1)),
    }[side]
    cell_label = judged.label
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
        return (
            f"cannot tell where the board ends: the {side} row or column of cells looks "
            "like the board's own cells but cannot be read surely"
        )
    return None


def _cell_readings(judged: _Judged, extent: tuple[int, int, int, int]) -> tuple[CellReading, ...]:
    """The readings of the cells of ``extent`` (x0, x1, y0, y1), row-major, each with
    its three nearest labels."""
    np = numpy()
    x0, x1, y0, y1 = extent
    cell_label, by_label, order = judged.label, judged.by_label, judged.order
    # every cell's three nearest labels at once (each row sorted as on its own)
    part = by_label[y0:y1, x0:x1]
    ranked = np.argsort(part, axis=2)[:, :, :3]
    near = np.take_along_axis(part, ranked, axis=2).tolist()
    ranked_list = ranked.tolist()
    labels = cell_label[y0:y1, x0:x1].tolist()
    nearest = judged.nearest[y0:y1, x0:x1].tolist()
    margin = judged.margin[y0:y1, x0:x1].tolist()
    limit = judged.limit[y0:y1, x0:x1].tolist()
    cells = []
    for y in range(y1 - y0):
        for x in range(x1 - x0):
            label = str(labels[y][x])
            cand = tuple(
                (order[k], round(d, 4)) for k, d in zip(ranked_list[y][x], near[y][x], strict=True)
            )
            if cand[0][0] != label:
                # F or ?, decided on the pixels of the mark (_flag_or_mark): that label first
                cand = tuple(sorted(cand[:2], key=lambda c: c[0] != label)) + cand[2:]
            cells.append(CellReading(label, nearest[y][x], margin[y][x], cand, limit[y][x]))
    return tuple(cells)


def _total(mines: int | None, width: int, height: int) -> tuple[int | None, str | None]:
    """The total of mines and where it came from: ``mines`` when given, a standard
    level's when the board is of its size, else unknown (the counter may tell it
    later)."""
    if mines is not None:
        return mines, "given"
    if (width, height) in _STANDARD:
        return _STANDARD[width, height], "level"
    return None, None


def _refusal(reading: BoardReading, problem: str | None) -> str | None:
    """``problem`` (why the board's extent is unclear or its cells far from square), or
    when there is none and every cell is read surely, why the board read is still no
    game's: a cell read empty beside a closed one in a skin of pale digits, digits no
    layout explains, or no cell closed."""
    if reading.problem is None and problem is None and reading.skin in PALE_DIGITS:
        problem = _empty_beside_closed(reading)
    if reading.problem is None and problem is None:
        problem = _inconsistency(reading)
    if problem is None and all(c.label in _OPEN for c in reading.cells):
        # a game always has a cell that may hold a mine: cells all open are another
        # picture read as a board (a lattice twice the cells' size over revealed cells)
        problem = "no cell of the board read is closed, flagged or a mine: not a game board"
    return problem


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


CROWDED = frozenset({"6", "7", "8"})
"""Digits no cell on a board's edge can show: it has five neighbours at most."""


def _crowded_line(
    cell_label: Array, bad: Array, extent: tuple[int, int, int, int]
) -> tuple[int, int, int, int] | None:
    """The extent less an edge row or column whose cells read surely are all digits no
    edge cell can show (:data:`CROWDED`), at least half of it, or ``None`` when no edge
    is such. Were that line the board's edge, each of those cells would have more mines
    than neighbours: it is not board. GNOME Mines' classic theme draws its 8 white on
    light grey, and the plain light grey of the window below the board reads surely so.
    O(width + height)."""
    x0, x1, y0, y1 = extent
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    crowded = ~bad & numpy().isin(cell_label, sorted(CROWDED))
    for side in ("top", "bottom", "left", "right"):
        edge, _ = _edge_lines(side, extent)
        if (crowded[edge] | bad[edge]).all() and crowded[edge].mean() >= 0.5:
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
    line_labels = np.asarray(line_labels)
    nearest = np.full(len(line), np.inf)
    # the line's cells of one label at once, a few at a time (each against the same
    # board cells: O(LIKE_CHUNK x 256 x 768) floats of memory at most)
    for lab in np.unique(line_labels):
        same = flat_board[flat_labels == lab]
        same = same[:: max(1, len(same) // 256)]
        if len(same) == 0:
            continue
        which = np.flatnonzero(line_labels == lab)
        for k in range(0, len(which), LIKE_CHUNK):
            part = which[k : k + LIKE_CHUNK]
            diff = same[None, :, :] - line[part][:, None, :]
            nearest[part] = np.sqrt((diff**2).mean(axis=2)).min(axis=1)
    return bool(len(nearest)) and float(np.median(nearest)) < LIKE_BOARD


LIKE_CHUNK = 16
"""The cells of a line compared with the board at once in :func:`_like_the_board`."""


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
