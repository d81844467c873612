"""Find a board's grid in a screenshot: the period of its cells and where its lines are.

A board is a lattice of equal cells, so its cell boundaries are long straight edges at a
regular spacing. The detector keeps the edge pixels that lie on straight runs (text and
icons make short ones), sums them along columns and rows into two profiles, finds the
period of each profile by autocorrelation (10 to 80 pixels, to a twentieth of a pixel:
fractional display scaling makes cells of alternating sizes) and then the longest stretch
of lines at that period. Columns are searched over all rows first, then rows within the
columns found, then columns again within the rows found, so other windows around the
board do not disturb it.

Which of the lines a skin draws per cell (bevel, border, gap) is the cell boundary is not
decided here: :func:`phases` lists the candidate offsets and the reader keeps the one its
templates fit best.

Cost: O(pixels) for the edges and profiles, O(length x periods) for the period search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import minesolver._native as _native
from minesolver.vision._load import numpy

__all__ = ["Axis", "find_axes", "other_axes", "periods", "phases"]

_EDGE = 14  # smallest colour step counted as an edge (of 255): GNOME Mines draws its
# revealed cells 24 levels darker than the gaps between them
_RUN = 7  # shortest straight run of edge pixels kept
MIN_PERIOD = 10.0
MAX_PERIOD = 160.0

Array = Any


@dataclass(frozen=True, slots=True)
class Axis:
    """The lines along one axis: ``start + k * period`` for ``k`` in ``0..count``
    (``count`` cells between ``count + 1`` lines), in pixel coordinates."""

    start: float
    period: float
    count: int
    profile: Array

    def lines(self, offset: float = 0.0, extra: int = 0) -> list[float]:
        """The line coordinates shifted by ``offset``, ``extra`` more on each side."""
        return [
            self.start + offset + k * self.period for k in range(-extra, self.count + 1 + extra)
        ]


def _long(mask: Array, axis: int, length: int) -> Array:
    """The pixels of ``mask`` on runs of at least ``length`` along ``axis``: boolean shifts
    (a window is whole when it and the windows half its length further are), no sums."""
    np = numpy()
    m = np.moveaxis(mask, axis, 0)
    n = m.shape[0]
    if n < length:
        return np.zeros_like(mask)
    # full[s]: mask[s : s + length] is all set, for s in 0..n - length
    full = m.copy()
    span = 1
    while span < length:
        step = min(span, length - span)
        full = full[:-step] & full[step:]
        span += step
    # covered[j]: some whole window starts in [j - length + 1, j]
    covered = np.zeros_like(m)
    covered[: n - length + 1] = full
    span = 1
    while span < length:
        step = min(span, length - span)
        covered[step:] |= covered[:-step].copy()
        span += step
    return np.moveaxis(covered, 0, axis)


_CAP = 128  # the most an edge counts (a window's frame against a board's faint lines)


def edge_maps(rgb: Array) -> tuple[Array, Array]:
    """Edge strength along x (vertical lines) and along y (horizontal lines), kept only on
    straight runs: float arrays of shapes (h, w - 1) and (h - 1, w). Each pixel's step to
    the next (the largest of its colours' steps), where it is over ``_EDGE`` all along
    a run of ``_RUN`` or more such steps (down the columns for the vertical lines,
    along the rows for the horizontal ones), at most ``_CAP``; 0 elsewhere. In the
    native core (``minesolver._native.edges``), one pass over the pixels and one over
    the maps: O(pixels), a tenth of the numpy version's time (the tests keep that
    version, and compare)."""
    np = numpy()
    h, w = rgb.shape[:2]
    vx = np.empty((h, max(w - 1, 0)), dtype=np.float32)
    vy = np.empty((max(h - 1, 0), w), dtype=np.float32)
    if w == 0 or h == 0:
        return vx, vy
    pixels = np.ascontiguousarray(rgb, dtype=np.uint8)
    _native.edges(pixels, w, _EDGE, _RUN, _CAP, vx, vy)
    return vx, vy


def _maxfilter(p: Array) -> Array:
    np = numpy()
    q = p.copy()
    q[1:] = np.maximum(q[1:], p[:-1])
    q[:-1] = np.maximum(q[:-1], p[1:])
    return q


def period(profile: Array) -> float | None:
    """The period of a line profile by autocorrelation, or ``None`` when it has none; when
    the profile as it is shows none, its square root is tried: the few long edges of a
    window's frame must not outweigh the many lines of the board (GNOME Mines draws a
    board's lines faintly where two revealed cells meet)."""
    np = numpy()
    found = _period(profile)
    if found is None:
        found = _period(np.sqrt(np.maximum(profile, 0)))
    return found


