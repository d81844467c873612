"""A lattice's lines moved onto the tiles' own edges, for skins whose tiles are not all
the same size.

GNOME Mines lays its tiles out in whole pixels of its own and gives the board's leftover
pixels to the first rows and columns: on a 16x16 board at display scale 2 the first ten
columns are 62 pixels wide and the last six 60 (31 and 30 of the game's pixels, doubled).
No lattice of equal cells fits such a board: the lattice found on the tiles of one size
drifts by up to a dozen pixels over the others, and even the best equal lattice is three
to four pixels off a tile at the ends; the cells there read unsure (a shift of a pixel or
two, :func:`~minesolver.vision.cells._nudge`, mends a lattice a little off, not one that
far off). So each line is moved, within a few pixels, to where the image's edges
across the board look most like they do at the lattice's lines on average: from the line
nearest the middle of the lines found outward, each line placed a period from the one
before it, then moved to the best match within :data:`STEP` of the period (a tile a
pixel or three larger or smaller than the period moves the lines after it that much).

Where the image shows no edges (the plain background beyond the board) every position
matches alike and a line stays a period from the one before it.

Beyond the lines found a line is moved only while it matches strongly (:data:`STRONG`):
the board's last line on, lines stay a period apart.

Cost: O(image width + height) for the two profiles (from the image's running sums, no
pass over the pixels), O(rounds x lines x period) for the matching.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

from minesolver.vision._load import numpy

Array = Any

__all__ = ["snapped_lattice"]

WINDOW = 1 / 4
"""The part of the period either side of a line whose edges are matched."""
FIRST = 1 / 8
"""How far (in periods) the line nearest the middle of the lines found may move: the
lattice was fitted to the board there, so it is off by a few pixels at most."""
STEP = 1 / 24
"""How far (in periods) each further line may move from a period after the one before
it: GNOME Mines' tiles differ by one of its pixels, a 30th to a 49th of a tile at any
display scale."""
STRONG = 0.7
"""A line beyond the lines found is moved only while the image's edges about it match
their average about the lines found at least this well (the tiles' edges on either
side of it): the board's own last line, tiles on one side only, matches about half as
well, and from there on the lines are not moved."""
ROUNDS = 3
"""Rounds of matching: the edges about the lines on average are smeared while the lines
are off their tiles, and sharper once moved; each round matches the lines, from where
they were, against the last round's average (it ends early once nothing moves)."""


def edge_profile(table: Array, along_x: bool, lo: float, hi: float) -> Array:
    """How much the image changes between each two neighbouring columns (``along_x``) or
    rows, summed over the rows (or columns) from ``lo`` to ``hi`` and the three colours,
    per pixel of that span: from the running sums ``table``
    (:func:`~minesolver.vision.templates.integral`). Entry ``k`` is the change between
    pixel ``k`` and ``k + 1``. O(width or height)."""
    np = numpy()
    h, w = table.shape[0] - 1, table.shape[1] - 1
    limit = h if along_x else w
    a = int(min(max(0, math.floor(lo)), limit))
    b = int(min(max(a, math.ceil(hi)), limit))
    if b <= a:
        return np.zeros(max(0, (w if along_x else h) - 1))
    # the sums over the span of every column (row) up to each: a difference of two rows
    # (columns) of the table, modulo 2**32 as the table wraps
    if along_x:
        running = table[b, :, :].astype(np.int64) - table[a, :, :].astype(np.int64)
    else:
        running = table[:, b, :].astype(np.int64) - table[:, a, :].astype(np.int64)
    line_sums = np.diff(running % (1 << 32), axis=0)  # each column's (row's) sum
    line_sums = (line_sums + (1 << 31)) % (1 << 32) - (1 << 31)  # back to signed
    return np.abs(np.diff(line_sums, axis=0)).sum(axis=1) / float(b - a)


