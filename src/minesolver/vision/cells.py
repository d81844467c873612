"""Cells compared with a skin's templates: each cell scaled to 16x16 pixels (from the
image's running sums) and measured against every template, its label the nearest
template's, its margin the distance to the nearest template of another label, and the
limit trusted for its label in this image (:func:`_limits`). The fits of a lattice need
only each cell's nearest distance (:func:`_nearest`, bounded on coarse vectors first);
reading a board needs every label's (:func:`_lattice_stats`), a band of rows at a time.
Cost O(cells x templates x 768)."""

from __future__ import annotations

from functools import cache
from typing import Any

import minesolver._native as _native
from minesolver.vision._load import VisionError, numpy
from minesolver.vision.alike import _digit_strokes, _flag_or_mark, _pale_or_empty
from minesolver.vision.reading import MAX_DISTANCE, MIN_MARGIN
from minesolver.vision.templates import (
    Skin,
    box_vectors,
    lattice_vectors,
    load_skin,
)

Array = Any


CLOSE = 0.035
"""A cell at the board's edge is on the board when its nearest template is within this
distance (or three times the typical distance of the better half of the cells, when the
screenshot is blurred more than that)."""
FLAT = 0.03
"""A cell closer than this to a flat patch of one colour is no cell: a skin draws the
edges of its cells (a hidden cell's bevel, a revealed cell's grid line or gap); a skin
whose flattest template is nearly flat lowers it to half that template's."""
BAND_CELLS = 4096
"""Cells scaled and compared at a time (about 12 MiB of scaled cells): bounds the memory
a large lattice takes."""
CAP = 0.1
"""A cell's distance to its nearest template counts up to this in a fit's score."""


def _distances(skin: Skin, vectors: Array) -> Array:
    """Root-mean-square distance of each cell (rows) to each template (columns)."""
    return _rms(vectors, skin.vectors, skin.norms)


def _rms(vectors: Array, templates: Array, norms: Array) -> Array:
    """Root-mean-square distance of each row of ``vectors`` to each row of ``templates``
    (whose squared norms are ``norms``): O(rows x templates x length)."""
    np = numpy()
    squares = _mean_squares(vectors, templates, norms)
    return np.sqrt(squares, out=squares)


def _mean_squares(vectors: Array, templates: Array, norms: Array) -> Array:
    """The squares of :func:`_rms`, by the product of the two matrices."""
    np = numpy()
    # einsum's own loop for a few rows: a threaded BLAS waking its threads for each small
    # product costs ten times the product on a busy machine; the BLAS product for many
    # (a lattice's band, a GNOME board's shifted cells), where its blocking wins fivefold
    if len(vectors) >= BLAS_ROWS:
        cross = vectors @ templates.T
    else:
        cross = np.einsum("ij,kj->ik", vectors, templates)
    # the same operations as ``max(|v|² + |t|² - 2 v.t, 0) / length`` in that order, in
    # place: the arrays are cells x templates, and each temporary as large
    sq = np.add((vectors**2).sum(axis=1)[:, None], norms[None, :])
    cross *= 2
    sq -= cross
    np.maximum(sq, 0, out=sq)
    sq /= vectors.shape[1]
    return sq


ROUNDING = 1e-4
"""More than two products in single precision (:func:`_mean_squares`, by einsum or BLAS)
may disagree by on a distance, on 768 values in 0..1."""
BLAS_ROWS = 512
"""Rows from which :func:`_mean_squares` takes the BLAS product (measured here: a fifth of
einsum's CPU time at 1,024 rows and 585 templates, no better at 256)."""
SLACK = 1e-5
"""Room for rounding in :func:`_nearest`'s bounds: a mean square of block means summed in
single precision (sums of 48 or 192 terms of at most 1, off by far less than 1e-5)."""