def _period(profile: Array) -> float | None:
    np = numpy()
    n = len(profile)
    if n < 3 * MIN_PERIOD:
        return None
    x = profile - profile.mean()
    f = np.fft.rfft(x, 2 * n)
    ac = np.fft.irfft(f * np.conj(f))[:n]
    if ac[0] <= 0:
        return None
    ac = ac / ac[0]
    top = min(MAX_PERIOD, (n - 2) / 3)
    if top < MIN_PERIOD:
        return None
    cands = np.arange(MIN_PERIOD, top, 0.05)
    ks = np.arange(1, 5)
    lags = np.minimum(cands[:, None] * ks[None, :], n - 2)
    lo = np.floor(lags).astype(int)
    frac = lags - lo
    scores = (ac[lo] * (1 - frac) + ac[lo + 1] * frac).mean(axis=1)
    best = int(np.argmax(scores))
    if scores[best] < 0.08:
        return None
    p = float(cands[best])
    for m in (3, 2):  # a multiple of the true period scores as well: prefer the period
        q = p / m
        if q >= MIN_PERIOD:
            qi = int(np.argmin(np.abs(cands - q)))
            lo, hi = max(0, qi - 4), qi + 5
            if scores[lo:hi].max() >= 0.97 * scores[best]:
                return float(cands[lo + int(np.argmax(scores[lo:hi]))])
    return p


def _span(profile: Array, p: float) -> tuple[float, int, int] | None:
    """The phase and the longest stretch of lines ``phase + k p`` (k0..k1) that the
    profile supports."""
    np = numpy()
    pm = _maxfilter(profile)
    n = len(pm)
    best: tuple[float, float, int, int] | None = None
    for phase in np.arange(0.0, p, 0.25):
        pos = np.round(phase + np.arange(0, (n - 1 - phase) / p + 1) * p).astype(int)
        pos = pos[pos < n]
        v = pm[pos]
        if len(v) < 3:
            continue
        top = np.sort(v)[::-1]
        m = top[min(4, len(top) - 1)]
        if m <= 0:
            continue
        w = np.minimum(v, m) - 0.4 * m
        run = _kadane(w)
        if run is None:
            continue
        score, k0, k1 = run
        if best is None or score > best[0]:
            best = (score, float(phase), k0, k1)
    if best is None:
        return None
    return best[1], best[2], best[3]


def _kadane(w: Array) -> tuple[float, int, int] | None:
    best, start, cur, cur_start, end = 0.0, 0, 0.0, 0, -1
    for i, value in enumerate(w.tolist()):
        if cur <= 0:
            cur, cur_start = value, i
        else:
            cur += value
        if cur > best:
            best, start, end = cur, cur_start, i
    if end < 0:
        return None
    return best, start, end


