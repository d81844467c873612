"""The lattice fitted to a board: for each skin and each offset of the cells' boundary
the lines found allow, a sample of about 80 cells compared with the skin's templates;
the skins that fit best placed to a fraction of a pixel (offsets across the period,
then offsets and periods: :func:`_rephased`, :func:`_refine`, :func:`_centred`), those
far behind the best placed only if it is not read surely (:data:`GAIN`), and the board
read on the lattice of each in turn (:func:`~minesolver.vision.extent._read`), grown
while it reaches the lattice's edge. A few hundred sample comparisons of 0.5 to 2 ms
each."""

from __future__ import annotations

from typing import Any

from minesolver.vision._load import VisionError, numpy
from minesolver.vision.cells import CAP, CLOSE, JITTER, _nearest
from minesolver.vision.check import _clean
from minesolver.vision.extent import _read
from minesolver.vision.grid import Axis, phases
from minesolver.vision.reading import BoardReading
from minesolver.vision.snap import snapped_lattice
from minesolver.vision.templates import Skin, lattice_vectors, load_skin

Array = Any


EDGE_DISTANCE = 0.12
"""A row or column at the board's edge whose cells are on average farther than this from
the templates is not part of the board."""


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
    samples = Samples()
    ox, oy, px, py, _ = _refine(table, skin, cols, rows, 0.0, 0.0, samples)
    cols = Axis(left, px, reading.width, cols.profile)
    rows = Axis(top, py, reading.height, rows.profile)
    ox, oy, px, py, _ = _centred(table, skin, cols, rows, ox, oy, samples)
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


Fit = tuple[float, Skin, float, float]
"""A skin's fit to a sample of a lattice's cells at whole-pixel offsets: the mean
distance (:func:`_trimmed`), the skin and the offsets."""


def sample_fits(
    table: Any,
    candidates: list[Skin],
    cols: Axis,
    rows: Axis,
    samples: Samples,
    goal: float = CAP,
) -> list[Fit]:
    """Each skin's best fit to a sample of about 80 cells of the lattice ``cols`` x
    ``rows`` over the offsets its lines allow (:func:`_offsets`), best first (the
    candidates' order among equals). With a ``goal``, a fit is measured only while it
    may still be below it: a fit below the goal is exact, one above it only known to
    be above (to ask whether any skin fits better than the goal, at a fraction of the
    cost). O(offsets x skins) sample comparisons."""
    best: dict[str, Fit] = {}
    for ox in _offsets(cols):
        for oy in _offsets(rows):
            xs, ys = cols.lines(ox), rows.lines(oy)
            key = (cols.start + ox, cols.period, rows.start + oy, rows.period)
            vectors = samples.cells(table, xs, ys, (*key, cols.count, rows.count))
            if vectors is None:
                continue
            for skin in candidates:
                beat = min(best[skin.name][0], goal) if skin.name in best else goal
                score = _measured(skin, vectors, beat)
                if skin.name not in best or score < best[skin.name][0]:
                    best[skin.name] = (score, skin, ox, oy)
    fits = [best[skin.name] for skin in candidates if skin.name in best]
    fits.sort(key=lambda f: f[0])
    return fits


