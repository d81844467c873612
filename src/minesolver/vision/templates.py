"""The skins the reader knows: for each, labelled cell images shipped with the package.

A skin's templates are cells cut from screenshots made here (real programs under a virtual
display, our page in Chromium, the classic skin drawn by :mod:`minesolver.vision.synth`),
each scaled to :data:`SIZE` x :data:`SIZE` pixels and stored side by side in
``templates/<skin>.png`` with their labels, one a line, in ``templates/<skin>.txt``.
``scripts/build_vision_templates.py`` rebuilds them; nothing is downloaded at run time.

Labels: ``H`` hidden, ``F`` flag, ``0``-``8`` digits, ``?`` a question mark (hidden for the
analysis), ``*`` a mine shown after a loss, ``!`` the mine that exploded, ``x`` a flag
crossed out after a loss.

Cells are scaled down as Pillow's box filter does (:func:`cell_vectors`), or, for the
cells of a lattice, by :func:`lattice_vectors`, which computes the same 8-bit values with
numpy from running sums: O(pixels of the rows read + cells x 768), no Python loop per cell.

Cost: loading a skin is O(its templates), once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import minesolver._native as _native
from minesolver.vision._load import VisionError, numpy, pillow

__all__ = [
    "LABELS",
    "SIZE",
    "Skin",
    "box_vectors",
    "cell_vectors",
    "integral",
    "lattice_vectors",
    "load_skin",
    "medium",
    "skin_names",
]

SIZE = 16
"""The side every cell is scaled to before it is compared."""
LABELS = ("H", "F", "0", "1", "2", "3", "4", "5", "6", "7", "8", "?", "*", "!", "x")
"""Every label a template may carry."""

Array = Any


@dataclass(frozen=True, slots=True)
class Skin:
    """A skin's name, a description for people, and its templates: ``labels[i]`` names
    row ``i`` of ``vectors`` (a float32 array of shape (n, SIZE * SIZE * 3) in 0..1)."""

    name: str
    labels: tuple[str, ...]
    vectors: Array
    norms: Array
    """The squared norm of each template (for the distances)."""
    coarse: Array
    """Each template's :func:`coarse` vector (for a cheap bound on the distances)."""
    medium: Array
    """Each template's :func:`medium` vector (a tighter bound, for the templates the
    coarse one leaves)."""


def skin_names() -> tuple[str, ...]:
    """The skins shipped, by name."""
    folder = resources.files("minesolver.vision") / "templates"
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt")))


@cache
def load_skin(name: str) -> Skin:
    """A shipped skin's templates (cached)."""
    image_module, _ = pillow()
    np = numpy()
    folder = resources.files("minesolver.vision") / "templates"
    try:
        labels = tuple((folder / f"{name}.txt").read_text().split())
        with (folder / f"{name}.png").open("rb") as stream:
            strip = np.asarray(image_module.open(stream).convert("RGB"), dtype=np.float32)
    except FileNotFoundError as exc:
        raise VisionError(
            f"unknown skin {name!r}; the skins are {', '.join(skin_names())}"
        ) from exc
    n = len(labels)
    if strip.shape != (SIZE, SIZE * n, 3):
        raise VisionError(f"skin {name!r}: templates image does not hold {n} cells")
    vectors = strip.reshape(SIZE, n, SIZE, 3).transpose(1, 0, 2, 3).reshape(n, -1) / 255.0
    vectors = vectors.astype(np.float32)
    return Skin(
        name,
        labels,
        vectors,
        (vectors**2).sum(axis=1),
        coarse(vectors),
        medium(vectors),
    )


BLOCK = 4
"""The side of the blocks of pixels a :func:`coarse` vector averages."""


def coarse(vectors: Array) -> Array:
    """Cell vectors (rows of :data:`SIZE` x :data:`SIZE` x 3 values) with each
    :data:`BLOCK` x :data:`BLOCK` block of pixels averaged, per colour: 16 times shorter.
    The root-mean-square distance of two coarse vectors is at most that of the vectors
    themselves (a block's mean square is at least its mean's square), so it bounds the
    distance from below at a sixteenth of the cost. O(rows x SIZE^2 x 3)."""
    n, side = vectors.shape[0], SIZE // BLOCK
    # the pixels of a block's row summed first (adjacent), then its rows; by slices, which
    # numpy adds several times faster than it reduces a short axis
    across = vectors.reshape(n, SIZE * side, BLOCK, 3)
    rows = sum(across[:, :, k] for k in range(1, BLOCK)) + across[:, :, 0]
    down = rows.reshape(n, side, BLOCK, side * 3)
    blocks = sum(down[:, :, k] for k in range(1, BLOCK)) + down[:, :, 0]
    return blocks.reshape(n, side * side * 3) / (BLOCK * BLOCK)