def _axis(profile: Array, p: float | None = None) -> Axis | None:
    """The lines of ``profile`` at its period (or at ``p``), or ``None``."""
    np = numpy()
    if p is None:
        p = period(profile)
    if p is None:
        return None
    span = _span(profile, p)
    if span is None:
        return None
    phase, k0, k1 = span
    if k1 - k0 < 1:
        return None
    # the period and phase that put the most edge on the lines k0..k1, to a fiftieth of
    # a pixel: one comb over every line, not each line's own strongest edge (a cell with a
    # gap around it has two edges a line)
    n = len(profile)
    ks = np.arange(0, k1 - k0 + 1, dtype=float)
    base = phase + k0 * p
    periods = p + np.arange(-0.3, 0.3001, 0.02)
    shifts = np.arange(-1.5, 1.5001, 0.125)
    pos = base + shifts[:, None, None] + periods[None, :, None] * ks[None, None, :]
    pos = np.clip(pos, 0, n - 1.001)
    lo = np.floor(pos).astype(int)
    frac = pos - lo
    sums = (profile[lo] * (1 - frac) + profile[lo + 1] * frac).sum(axis=2)
    i, j = np.unravel_index(int(np.argmax(sums)), sums.shape)
    # edge i lies between pixels i and i + 1: the line is at i + 1
    return Axis(float(base + shifts[i]) + 1.0, float(periods[j]), int(k1 - k0), profile)


def find_axes(rgb: Array, edges: tuple[Array, Array] | None = None) -> tuple[Axis, Axis] | None:
    """The board's columns and rows in ``rgb`` (its :func:`edge_maps` when given), or
    ``None`` when no grid is found."""
    vx, vy = edge_maps(rgb) if edges is None else edges
    h, w = rgb.shape[:2]
    cols = _axis(vx.sum(axis=0))
    if cols is None:
        return None
    rows: Axis | None = None
    for _ in range(2):
        x0 = max(0, int(cols.start) - 2)
        x1 = min(w, int(cols.start + cols.count * cols.period) + 2)
        rows = _axis(vy[:, x0:x1].sum(axis=1))
        if rows is None:
            return None
        y0 = max(0, int(rows.start) - 2)
        y1 = min(h, int(rows.start + rows.count * rows.period) + 2)
        cols = _axis(vx[y0:y1].sum(axis=0))
        if cols is None:
            return None
    assert rows is not None
    return cols, rows


def periods(profile: Array) -> list[float]:
    """Every period worth a try for ``profile``, the one :func:`period` finds first: the
    periods found in the profile, in its square root and in it with its strongest
    edges cut down to the level of the many (a window's frame outweighs a board drawn
    faintly), and twice each (a skin whose digits stand in the middle of its cells
    repeats at half its period). Distinct to 2%."""
    np = numpy()
    found: list[float] = []
    first = period(profile)
    if first is not None:
        found.append(first)
    positive = profile[profile > 0]
    variants = [profile, np.sqrt(np.maximum(profile, 0))]
    if len(positive):
        variants.append(np.minimum(profile, np.quantile(positive, 0.9)))
    for variant in variants:
        p = _period(variant)
        if p is not None:
            found += [p, 2 * p] if 2 * p <= MAX_PERIOD else [p]
    out: list[float] = []
    for p in found:
        if all(abs(p - q) > 0.02 * q for q in out):
            out.append(p)
    return out