def _read_lattice(
    table: Any,
    candidates: list[Skin],
    cols: Axis,
    rows: Axis,
    mines: int | None,
    spread: float = 3.0,
    fitted: Fitted | None = None,
) -> BoardReading:
    """The board read on a lattice found in the image: the skin and offsets that fit a
    sample of its cells best (:func:`sample_fits`, or ``fitted``: those fits and the
    samples they were made from), refined (with every skin whose fit is within
    ``spread`` times the best's, but see :data:`REFINED`), then every cell read."""
    fits, samples = fitted or lattice_fits(table, candidates, (cols, rows))
    if not fits or fits[0][0] > EDGE_DISTANCE:
        raise VisionError("no board found in the image: no known skin matches its cells")
    # the offsets above are whole pixels: a skin whose templates are crisp (cut from
    # screenshots at one scale) fits only once placed to a fraction of a pixel, so the
    # skins that fit nearly as well are refined before one is chosen; lazily (see
    # :data:`GAIN`): a skin that cannot fit better than the best refined so far waits,
    # and is refined only when the skins read before it leave it a chance
    placed: list[tuple[float, int, Skin, tuple[float, float, float, float]]] = []
    waiting: list[int] = []  # positions in ``fits`` of the skins not refined yet
    families: set[str] = set()
    for k, (score, skin, _, _) in enumerate(fits):
        if score > spread * fits[0][0] + 0.01:
            break
        # (the skins waiting fit worse than the best placed: it is the least of them all)
        if k >= REFINED and min(p[0] for p in placed) <= CLOSE:
            break
        if placed and score - GAIN > min(p[0] for p in placed) and _family(skin) not in families:
            waiting.append(k)
            continue
        placed.append(_placement(table, fits[k], k, cols, rows, samples))
        families.add(_family(skin))

    def following() -> tuple[float, int, Skin, tuple[float, float, float, float]] | None:
        """The refined skin that fits best of those not read yet (the first in the order
        of the sample's fit among equals, as a stable sort puts it), once every skin
        waiting that could fit as well is refined too; ``None`` when none is left."""
        while True:
            if not placed and waiting:
                due = waiting[:1]
            elif not placed:
                return None
            else:
                head = min(placed, key=lambda p: (p[0], p[1]))
                due = [k for k in waiting if fits[k][0] - GAIN <= head[0]]
                if not due:
                    placed.remove(head)
                    return head
            families.update(_family(fits[k][1]) for k in due)
            for k in [k for k in waiting if _family(fits[k][1]) in families]:
                waiting.remove(k)
                placed.append(_placement(table, fits[k], k, cols, rows, samples))

    # the best fit of a sample, mostly closed and empty cells, may be a skin that draws
    # those alike and its digits otherwise (GNOME Mines' themes): when the board read in
    # it is not sure, the skins that fit nearly as well are read too, the first read
    # surely the answer (every check holds for each alike)
    first: BoardReading | None = None
    failed: VisionError | None = None
    least: float | None = None
    while (chosen := following()) is not None:
        fit, _, skin, place = chosen
        least = fit if least is None else least
        if first is not None and fit > max(SKIN_SPREAD * least + 0.005, CLOSE):
            break
        try:
            reading = _placed(table, skin, cols, rows, place, mines, samples)
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


GAIN = 0.03
"""How much refining a skin's placement may lower its fit below the sample's fit at
whole-pixel offsets, as far as it decides which skin is read: a skin whose sample fit,
less this, is above the best refined fit so far waits, and is refined only if the skins
refined better are read and none surely (:func:`_read_lattice`). Refining a skin is
about 70 sample comparisons, 80 more when no offset fits within :data:`CLOSE`; most
boards are read surely in the first skin read, so the skins far behind are never placed
(of the skins refined by a search that refines them all first, 35% on the labelled
samples and 40% on the desktop captures are not needed before that first read).
Measured, not proved: with every skin refined first, on the 169 labelled samples and
the 31 whole-desktop captures, the skin read first (or next) never waited behind a skin
of another family refined better with a gain above 0.0103 (the classic skin, behind
KMines' and others, on a maximised 30x16 KMines board at display scale 1.5), so the skins
are read in the same order and every reading is the same;
``tests/vision/test_skin_order.py`` keeps the samples nearest the bound. The skins of one
family (GNOME Mines' themes, :func:`_family`) are refined together, the first of them
refined starting them all: their tiles lie a pixel off the lattice here and there, and
on a lattice whose period is a little off their sample fits are all near the cap while
one of them, refined, fits within a hundredth (0.093 to 0.0015 on a 30x16 board)."""


def _family(skin: Skin) -> str:
    """The program whose looks a skin is: GNOME Mines' themes (:data:`JITTER`) are one."""
    return "gnome" if skin.name in JITTER else skin.name


def _placement(
    table: Any,
    fit: tuple[float, Skin, float, float],
    position: int,
    cols: Axis,
    rows: Axis,
    samples: Samples,
) -> tuple[float, int, Skin, tuple[float, float, float, float]]:
    """The skin of ``fit`` (its sample fit and offsets) placed to a fraction of a pixel
    (:func:`_rephased`, then :func:`_refine`): its refined fit, ``position`` (its place in
    the order of the sample fits), the skin and the placement (offsets and periods)."""
    _, skin, ox, oy = fit
    ox, oy = _rephased(table, skin, cols, rows, ox, oy, samples)
    ox, oy, px, py, refined = _refine(table, skin, cols, rows, ox, oy, samples)
    return refined, position, skin, (ox, oy, px, py)


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
    samples: Samples | None = None,
) -> BoardReading:
    """The board read in ``skin`` on the lattice ``cols`` x ``rows`` refined to ``place``
    (offsets and periods: :func:`_refine`), its periods last moved about the middle."""
    ox, oy, px, py = place
    cols = Axis(cols.start, px, cols.count, cols.profile)
    rows = Axis(rows.start, py, rows.count, rows.profile)
    ox, oy, px, py, _ = _centred(table, skin, cols, rows, ox, oy, samples)
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
        if skin.name in JITTER:
            # tiles of two sizes (GNOME Mines' whole pixels): the lines onto their edges
            xs, ys = snapped_lattice(table, xs, ys, core)
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