def medium(vectors: Array) -> Array:
    """Cell vectors with each 2 x 2 block of pixels averaged, per colour: 4 times shorter.
    As :func:`coarse`'s, their root-mean-square distance bounds the vectors' own from
    below, and closer than the coarse one (each coarse block is the mean of four of
    these): what :func:`~minesolver.vision.cells._nearest` measures the templates that
    the coarse bound leaves by, before it measures the few left in full. O(rows x SIZE^2 x 3)."""
    n, side = vectors.shape[0], SIZE // 2
    across = vectors.reshape(n, SIZE * side, 2, 3)
    pairs = across[:, :, 0] + across[:, :, 1]
    down = pairs.reshape(n, side, 2, side * 3)
    return (down[:, :, 0] + down[:, :, 1]).reshape(n, side * side * 3) / 4


def cell_vectors(image: Any, boxes: list[tuple[float, float, float, float]]) -> Array:
    """Each box of a Pillow image (or an RGB array) scaled to :data:`SIZE` squared, as
    rows of a float32 array in 0..1, as :func:`lattice_vectors` scales a lattice's cells
    (fractional boxes allowed; the part of a box outside the image is cut off, and a box
    less than a pixel wide or high inside it reads as black). For the templates' build;
    the reader scales whole lattices at once."""
    np = numpy()
    rgb = np.asarray(image.convert("RGB") if hasattr(image, "convert") else image)
    corners = np.asarray(boxes, dtype=np.float64).reshape(len(boxes), 4)
    return box_vectors(integral(rgb), *corners.T)


def save_skin(folder: Any, name: str, labels: list[str], vectors: Array) -> None:
    """Write a skin's templates (for the build script)."""
    image_module, _ = pillow()
    np = numpy()
    n = len(labels)
    strip = vectors.reshape(n, SIZE, SIZE, 3).transpose(1, 0, 2, 3).reshape(SIZE, n * SIZE, 3)
    image_module.fromarray(np.clip(strip * 255 + 0.5, 0, 255).astype(np.uint8)).save(
        f"{folder}/{name}.png", optimize=True
    )
    with open(f"{folder}/{name}.txt", "w") as stream:
        stream.write("\n".join(labels) + "\n")


_BITS = 22
"""Pillow's fixed-point precision for 8-bit resampling (``PRECISION_BITS``)."""


def _ranges(lo: Array, hi: Array, size: int) -> tuple[Array, Array, Array]:
    """For boxes ``[lo, hi)`` along one axis of an image ``size`` pixels long (arrays of
    n boxes, already cut to the image), the first and last-plus-one pixel that Pillow's
    box filter averages into each of the :data:`SIZE` output pixels, and that average's
    fixed-point weight: arrays of shape (n, SIZE). Pillow's arithmetic, step by step: the
    box in single precision, the filter's centre and support in double, a pixel kept when
    its centre falls in ``(centre - support, centre + support]``."""
    np = numpy()
    lo32 = lo.astype(np.float32)
    hi32 = hi.astype(np.float32)
    scale = (hi32 - lo32).astype(np.float64) / SIZE
    fscale = np.maximum(scale, 1.0)
    support = 0.5 * fscale
    ss = 1.0 / fscale
    centre = lo32.astype(np.float64)[:, None] + (np.arange(SIZE) + 0.5)[None, :] * scale[:, None]
    sup, ss2 = support[:, None], ss[:, None]
    first = np.maximum(np.trunc(centre - sup + 0.5), 0).astype(np.int64)
    last = np.minimum(np.trunc(centre + sup + 0.5), size).astype(np.int64)

    def kept(x: Array) -> Array:
        w = ((x - centre) + 0.5) * ss2
        return (w > -0.5) & (w <= 0.5)

    # the bounds are rounded: the filter itself decides the pixels at either end
    first = np.where((first < last) & ~kept(first), first + 1, first)
    last = np.where((last > first) & ~kept(last - 1), last - 1, last)
    count = np.maximum(last - first, 0)
    weight = np.where(count > 0, (0.5 + (1.0 / np.maximum(count, 1)) * (1 << _BITS)), 0)
    return first, np.maximum(last, first), weight.astype(np.int64)


def integral(rgb: Array) -> Array:
    """The running sums of an RGB array (a summed-area table, one zero row and column
    first), in unsigned 32-bit integers: they wrap past 2**32 on a large image, yet the
    sum over any box of fewer than 16 million pixels, a difference of four of them taken
    modulo 2**32, stays exact. O(pixels) time, one pass in the native core, 12 bytes a
    pixel (sums modulo 2**32 do not depend on the order they are taken in: the same table
    as numpy's two cumulative sums)."""
    np = numpy()
    h, w = rgb.shape[:2]
    table = np.empty((h + 1, w + 1, 3), dtype=np.uint32)
    if w == 0:
        table.fill(0)
        return table
    _native.integral(np.ascontiguousarray(rgb, dtype=np.uint8), w, table)
    return table