def other_axes(
    rgb: Array,
    limit: int = 6,
    first: tuple[Axis, Axis] | None = None,
    edges: tuple[Array, Array] | None = None,
    long_lines: bool = True,
) -> list[tuple[Axis, Axis]]:
    """Lattices other than :func:`find_axes`'s, for when its lattice cannot be read: the
    column periods of :func:`periods`, each with the row periods found within its
    columns (up to ``limit`` lattices, the squarest first: cells are square in every
    skin), none the same as ``first``
    (:func:`find_axes`'s, found again when not given); then one more, ``first``'s
    periods on the rows beyond those it found (:func:`_beside`); and, when
    ``long_lines``, up to :data:`LONG_LATTICES` more found the same way among the long
    lines alone (:func:`_long_lines`). Cost: O(pixels) once, then O(length x periods) a
    lattice."""
    vx, vy = edge_maps(rgb) if edges is None else edges
    h, w = rgb.shape[:2]
    if first is None:
        first = find_axes(rgb, (vx, vy))
    out: list[tuple[Axis, Axis]] = []
    square: list[tuple[Axis, Axis]] = []  # the lattices given one period both ways
    whole = vx.sum(axis=0)
    for pc in periods(whole):
        cols = _axis(whole, pc)
        if cols is None:
            continue
        x0 = max(0, int(cols.start) - 2)
        x1 = min(w, int(cols.start + cols.count * cols.period) + 2)
        band = vy[:, x0:x1].sum(axis=1)
        row_periods = periods(band)
        # cells are square: the columns' period for the rows too (a skin whose revealed
        # cells are drawn faintly shows its rows at another period, a bevel's half)
        made = all(abs(pc - q) > 0.02 * q for q in row_periods)
        if made:
            row_periods.append(pc)
        for i, pr in enumerate(row_periods):
            found = not (made and i == len(row_periods) - 1)
            rows = _axis(band, pr)
            if rows is None:
                continue
            y0 = max(0, int(rows.start) - 2)
            y1 = min(h, int(rows.start + rows.count * rows.period) + 2)
            within = vx[y0:y1].sum(axis=0)
            # and the rows' period for the columns within them, for the same reason
            for p in (pc, pr) if abs(pc - pr) > 0.02 * pr else (pc,):
                again = _axis(within, p)
                if again is not None:
                    (out if found and p == pc else square).append((again, rows))
    # the lattices of the periods found first, then those made square: a square one near
    # a lattice found is the same board a little askew
    kept: list[tuple[Axis, Axis]] = []
    for pair in out + square:
        if not any(_same(pair, q) for q in ([first] if first else []) + kept):
            kept.append(pair)
    out = kept
    # cells are square in every skin: the lattices nearest to square first
    out.sort(key=_skew)
    out = [pair for pair in out if _skew(pair) <= SQUARE][:limit]
    if first is not None:
        # last, the rows at the first lattice's period beyond those it found: the strong
        # edges of a panel above a small board (a page's counters and buttons) can hold
        # the longest stretch of lines, the board's fainter ones the next
        beside = _beside(vx, vy, first)
        if (
            beside is not None
            and _skew(beside) <= SQUARE
            and not any(_same(beside, q) for q in [first, *out])
        ):
            out.append(beside)
    if long_lines and (vx.any() or vy.any()):
        # last, the lattices of the long lines alone: the many short strokes of text
        # beside a board (another window's) can outweigh a board whose lines are faint
        # (GNOME Mines' revealed cells, scaled), which no period of all the edges shows
        lines = _long_lines(vx, vy)
        own = find_axes(rgb, lines)
        more = ([own] if own is not None else []) + other_axes(
            rgb, LONG_LATTICES, own or first, lines, long_lines=False
        )
        added = 0
        for pair in more:
            if (
                added < LONG_LATTICES
                and _skew(pair) <= SQUARE
                and not any(_same(pair, q) for q in ([first] if first else []) + out)
            ):
                out.append(pair)
                added += 1
    if first is not None and long_lines:
        # last, the first lattice halved: at a display scale of 1.5 a tile of 49.5
        # pixels is drawn 49 and 50 pixels wide in turn, so the edges repeat exactly
        # only every two tiles and the period found first may be two tiles
        half = halved(first)
        if (
            half is not None
            and _skew(half) <= SQUARE  # (the first lattice's own: both periods halved)
            and not any(_same(half, q) for q in [first, *out])
        ):
            out.append(half)
    return out


def halved(pair: tuple[Axis, Axis]) -> tuple[Axis, Axis] | None:
    """The lattice ``pair`` with cells half as wide and half as tall (twice as many each
    way, from the same first line), or ``None`` when they would be under
    :data:`MIN_PERIOD`."""
    cols, rows = pair
    if min(cols.period, rows.period) / 2 < MIN_PERIOD:
        return None
    return (
        Axis(cols.start, cols.period / 2, 2 * cols.count, cols.profile),
        Axis(rows.start, rows.period / 2, 2 * rows.count, rows.profile),
    )