class Samples:
    """The cells sampled from the lattices tried on one image (:func:`_sample`, scaled by
    :func:`~minesolver.vision.templates.lattice_vectors`): every skin's fit is searched
    over the same lattices (each skin's search starts where the sample fit it best, most
    often the same offsets for all), so a lattice's cells are scaled once for them all.
    Kept in 8 bits (the scaled cells are whole levels of 255: the same float32 values
    come back), at most :data:`SAMPLES_KEPT` lattices, the oldest dropped first:
    O(SAMPLES_KEPT x 80 x 768) bytes."""

    def __init__(self) -> None:
        self._kept: dict[tuple[float, ...], Array | None] = {}

    def cells(
        self, table: Any, xs: list[float], ys: list[float], key: tuple[float, ...]
    ) -> Array | None:
        """The sampled cells of the lattice ``xs`` x ``ys`` (named by ``key``), or
        ``None`` when the lattice has no inner cell."""
        np = numpy()
        if key in self._kept:
            levels = self._kept[key]
            return None if levels is None else levels.astype(np.float32) / 255.0
        sample = _sample(xs, ys, 80)
        vectors = None if sample is None else lattice_vectors(table, xs, ys, *sample)
        if len(self._kept) >= SAMPLES_KEPT:
            del self._kept[next(iter(self._kept))]
        self._kept[key] = None if vectors is None else np.rint(vectors * 255.0).astype(np.uint8)
        return vectors


Fitted = tuple[list[Fit], Samples]
"""A lattice's sample fits (:func:`sample_fits`) and the samples they were made from."""


def lattice_fits(table: Any, candidates: list[Skin], pair: tuple[Axis, Axis]) -> Fitted:
    """The sample fits of the lattice ``pair`` (columns, rows) and their samples, each
    of the lattice's cells scaled once for every skin."""
    samples = Samples()
    return sample_fits(table, candidates, *pair, samples), samples


SAMPLES_KEPT = 256
"""The most lattices whose sampled cells :class:`Samples` keeps (about 16 MiB): more than
one skin's search tries (at most about 150), so the next skin's search over the same
lattices finds them all."""


def _fit(
    table: Any,
    skin: Skin,
    cols: Axis,
    rows: Axis,
    ox: float,
    oy: float,
    seen: dict[tuple[float, ...], float] | None = None,
    samples: Samples | None = None,
    beat: float = float("inf"),
) -> float:
    """Mean distance of a sample of cells to their nearest templates on a lattice;
    ``seen`` keeps the scores of the lattices tried already (the search around a fit
    comes back to the same ones), ``samples`` the lattices' sampled cells (shared by the
    skins). A lattice that cannot fit better than ``beat`` (the best of a search so
    far, which only falls while ``seen`` is kept) stops being measured once that is
    sure, and its score is then some value above ``beat`` (:func:`_measured`)."""
    key = (cols.start + ox, cols.period, rows.start + oy, rows.period)
    if seen is not None:
        if key in seen:
            return seen[key]
        seen[key] = score = _fit(table, skin, cols, rows, ox, oy, None, samples, beat)
        return score
    xs, ys = cols.lines(ox), rows.lines(oy)
    if samples is None:
        samples = Samples()
    vectors = samples.cells(table, xs, ys, (*key, cols.count, rows.count))
    if vectors is None:
        return float("inf")
    return _measured(skin, vectors, beat)


STOP_ROOM = 1e-5
"""Room, as a share, between a mean to beat and the sum at which :func:`_measured` stops
measuring: the kernel sums the distances in double precision, numpy's mean of them in
single (off by far less than this share)."""


def _measured(skin: Skin, vectors: Array, beat: float = float("inf")) -> float:
    """The sample ``vectors``' fit to ``skin`` (:func:`_trimmed` of their nearest
    distances), measured only while it may still be below ``beat``: once the cells
    measured are sure to put the mean above it, the kernel stops
    (:func:`~minesolver.vision.cells._nearest`'s ``stop``) and the cells left count
    :data:`~minesolver.vision.cells.CAP`, so the score is above ``beat`` as the true
    one is. A search that keeps a lattice only when it fits better than its best so
    far decides alike, and skips most of the cells of the offsets far off."""
    stop = beat * len(vectors) * (1 + STOP_ROOM) if beat < CAP else float("inf")
    return _trimmed(_nearest(skin, vectors, stop=stop))