def lattice_vectors(table: Array, xs: Any, ys: Any, cols: Any = None, rows: Any = None) -> Array:
    """The cells of the lattice ``xs`` x ``ys`` (cell ``(i, j)`` is the box from
    ``(xs[i], ys[j])`` to ``(xs[i + 1], ys[j + 1])``) of the image whose
    :func:`integral` is ``table``, scaled to :data:`SIZE` squared, for the columns
    ``cols`` and rows ``rows`` (indices; all when ``None``): a float32 array with a row per
    cell, ``rows`` outer, in 0..1. The part of a cell outside the image is cut off; a cell
    less than a pixel wide or high inside it reads as black.

    Each of the 16 x 16 pixels of a scaled cell is the mean of the image pixels Pillow's
    box filter takes for it (those whose centres fall in its part of the cell), rounded
    to 8 bits: Pillow's own result, within one level where it rounds between its two
    passes. Four look-ups in the table a pixel: O(cells x 768), whatever the cell size."""
    np = numpy()
    h, w = table.shape[0] - 1, table.shape[1] - 1
    xs = np.asarray(xs, dtype=np.float64)
    ys = np.asarray(ys, dtype=np.float64)
    ci = np.arange(len(xs) - 1) if cols is None else np.asarray(cols, dtype=np.int64)
    ri = np.arange(len(ys) - 1) if rows is None else np.asarray(rows, dtype=np.int64)
    if len(ci) == 0 or len(ri) == 0:
        return np.zeros((len(ri) * len(ci), SIZE * SIZE * 3), dtype=np.float32)
    x0, x1 = np.maximum(0.0, xs[ci]), np.minimum(float(w), xs[ci + 1])
    y0, y1 = np.maximum(0.0, ys[ri]), np.minimum(float(h), ys[ri + 1])
    col_ok = x1 - x0 >= 1
    row_ok = y1 - y0 >= 1
    ax, bx, _ = _ranges(np.where(col_ok, x0, 0.0), np.where(col_ok, x1, 1.0), w)
    ay, by, _ = _ranges(np.where(row_ok, y0, 0.0), np.where(row_ok, y1, 1.0), h)
    # a box a cell, rows outer
    n_cols = len(ci)
    return _box_means(
        table,
        np.repeat(ay, n_cols, axis=0),
        np.repeat(by, n_cols, axis=0),
        np.tile(ax, (len(ri), 1)),
        np.tile(bx, (len(ri), 1)),
        (row_ok[:, None] & col_ok[None, :]).ravel(),
    )


def box_vectors(table: Array, x0: Any, y0: Any, x1: Any, y1: Any) -> Array:
    """Boxes of the image whose :func:`integral` is ``table`` (box ``k`` from ``(x0[k],
    y0[k])`` to ``(x1[k], y1[k])``), scaled to :data:`SIZE` squared exactly as
    :func:`lattice_vectors` scales a lattice's cells: a float32 array with a row per box,
    in 0..1. For boxes that form no lattice (cells each moved by its own fraction of a
    pixel); one call for them all, no Python loop per box. O(boxes x 768)."""
    np = numpy()
    h, w = table.shape[0] - 1, table.shape[1] - 1
    x0 = np.maximum(0.0, np.asarray(x0, dtype=np.float64))
    x1 = np.minimum(float(w), np.asarray(x1, dtype=np.float64))
    y0 = np.maximum(0.0, np.asarray(y0, dtype=np.float64))
    y1 = np.minimum(float(h), np.asarray(y1, dtype=np.float64))
    if len(x0) == 0:
        return np.zeros((0, SIZE * SIZE * 3), dtype=np.float32)
    ok = (x1 - x0 >= 1) & (y1 - y0 >= 1)
    ax, bx, _ = _ranges(np.where(ok, x0, 0.0), np.where(ok, x1, 1.0), w)
    ay, by, _ = _ranges(np.where(ok, y0, 0.0), np.where(ok, y1, 1.0), h)
    return _box_means(table, ay, by, ax, bx, ok)


def _box_means(table: Array, ay: Array, by: Array, ax: Array, bx: Array, ok: Array) -> Array:
    """The boxes' scaled cells: for box ``k`` and pixel ``(i, j)``, the mean of the image
    pixels ``[ay[k, i], by[k, i]) x [ax[k, j], bx[k, j])`` (arrays of shape (boxes,
    :data:`SIZE`); ``ok[k]`` false where a cell reads as black), rounded to 8 bits as
    Pillow's box filter does, in 0..1: a float32 array with a row per box, pixels in
    rows, then colours. Four look-ups in the running sums a value, in the native core
    (``minesolver._native.box_means``: Pillow's fixed point, to the bit)."""
    np = numpy()
    out = np.empty((len(ok), SIZE * SIZE * 3), dtype=np.float32)

    def flat(index: Array) -> Array:
        return np.ascontiguousarray(index, dtype=np.int64)

    _native.box_means(
        np.ascontiguousarray(table),
        table.shape[1],
        flat(ay),
        flat(by),
        flat(ax),
        flat(bx),
        np.ascontiguousarray(ok, dtype=np.uint8),
        out,
    )
    return out