LONG_RUN = 24
"""The shortest straight run of edge pixels that :func:`_long_lines` keeps: longer than a
line of text is tall (a window's text beside a board, at a desktop's usual sizes), as
long as the side of a cell of 26 pixels or more."""
LONG_LATTICES = 2
"""The most lattices :func:`other_axes` adds from the long lines alone."""


def _long_lines(vx: Array, vy: Array) -> tuple[Array, Array]:
    """The edge maps (:func:`edge_maps`) with only the edges on straight runs of at least
    :data:`LONG_RUN` pixels, in 8 bits (an edge's strength is at most 128: a quarter of
    the float maps' memory). O(pixels)."""
    np = numpy()
    lx = vx.astype(np.uint8)
    lx *= _long(vx > 0, 0, LONG_RUN)
    ly = vy.astype(np.uint8)
    ly *= _long(vy > 0, 1, LONG_RUN)
    return lx, ly


def _beside(vx: Array, vy: Array, first: tuple[Axis, Axis]) -> tuple[Axis, Axis] | None:
    """The lattice of ``first``'s periods on the rows outside those ``first`` found
    (within its columns), and the columns within those rows, or ``None``."""
    cols, rows = first
    h, w = vy.shape[0] + 1, vx.shape[1] + 1
    x0 = max(0, int(cols.start) - 2)
    x1 = min(w, int(cols.start + cols.count * cols.period) + 2)
    band = vy[:, x0:x1].sum(axis=1)
    y0 = max(0, int(rows.start) - 2)
    y1 = min(len(band), int(rows.start + rows.count * rows.period) + 2)
    band[y0:y1] = 0
    again = _axis(band, rows.period)
    if again is None:
        return None
    y0 = max(0, int(again.start) - 2)
    y1 = min(h, int(again.start + again.count * again.period) + 2)
    within = _axis(vx[y0:y1].sum(axis=0), cols.period)
    if within is None:
        return None
    return within, again


SQUARE = 0.06
"""The most two periods of a lattice may differ (as a share) for it to be read: cells are
square in every skin, and the reader refines a period by a pixel over the board at most,
so a lattice further from square cannot be a board's."""


def _skew(pair: tuple[Axis, Axis]) -> float:
    """How far a lattice is from square cells: the periods' difference, as a share."""
    return abs(pair[0].period - pair[1].period) / pair[1].period


def _same(a: tuple[Axis, Axis], b: tuple[Axis, Axis]) -> bool:
    return all(
        abs(x.period - y.period) < 0.02 * y.period and abs(x.start - y.start) < 0.5 * y.period
        for x, y in zip(a, b, strict=True)
    )


def phases(axis: Axis, limit: int = 4) -> list[float]:
    """Candidate offsets (pixels, in ``[0, period)``) of the cell boundary from the lines
    found: the strongest recurring edges within a period, strongest first."""
    np = numpy()
    p = axis.period
    pm = _maxfilter(axis.profile)
    n = len(pm)
    offs = np.arange(0, int(np.ceil(p)))
    fold = []
    for o in offs:
        pos = np.round(axis.start - 1 + o + np.arange(axis.count + 1) * p).astype(int)
        pos = pos[(pos >= 0) & (pos < n)]
        fold.append(float(pm[pos].sum()) if len(pos) else 0.0)
    f = np.asarray(fold)
    if f.max() <= 0:
        return [0.0]
    peaks = [
        int(o)
        for o in offs
        if f[o] >= 0.2 * f.max() and f[o] >= f[(o - 1) % len(f)] and f[o] >= f[(o + 1) % len(f)]
    ]
    peaks.sort(key=lambda o: -f[o])
    return [float(o) for o in peaks[:limit]] or [0.0]
