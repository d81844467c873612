"""Read a board from a screenshot: find the grid, pick the skin, read every cell. The
stages are modules of their own; this one runs them in turn.

1. Locate (:mod:`~minesolver.vision.grid`): :func:`~minesolver.vision.grid.find_axes`
   finds the columns and rows (period and extent) from the straight edges of the image.
2. Lattice (:mod:`~minesolver.vision.lattice`): for each shipped skin and each candidate
   offset of the cell boundary, a sample of the cells is compared with the skin's
   templates; the skin and offsets that fit best win, and offsets spread across the
   period are tried on each axis too
   (:func:`~minesolver.vision.lattice._rephased`); for GNOME Mines, whose tiles are of
   two sizes a pixel apart, the lines are then moved onto the tiles' own edges
   (:mod:`~minesolver.vision.snap`).
3. Cells (:mod:`~minesolver.vision.cells`, :mod:`~minesolver.vision.alike`,
   :mod:`~minesolver.vision.extent`): every cell (and one more row and column on each
   side, in case the outer lines were faint) is scaled to 16x16 and compared with each
   template: its label is the nearest template's, its margin the distance to the
   nearest template of another label. Rows and columns at the edges that match nothing
   are dropped, and so is what lies beyond a wall, the board's frame
   (:func:`~minesolver.vision.extent._walled`), and an edge line that is a band of the
   frame, the same all along however it reads (:func:`~minesolver.vision.extent._banded`).
4. Check (:mod:`~minesolver.vision.reading`, :mod:`~minesolver.vision.check`): a cell
   whose nearest template is far, or whose margin is small, is *unsure*; a board with
   an unsure cell, a mine shown (a lost game), digits that no layout explains or an
   edge the image cuts is refused with the reason, never returned as a confident
   position.
5. A lattice far from square cells is not read (cells are square in every skin); one
   that fits a sample poorly has the lattice of half its cells read first when that
   fits much better (:func:`_finer`). When the first lattice cannot be read surely
   (unsure cells, unclear edges, no skin), it is fitted again to the board it found,
   then (unless its edges are clear and few of its cells unsure:
   :data:`~minesolver.vision.check.FEW_UNSURE`) the other lattices of
   :func:`~minesolver.vision.grid.other_axes` are read, best fitting first
   (:func:`_ranked`); the first read surely is the answer (one whose digits no layout
   explains gives way to a coarser lattice's read surely:
   :func:`~minesolver.vision.check._coarser`; once there is one, only the lattices that
   may be coarser are read: :func:`_may_be_coarser`), else a board with few unsure
   cells (:func:`~minesolver.vision.check._nearly`), else the first reading with its
   reason.
6. Counter (:mod:`~minesolver.vision.counter`): the mine counter beside the board, and
   the total from it (:func:`_counted`).

Cost: O(pixels) for the edges and the summed-area table every cell is scaled from, then
O(cells x templates x 768) for the comparisons, a few hundred samples of 80 cells while
the lattice is fitted, for each of the skins placed (those far behind the best placed
wait until it is read: :data:`~minesolver.vision.lattice.GAIN`; a search over offsets
stops measuring a sample once it cannot beat its best): a median of about 0.4 s of CPU
over the labelled samples and the desktop captures
(``benchmarks/bench_vision_samples.py``), more for one whose first lattice cannot be
read (each other lattice read costs as much again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from minesolver.position import Position
from minesolver.vision._load import ImageSource, VisionError, load_rgb
from minesolver.vision.cells import CLOSE
from minesolver.vision.check import (
    _clean,
    _coarser,
    _cut_hidden,
    _cut_off,
    _cut_part,
    _empty_edge,
    _inconsistency,
    _inconsistent,
    _nearly,
)
from minesolver.vision.counter import read_counter
from minesolver.vision.grid import (
    SQUARE,
    Axis,
    _same,
    _skew,
    edge_maps,
    find_axes,
    halved,
    other_axes,
)
from minesolver.vision.lattice import (
    Fitted,
    Samples,
    _placement,
    _read_lattice,
    _refitted,
    lattice_fits,
    sample_fits,
)
from minesolver.vision.reading import BoardReading, CellReading
from minesolver.vision.templates import Skin, integral, load_skin, skin_names

__all__ = ["BoardReading", "CellReading", "Progress", "read_board", "read_screenshot"]

Progress = Callable[[str], None]
"""A callback told, in words, each stage a read comes to ("finding the board", "trying
another lattice (2)"): for a face to show what a long read is doing. It is called a few
times a read, from the reading thread; what it does changes nothing of the reading."""


def _quiet(stage: str) -> None:
    """The :data:`Progress` of a read no one watches."""


def read_board(
    image: ImageSource, *, mines: int | None = None, progress: Progress | None = None
) -> Position:
    """The position shown in a screenshot (a path, the file's bytes or a Pillow image).

    ``mines`` gives the total when known; otherwise it comes from the mine counter when
    it is read surely (the counter plus the flags on the board), else from the board
    size when that is a standard level, or stays unknown. Raises :class:`VisionError` when no board
    is found, a cell cannot be read surely, the game is lost, or the digits read are
    inconsistent: never a position the reader is not sure of. ``progress`` is told each
    stage the read comes to (see :data:`Progress`).
    """
    return read_screenshot(image, mines=mines, progress=progress).position()


def read_screenshot(
    image: ImageSource,
    *,
    mines: int | None = None,
    skins: tuple[str, ...] | None = None,
    progress: Progress | None = None,
) -> BoardReading:
    """Everything the reader saw: each cell's label, margin and candidates, the board's
    box and skin, the mine counter (see :class:`BoardReading`). Raises
    :class:`VisionError` only when no board is found at all; unsure cells and a lost
    game are reported in the reading (its :meth:`~BoardReading.position` refuses them).
    ``progress`` is told each stage the read comes to (see :data:`Progress`).
    """
    tell = progress or _quiet
    tell("decoding the image")
    rgb = load_rgb(image)
    tell("finding the board")
    edges = edge_maps(rgb)
    reading = _board(rgb, edges, mines, skins, tell)
    tell("checking the board's edges")
    cut = (
        _cut_off(edges, reading)
        or _cut_part(rgb, reading)
        or _empty_edge(reading)
        or _cut_hidden(rgb, edges, reading)
    )
    if cut is not None and reading._problem is None:
        reading = replace(reading, _problem=cut)
    tell("reading the mine counter")
    return _counted(rgb, reading, mines)


def _board(
    rgb: Any,
    edges: tuple[Any, Any],
    mines: int | None,
    skins: tuple[str, ...] | None,
    tell: Progress = _quiet,
) -> BoardReading:
    """The board read in ``rgb`` (:func:`read_screenshot` without the counter and
    the check of the image's edges), ``edges`` its :func:`~minesolver.vision.grid.edge_maps`,
    each lattice tried told to ``tell``."""
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
    if axes is not None and _skew(axes) > SQUARE:
        # cells are square in every skin: a lattice far from square is no board's (as
        # for the other lattices), and reading it (columns of half the rows' period)
        # took seconds to read nothing
        first = VisionError("no board found in the image: no lattice of square cells")
    # a reading read surely but inconsistent is kept while the other lattices are read:
    # a lattice of parts of the board's cells (half its period, over a board of few
    # digits) can read every cell surely, and its digits no layout explains
    pending: BoardReading | None = None
    near: list[BoardReading] = []  # readings of a clear extent, nearly every cell sure
    ahead: list[tuple[Axis, Axis]] = []  # finer lattices read before the one they halve

    def settled(reading: BoardReading | None) -> BoardReading | None:
        """``reading`` when it is the answer: read surely and consistent, or (once a
        reading read surely but inconsistent is kept) a coarser lattice's over it, whose
        cells are whole multiples of its cells, read surely and consistent, its edges
        no strip of empty cells beside closed ones (:func:`_empty_edge`)."""
        nonlocal pending
        if reading is None or not _clean(reading):
            return None
        if pending is None:
            if not _inconsistent(reading):
                return reading
            pending = reading
            return None
        if not _inconsistent(reading) and _coarser(pending, reading) and not _empty_edge(reading):
            # (not one whose edge reads as empty cells beside closed ones, which no game
            # shows: a lattice of two tiles a cell over a window's plain background)
            return reading
        return None

    def other(pair: tuple[Axis, Axis], fitted: Fitted | None = None) -> BoardReading | None:
        """The answer when the lattice ``pair`` (not the first) reads it (placed again
        on the board it found when not read surely), else ``None``, its readings of a
        clear extent and nearly every cell sure kept in ``near``."""
        try:
            reading = _read_lattice(table(), candidates, *pair, mines, spread=1.0, fitted=fitted)
        except VisionError:
            return None
        if (done := settled(reading)) is not None:
            return done
        again = None if _clean(reading) else _refitted(table(), reading, mines)
        if (done := settled(again)) is not None:
            return done
        near.extend(r for r in (reading, again) if r is not None and _nearly(r))
        return None

    def wanted(pair: tuple[Axis, Axis]) -> bool:
        """Whether the lattice ``pair`` may still give the answer: once a reading read
        surely but inconsistent is kept, only a coarser lattice's reading can take its
        place (see settled), and one that cannot be coarser is not read; nor is a half
        read already ahead of the lattice it halves (the lattices read in their own turn
        are not remembered: another lattice's half on other lines may be the board's,
        and read)."""
        if pending is not None and not _may_be_coarser(pending, pair):
            return False
        return not any(_same(pair, q) for q in ahead)

    def fitted_ahead(
        pair: tuple[Axis, Axis], fitted: Fitted | None = None
    ) -> tuple[Fitted, BoardReading | None]:
        """The sample fits of the lattice ``pair`` (``fitted`` when made already), and
        the answer when the lattice of half its cells fits so much better
        (:func:`_finer`) that it is read first and reads it."""
        if fitted is None:
            fitted = lattice_fits(table(), candidates, pair)
        finer = _finer(table(), candidates, pair, fitted, wanted)
        if finer is None:
            return fitted, None
        ahead.append(finer[0])
        tell("trying the lattice of half its cells")
        return fitted, other(*finer)

    if axes is not None and _skew(axes) <= SQUARE:
        tell("fitting the skins to the board's lattice")
        fitted, done = fitted_ahead(axes)
        if done is not None:
            return done
        try:
            first = _read_lattice(table(), candidates, *axes, mines, fitted=fitted)
        except VisionError as exc:
            first = exc

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
    if near_first is not None and _nearly(near_first):
        near.append(near_first)

    others = [pair for pair in other_axes(rgb, first=axes, edges=edges) if wanted(pair)]
    ranked: list[tuple[tuple[Axis, Axis], Fitted]] = []
    if others:  # (the running sums made only once there is a lattice to read)
        tell("fitting the skins to the other lattices")
        ranked = _ranked(table(), candidates, others)[::-1]
    tried = 1
    while ranked:
        # each lattice's samples let go once it is read (a lattice read keeps up to
        # SAMPLES_KEPT lattices' samples: tens of MiB)
        pair, fitted = ranked.pop()
        tried += 1
        if not wanted(pair):
            continue
        tell(f"trying another lattice ({tried})")
        fitted, done = fitted_ahead(pair, fitted)
        if done is not None or (done := other(pair, fitted)) is not None:
            return done
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


def _ranked(
    table: Any, candidates: list[Skin], pairs: list[tuple[Axis, Axis]]
) -> list[tuple[tuple[Axis, Axis], Fitted]]:
    """The lattices ``pairs`` with their sample fits, the best fitting first (in the
    order given among equals): once the lattice found first cannot be read, the others
    are read in turn, and one that fits as a board's cells do is the likeliest to be
    the board's (each wrong lattice read costs every skin placed and read, a second or
    more; the sample fits cost a tenth of that). The lattice found first keeps its
    place ahead of them: a crisp skin fits its board only once placed to a fraction of
    a pixel, and a wrong lattice may fit better at whole pixels. O(lattices x offsets
    x skins) sample comparisons."""
    fitted = [(pair, lattice_fits(table, candidates, pair)) for pair in pairs]
    return sorted(fitted, key=lambda f: f[1][0][0][0] if f[1][0] else float("inf"))


HALF_GAIN = 0.012
"""How much better than a lattice's own best sample fit the lattice of half its cells
must fit, at whole pixels, to be considered (:func:`_finer`)."""
HALF_PLACED = 0.6
"""The most the lattice of half a lattice's cells may fit, as a share of the lattice's
own, each one's best skin placed to a fraction of a pixel, to be read first
(:func:`_finer`). Measured on the labelled samples and desktops whose halves fit
:data:`HALF_GAIN` better at whole pixels: where the half was the board's, 0.32 to 0.44;
where it was not, 0.77 and above (a crisp skin, xdemineur's or the web page's, fits
its own board poorly at whole pixels, while KMines' skin fits quarters of its cells
fairly well: 0.0723 against 0.0435 at whole pixels, 0.0039 against 0.0435 placed)."""


def _finer(
    table: Any,
    candidates: list[Skin],
    pair: tuple[Axis, Axis],
    fitted: Fitted,
    wanted: Callable[[tuple[Axis, Axis]], bool],
) -> tuple[tuple[Axis, Axis], Fitted] | None:
    """The lattice of half the cells of ``pair`` and its sample fits, when it is to be
    read first: ``pair``'s best sample fit (of ``fitted``, its fits and samples) is no
    board's (above :data:`~minesolver.vision.cells.CLOSE`), the half's is better by
    :data:`HALF_GAIN`, and, each one's best skin placed, the half's fit is at most
    :data:`HALF_PLACED` of ``pair``'s (and the half is ``wanted``: not read already,
    and able to change the answer). A lattice of two cells each way (KMines' tiles of
    49.5 pixels at a display scale of 1.5, drawn 49 and 50 wide in turn, repeat exactly
    every two; a score board's lattice over a board of half its period) reads nothing
    surely, at the cost of every skin placed and read, where its half reads the board
    at once. The half's fits are first measured only while they may beat ``pair``'s by
    the gain (most of its samples are far off: a few of their cells each), and only a
    half that does has its fits measured in full and the two skins placed (about 70
    sample comparisons each). O(offsets x skins) sample comparisons, on a lattice that
    fits poorly only."""
    fits, own = fitted
    if not fits or fits[0][0] <= CLOSE:
        return None
    half = halved(pair)
    if half is None or not wanted(half):
        return None
    goal = fits[0][0] - HALF_GAIN
    samples = Samples()
    better = sample_fits(table, candidates, *half, samples, goal)
    if not better or better[0][0] > goal:
        return None
    half_fits = sample_fits(table, candidates, *half, samples)
    placed = _placement(table, fits[0], 0, *pair, own)[0]
    if _placement(table, half_fits[0], 0, *half, samples)[0] > HALF_PLACED * placed:
        return None
    return half, (half_fits, samples)


PERIOD_MOVE = 0.25
"""How far (as a share of its period) a lattice's period may be from a whole multiple of
a reading's cells for :func:`_may_be_coarser` to keep it: placing a skin moves a
lattice's period by a pixel or two, a reading coarser than another is within
:data:`~minesolver.vision.check.COARSER` of a multiple of its cells."""


def _may_be_coarser(fine: BoardReading, axes: tuple[Any, Any]) -> bool:
    """Whether a reading on the lattice ``axes`` (columns, rows) may be coarser than
    ``fine`` (:func:`~minesolver.vision.check._coarser`): its periods, two or more times
    ``fine``'s cells across and down, within :data:`PERIOD_MOVE`."""
    for cell, axis in zip(fine.cell_size, axes, strict=True):
        k = round(axis.period / cell)
        if k < 2 or abs(axis.period - k * cell) > PERIOD_MOVE * axis.period:
            return False
    return True


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