def _nearest(skin: Skin, vectors: Array, cap: float = CAP, stop: float = float("inf")) -> Array:
    """Each cell's distance to its nearest template, capped at ``cap``: what a fit's
    score needs, without measuring every pair. The distance of two cells' coarse vectors
    (:func:`~minesolver.vision.templates.coarse`) bounds theirs from below, so a template
    whose bound is above the nearest distance found so far (or above the cap) cannot be
    nearer; the templates left are bounded again on their
    :func:`~minesolver.vision.templates.medium` vectors (four times as long, closer),
    and a sum of squares stops once it passes that distance. In the native core
    (``minesolver._native.nearest``, which makes the cells' coarse and medium vectors),
    each distance summed in double precision in one order, so the answer is the least
    distance over all templates, the same on every machine. O(cells x templates x 48 +
    templates left x 192 + those left x 768), against the full product's O(cells x
    templates x 768). ``stop``: once the distances measured sum to more than this, the
    cells left are given ``cap`` unmeasured (see :func:`~minesolver.vision.lattice._measured`)."""
    np = numpy()
    n = len(vectors)
    out = np.empty(n, dtype=np.float32)
    if n == 0:
        return out

    def rows(values: Array) -> Array:
        return np.ascontiguousarray(values, dtype=np.float32)

    _native.nearest(
        rows(vectors),
        rows(skin.vectors),
        rows(skin.medium),
        rows(skin.coarse),
        cap,
        SLACK,
        stop,
        out,
    )
    return out


JITTER = frozenset({"gnome", "gnome-classic", "gnome-default"})
"""Skins whose tiles stand a pixel off the lattice here and there: GNOME Mines lays its
tiles out in whole pixels, the leftover pixels of the board's size going to some rows and
columns (tiles of 31 and 30 pixels on one board), so no lattice of equal cells fits every
tile to a pixel (see :func:`_nudge`)."""
NUDGED = JITTER | {"kmines-classic"}
"""Skins whose cells not read surely are read again shifted (:func:`_nudge`): GNOME
Mines' themes (:data:`JITTER`), and KMines' classic theme, which at a fractional display
scale draws its tiles in whole pixels too (at 1.25, tiles of 33.75 pixels drawn 33 and
34 pixels wide, their dark lines one pixel or two). Not KMines' default theme: it draws
its revealed cells faintly over the window's grey, and that grey beside a board, shifted,
reads as empty cells (a lost 10x10 board was then read with six columns of them)."""
NUDGES = (-2, -1, 0, 1, 2)
"""The shifts of a cell tried by :func:`_nudge`, in :data:`NUDGE_STEP` of the period."""
NUDGE_STEP = 1 / 40
"""A fortieth of the period: about a pixel of GNOME Mines' tiles (30 to 49 pixels) at
any display scale."""
MAX_NUDGED = 256
"""The most cells :func:`_nudge` reads again: more unsure cells than this are another
lattice's, which a shift of a pixel will not mend."""