PHASES = 8
"""Offsets tried across a period, besides the edges' (see :func:`_rephased`)."""


def _rephased(
    table: Any,
    skin: Skin,
    cols: Axis,
    rows: Axis,
    ox: float,
    oy: float,
    samples: Samples | None = None,
) -> tuple[float, float]:
    """The offsets, among those found and the :data:`PHASES` spread evenly across a period
    on each axis in turn, that fit the templates best: the strongest edges a period holds
    need not be the cells' boundaries (KMines draws its cells' lines faintly, and a board
    of many ones repeats the ones' strokes at the period, a third of a cell off). When
    none of those fits within :data:`CLOSE`, as a board's cells do, every pair of the
    spread offsets is tried too: a lattice found on a digit's strokes can be off on
    both axes, and one axis moved alone then fits no better (for GNOME Mines' themes,
    when none fits within :data:`JITTER_CLOSE`). Fifteen sample comparisons, or 79 when
    none fits (about 0.5 to 2 ms each)."""
    seen: dict[tuple[float, ...], float] = {}
    best = _fit(table, skin, cols, rows, ox, oy, seen, samples)
    for axis in ("x", "y"):
        period = cols.period if axis == "x" else rows.period
        base = ox if axis == "x" else oy
        for k in range(1, PHASES):
            shift = base + k * period / PHASES
            if shift > period / 2:
                shift -= period
            nox, noy = (shift, oy) if axis == "x" else (ox, shift)
            score = _fit(table, skin, cols, rows, nox, noy, seen, samples, best)
            if score < best - 1e-3:
                best, ox, oy = score, nox, noy
    if best > (JITTER_CLOSE if skin.name in JITTER else CLOSE):
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
                score = _fit(table, skin, cols, rows, nox, noy, seen, samples, best)
                if score < best - 1e-3:
                    best, ox, oy = score, nox, noy
    return ox, oy


JITTER_CLOSE = 0.06
"""How near GNOME Mines' themes (:data:`~minesolver.vision.cells.JITTER`) fit at the
offsets spread across a period for :func:`_rephased` to try no pairs of them: their
tiles stand a pixel off any lattice of equal cells here and there (60 and 62 pixels on
one board), so at their own offsets they fit a sample only within 0.02 to 0.05; every
pair was tried on 234 of their 290 placements over the labelled samples and desktops,
and moved the offsets twice, from fits of 0.089 (by 0.001). 64 sample comparisons
saved a placement."""


def _trimmed(nearest: Array) -> float:
    """The mean of the distances, each capped at :data:`CAP`: the sample may reach beyond
    the board (the lattice found can include a row of the window), where a cell's
    distance says nothing of the fit but that it is large."""
    np = numpy()
    return float(np.mean(np.minimum(nearest, CAP)))


def _refine(
    table: Any,
    skin: Skin,
    cols: Axis,
    rows: Axis,
    ox: float,
    oy: float,
    samples: Samples | None = None,
) -> tuple[float, float, float, float, float]:
    """The offsets and periods that fit the templates best near those found, and their
    score: the grid lines are known to a pixel or so, the templates decide the rest (a
    few dozen sample comparisons)."""
    px, py = cols.period, rows.period
    seen: dict[tuple[float, ...], float] = {}
    best = _fit(table, skin, cols, rows, ox, oy, seen, samples)
    starts = cols.start, rows.start
    if abs(px - py) < 0.04 * px:
        # cells are square in every skin: when the two periods nearly agree, either axis may
        # take the other's period (about the same middle), the offsets searched anew
        found = (best, cols, rows, ox, oy)
        for p in (px, py):
            c, r = _rescaled(cols, p), _rescaled(rows, p)
            for dx in (-1.0, 0.0, 1.0):
                for dy in (-1.0, 0.0, 1.0):
                    score = _fit(table, skin, c, r, ox + dx, oy + dy, seen, samples, found[0])
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
                        score = _fit(table, skin, c, r, nox, noy, seen, samples, best)
                        if score < best - 1e-4:
                            best, ox, oy, px, py = score, nox, noy, npx, npy
    # the caller's lines start where its axes do
    return ox + cols.start - starts[0], oy + rows.start - starts[1], px, py, best


def _centred(
    table: Any,
    skin: Skin,
    cols: Axis,
    rows: Axis,
    ox: float,
    oy: float,
    samples: Samples | None = None,
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
    best = _fit(table, skin, cols, rows, ox, oy, seen, samples)
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
                score = _fit(table, skin, c, r, nox, noy, seen, samples, best)
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