def snapped(lines: list[float], profile: Array, core: tuple[float, float]) -> list[float]:
    """``lines`` (equally spaced, increasing) each moved by whole pixels onto the edges of
    ``profile`` (:func:`edge_profile`), matched against the profile about the lines
    within ``core`` (the span where the lattice was found, surely board) on average. The
    lines stay within the image. O(rounds x lines x period)."""
    np = numpy()
    if len(lines) < 3:
        return list(lines)
    period = (lines[-1] - lines[0]) / (len(lines) - 1)
    half = math.ceil(period * WINDOW)
    n = len(profile)

    def window(centre: int) -> Array:
        at = np.arange(centre - half, centre + half + 1)
        seen = (at >= 0) & (at < n)
        out = np.zeros(len(at))
        out[seen] = profile[at[seen]]
        return out

    def best(x: float, reach: int, typical: Array, own: float) -> tuple[float, bool]:
        """``x`` moved by the whole pixels within ``reach`` whose window matches
        ``typical`` best (the least move among equals: none where nothing is seen), and
        whether it matches as well as :data:`STRONG` of ``typical``'s own match,
        ``own``."""
        centre = round(x)
        scores = [float(window(centre + s) @ typical) for s in range(-reach, reach + 1)]
        top = max(scores)
        moves = [s for s, v in zip(range(-reach, reach + 1), scores, strict=True) if v == top]
        return x + min(moves, key=lambda s: (abs(s), s)), own > 0 and top >= STRONG * own

    inside = [k for k, x in enumerate(lines) if core[0] - 0.5 <= x <= core[1] + 0.5]
    if len(inside) < 3:
        return list(lines)
    out = list(lines)
    for _ in range(ROUNDS):
        # the edges about the lines on average: smeared where the lines are off their
        # tiles, sharper once they are moved onto them
        typical = np.mean([window(round(out[k])) for k in inside], axis=0)
        own = float(typical @ typical)
        moved = _walk(lines, period, core, partial(best, typical=typical, own=own))
        if moved == out:
            break
        out = moved
    # the lattice's place on average is kept (it was fitted to the skin's templates; the
    # edges settle a line's place within a gap only to a pixel or two): only the spacing
    # changes
    mean = sum(out[k] - lines[k] for k in inside) / len(inside)
    # within the image (the profile has an entry between each two of its pixels)
    return [min(max(x - mean, -0.5), n + 1.5) for x in out]


def _walk(
    lines: list[float],
    period: float,
    core: tuple[float, float],
    best: Callable[[float, int], tuple[float, bool]],
) -> list[float]:
    """The lines placed from the one nearest the middle of ``core`` outward, each a
    period from the one before it and then moved by ``best(x, reach)``. Beyond ``core``
    (the lines found may cover only the tiles of one size) a line is moved only while
    the lines before it beyond ``core`` matched strongly: from the first that does not,
    the lines stay a period apart, unmoved. What lies past the board may be no board (a
    window's buttons beside it), and lines moved onto its edges would make it look like
    cells."""
    middle = min(range(len(lines)), key=lambda k: abs(lines[k] - (core[0] + core[1]) / 2))
    out = list(lines)
    out[middle] = best(lines[middle], math.ceil(period * FIRST))[0]
    step = math.ceil(period * STEP)
    for ks, sign in ((range(middle + 1, len(lines)), 1), (range(middle - 1, -1, -1), -1)):
        moving = True
        for k in ks:
            guess = out[k - sign] + sign * period
            inside = core[0] - 0.5 <= lines[k] <= core[1] + 0.5
            if not (inside or moving):
                out[k] = guess
                continue
            moved, strong = best(guess, step)
            if not inside and not strong:
                moving = False
                moved = guess
            out[k] = moved
    return out


def snapped_lattice(
    table: Array, xs: list[float], ys: list[float], core: tuple[float, float, float, float]
) -> tuple[list[float], list[float]]:
    """The lattice ``xs`` x ``ys`` with each line moved onto the tiles' edges
    (:func:`snapped`), the columns' edges summed over the rows of ``core`` (left, right,
    top, bottom: where the lattice was found) and the rows' over its columns."""
    left, right, top, bottom = core
    cols = snapped(xs, edge_profile(table, True, top, bottom), (left, right))
    rows = snapped(ys, edge_profile(table, False, left, right), (top, bottom))
    return cols, rows