def _nudge(
    table: Any,
    skin: Skin,
    xs: list[float],
    ys: list[float],
    cells: Array,
    stats: tuple[Array, Array, Array, Array],
) -> None:
    """Read the ``cells`` (a mask of the lattice ``xs`` x ``ys``) again shifted by a
    pixel or two (:data:`NUDGES` steps of :data:`NUDGE_STEP` of the period, on each axis)
    and keep, for each, the shift whose nearest template is nearest, when it is nearer
    than the cell as placed: ``stats`` (nearest, margin, label and per label: the
    arrays of :func:`_lattice_stats`) are updated in place. A skin that places its tiles
    a pixel off the lattice here and there (:data:`JITTER`) shows such a tile a pixel off
    its templates, and unsure. The reading of a shifted cell is judged as any other (its
    margin to the next label included), so a shift gives no cell a label it is not
    sure of. O(cells x 24 x templates x 768), by the BLAS product; the rest of the
    comparison (margins, labels) only for the shifted cells nearer than as placed."""
    np = numpy()
    nearest, margin, cell_label, by_label = stats
    labels = np.asarray(skin.labels)
    order = sorted(set(skin.labels))
    index = np.searchsorted(np.asarray(order), labels)
    flat_below = min(FLAT, 0.5 * _flattest(skin)[1])
    rows, cols = np.nonzero(cells)
    x0 = np.asarray(xs, dtype=np.float64)[cols]
    x1 = np.asarray(xs, dtype=np.float64)[cols + 1]
    y0 = np.asarray(ys, dtype=np.float64)[rows]
    y1 = np.asarray(ys, dtype=np.float64)[rows + 1]
    px, py = (x1 - x0) * NUDGE_STEP, (y1 - y0) * NUDGE_STEP
    best = nearest[rows, cols].astype(np.float64)
    shifts = [(dx, dy) for dx in NUDGES for dy in NUDGES if (dx, dy) != (0, 0)]
    step = max(1, BAND_CELLS // len(rows))  # shifts scaled and compared at a time
    for s0 in range(0, len(shifts), step):
        part = shifts[s0 : s0 + step]
        # the cells shifted each way of the part at once: (shifts, cells) boxes
        sx = np.asarray([dx for dx, _ in part], dtype=np.float64)[:, None] * px[None, :]
        sy = np.asarray([dy for _, dy in part], dtype=np.float64)[:, None] * py[None, :]
        vectors = box_vectors(
            table, (x0 + sx).ravel(), (y0 + sy).ravel(), (x1 + sx).ravel(), (y1 + sy).ravel()
        )
        # only a shifted cell nearer to some template than the cell as placed can be
        # kept (with room for rounding: the nearest distance is summed in double
        # precision, the full comparison's in single): those alone are compared in full.
        # The nearest distance alone is asked (capped above every cell's distance as
        # placed: a shifted cell that far is not kept whatever its distance)
        cap = float(best.max()) + 2 * ROUNDING
        rough = _nearest(skin, vectors, cap).reshape(len(part), len(rows))
        which, ks = np.nonzero(rough < best[None, :] - 1e-6 + ROUNDING)
        if len(which) == 0:
            continue
        near, marg, lab, flt, per = (
            a[0]
            for a in _compared(
                skin,
                vectors.reshape(len(part), len(rows), -1)[which, ks][None],
                flat_below,
                index,
                len(order),
            )
        )
        for j in range(len(which)):  # in order: the first of equally near shifts is kept
            k = ks[j]
            if near[j] < best[k] - 1e-6 and not flt[j]:
                r, c = rows[k], cols[k]
                best[k] = near[j]
                nearest[r, c], margin[r, c], cell_label[r, c] = near[j], marg[j], lab[j]
                by_label[r, c] = per[j]


def _lattice_stats(
    table: Any, skin: Skin, xs: list[float], ys: list[float]
) -> tuple[Array, Array, Array, Array, Array, list[str]]:
    """Every cell of the lattice ``xs`` x ``ys`` compared with the skin's templates:
    arrays of shape (rows, columns) of the distance to the nearest template, the margin
    to the nearest of another label, that nearest label, and whether the cell is flat;
    and, for each label of ``order`` (the skin's labels sorted), the distance to its
    nearest template (rows, columns, labels).

    The cells are scaled and compared a band of rows at a time, so the memory used is
    O(pixels + cells x labels) however many cells the lattice holds, not O(cells x 768 +
    cells x templates). Time O(cells x templates x 768)."""
    np = numpy()
    nx, ny = len(xs) - 1, len(ys) - 1
    labels = np.asarray(skin.labels)
    order = sorted(set(skin.labels))
    index = np.searchsorted(np.asarray(order), labels)
    # flatter than any cell the skin draws (GNOME Mines' empty cell is nearly flat)
    flat_below = min(FLAT, 0.5 * _flattest(skin)[1])
    nearest = np.empty((ny, nx), dtype=np.float32)
    margin = np.empty((ny, nx), dtype=np.float32)
    cell_label = np.empty((ny, nx), dtype=labels.dtype)
    flat = np.empty((ny, nx), dtype=bool)
    by_label = np.full((ny, nx, len(order)), np.inf, dtype=np.float32)
    band = max(1, BAND_CELLS // max(nx, 1))
    for r0 in range(0, ny, band):
        r1 = min(ny, r0 + band)
        vectors = lattice_vectors(table, xs, ys, None, range(r0, r1))
        part = _compared(skin, vectors.reshape(r1 - r0, nx, -1), flat_below, index, len(order))
        nearest[r0:r1], margin[r0:r1], cell_label[r0:r1], flat[r0:r1], by_label[r0:r1] = part
    return nearest, margin, cell_label, flat, by_label, order


def _compared(
    skin: Skin, vectors: Array, flat_below: float, index: Array, labels: int
) -> tuple[Array, Array, Array, Array, Array]:
    """Cells (``vectors``: rows, columns, vector) compared with the skin's templates, as
    :func:`_lattice_stats` reports them: the distance to the nearest template, the margin
    to the next label, that nearest label, whether the cell is flat, and the distance to
    each label's nearest template (``index``: each template's label among ``labels``).
    O(cells x templates x 768)."""
    np = numpy()
    ny, nx = vectors.shape[:2]
    skin_labels = np.asarray(skin.labels)
    flat_vectors = vectors.reshape(ny * nx, -1)
    d = _distances(skin, flat_vectors).reshape(ny, nx, -1)
    flat = _structure(flat_vectors).reshape(ny, nx) < flat_below
    nearest = d.min(axis=2)
    # a cell on the board matches a template closely; one off it matches none, or two
    # labels equally (plain grey reads as a hidden cell or a 0)
    margin = _label_margin(skin, d)
    cell_label = skin_labels[np.argmin(d, axis=2)]
    # a flag and a question mark drawn as a flag with a small mark differ in a few
    # pixels: decided on those pixels (see _flag_or_mark)
    # so do an empty cell and a pale digit drawn on it (see _pale_or_empty), and two
    # digits of one colour alike but for a few strokes (see _digit_strokes)
    for decide in (_flag_or_mark, _pale_or_empty, _digit_strokes):
        marked = decide(skin, vectors, d)
        if marked is not None:
            which, label_now, distance_now, margin_now = marked
            cell_label = np.where(which, label_now, cell_label)
            nearest = np.where(which, distance_now, nearest)
            margin = np.where(which, margin_now, margin)
    by_label = np.full((ny, nx, labels), np.inf, dtype=np.float32)
    for t, k in enumerate(index):
        np.minimum(by_label[:, :, k], d[:, :, t], out=by_label[:, :, k])
    return nearest, margin, cell_label, flat, by_label


def _limits(cell_label: Array, nearest: Array, margin: Array, flat: Array, inside: Array) -> Array:
    """For each cell, the largest distance trusted for its label in this image: twice the
    median distance of the clear cells of that label where the grid was found (``inside``;
    all of them when none is), and a little more (a blurred screenshot moves every cell
    away from its template alike; a cell much farther than its fellows is something else,
    such as the frame or a panel around the board), within [:data:`CLOSE`,
    :data:`MAX_DISTANCE`]."""
    np = numpy()
    limit = np.full(nearest.shape, CLOSE, dtype=np.float32)
    clear = (margin >= MIN_MARGIN) & ~flat
    if (clear & inside).any():
        clear &= inside
    for lab in np.unique(cell_label):
        mask = cell_label == lab
        pool = nearest[mask & clear]
        typical = float(np.median(pool)) if len(pool) else float(np.median(nearest))
        limit[mask] = min(MAX_DISTANCE, max(CLOSE, 1.8 * typical + 0.015))
    return limit


def _flattest(skin: Skin) -> tuple[int, float]:
    """The flattest template of ``skin`` (its index) and its :func:`_structure`: asked at
    every lattice read, so computed once for a shipped skin (O(templates x 768))."""
    try:
        shipped = load_skin(skin.name) is skin
    except VisionError:
        shipped = False
    return _shipped_flattest(skin.name) if shipped else _flattest_of(skin.vectors)


@cache
def _shipped_flattest(name: str) -> tuple[int, float]:
    return _flattest_of(load_skin(name).vectors)


def _flattest_of(vectors: Array) -> tuple[int, float]:
    np = numpy()
    structure = _structure(vectors)
    k = int(np.argmin(structure))
    return k, float(structure[k])


def _structure(vectors: Array) -> Array:
    """How far each cell is from a flat patch of its own mean colour (root-mean-square):
    every skin draws a cell's edges, so a flat patch is not a cell. In the native core
    (``minesolver._native.structure``), summed in double precision in one order: the
    same on every machine. O(cells x 768)."""
    np = numpy()
    cells = np.ascontiguousarray(vectors.reshape(len(vectors), -1), dtype=np.float32)
    out = np.empty(len(cells), dtype=np.float32)
    _native.structure(cells, out)
    return out


def _label_margin(skin: Skin, d: Array) -> Array:
    """Distance to the nearest template of another label than the nearest's, minus the
    nearest's, for each cell of ``d`` (rows, columns, templates)."""
    np = numpy()
    labels = np.asarray([ord(c) for c in skin.labels])
    k = np.argmin(d, axis=2)
    first = np.take_along_axis(d, k[:, :, None], axis=2)[:, :, 0]
    same = labels[None, None, :] == labels[k][:, :, None]
    other = np.where(same, np.inf, d).min(axis=2)
    return other - first
