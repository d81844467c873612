"""Lines moved onto tiles of two sizes (GNOME Mines' whole-pixel layout, see
:mod:`minesolver.vision.snap`) and the edge line of digits no edge cell can show: the
edge profile against a direct sum over the pixels, the lines on a drawn board of tiles
of 62 and 60 pixels (the layout of a 16x16 board at display scale 2), nothing moved
where the image shows no edges, and a whole-desktop capture of that board read."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("numpy")
pytest.importorskip("PIL")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver.vision.extent import _crowded_line
from minesolver.vision.snap import edge_profile, snapped, snapped_lattice
from minesolver.vision.templates import integral

BACKGROUND = (246, 245, 244)
TILE = (186, 189, 182)
GAP = 8


def tiles_of_two_sizes(big: int, small: int, n_big: int, n: int, margin: int = 70) -> tuple:
    """An image of ``n`` x ``n`` tiles on a light background, the first ``n_big`` rows and
    columns ``big`` pixels a period, the others ``small`` (a gap of :data:`GAP` in each),
    and where each tile starts along either axis."""
    starts = [margin]
    for k in range(1, n):
        starts.append(starts[-1] + (big if k <= n_big else small))
    end = starts[-1] + small + margin
    rgb = np.empty((end, end, 3), dtype=np.uint8)
    rgb[:] = BACKGROUND
    for k, a in enumerate(starts):
        size = (big if k < n_big else small) - GAP
        for b_index, b in enumerate(starts):
            other = (big if b_index < n_big else small) - GAP
            rgb[a : a + size, b : b + other] = TILE
    return rgb, starts


@settings(max_examples=40, deadline=None)
@given(
    st.integers(4, 30),
    st.integers(4, 30),
    st.integers(0, 2**32 - 1),
    st.booleans(),
    st.data(),
)
def test_the_edge_profile_is_the_change_between_neighbouring_lines(
    h: int, w: int, seed: int, along_x: bool, data: st.DataObject
) -> None:
    """Entry ``k`` is the change between columns (rows) ``k`` and ``k + 1`` summed over
    the span and the colours, per pixel of the span: as numpy sums it over the pixels."""
    rgb = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    limit = h if along_x else w
    lo = data.draw(st.integers(0, limit - 1))
    hi = data.draw(st.integers(lo + 1, limit))
    got = edge_profile(integral(rgb), along_x, lo, hi)
    part = rgb[lo:hi].astype(np.int64) if along_x else rgb[:, lo:hi].astype(np.int64)
    sums = part.sum(axis=0) if along_x else part.sum(axis=1)
    want = np.abs(np.diff(sums, axis=0)).sum(axis=1) / (hi - lo)
    assert np.allclose(got, want)


def test_lines_follow_tiles_of_two_sizes() -> None:
    """On tiles of 62 pixels then 60 (no lattice of equal cells fits them to within six
    pixels), every line moves to the same place within its tile's gap, to a pixel."""
    rgb, starts = tiles_of_two_sizes(62, 60, 10, 16)
    # the lattice of equal cells that fits the gaps' middles best (least squares), as
    # the reader's lattice is fitted to the board on average
    middles = np.asarray(starts, dtype=float) - GAP / 2
    period, first = np.polyfit(np.arange(16), middles, 1)
    lines = [float(first + k * period) for k in range(17)]
    plain = [lines[k] - middles[k] for k in range(16)]
    assert max(plain) - min(plain) >= 6  # the best equal lattice: 3 to 4 pixels off at the ends
    xs, ys = snapped_lattice(integral(rgb), lines, lines, (lines[0], lines[-1]) * 2)
    for moved in (xs, ys):
        offsets = [moved[k] - middles[k] for k in range(16)]
        assert max(offsets) - min(offsets) <= 1.0, offsets
        assert abs(float(np.mean(offsets))) <= 1.5  # the lattice's own place on average
        assert all(b > a for a, b in itertools.pairwise(moved))


def test_no_edges_no_move() -> None:
    """Where the profile is flat, every line stays where it was."""
    lines = [10.5 + 40 * k for k in range(8)]
    assert snapped(lines, np.zeros(400), (lines[0], lines[-1])) == lines
    assert snapped(lines[:2], np.ones(400), (lines[0], lines[-1])) == lines[:2]


def test_an_edge_line_of_digits_no_edge_cell_shows_is_dropped() -> None:
    """:func:`_crowded_line` drops an edge row or column whose sure cells are all 6s, 7s
    or 8s (at least half of it) on any side; not one with another label read surely,
    nor one mostly unsure."""
    labels = np.array([list("HHHH"), list("H1H2"), list("8888")])
    bad = np.zeros(labels.shape, dtype=bool)
    assert _crowded_line(labels, bad, (0, 4, 0, 3)) == (0, 4, 0, 2)
    assert _crowded_line(labels[::-1], bad, (0, 4, 0, 3)) == (0, 4, 1, 3)
    assert _crowded_line(labels.T, bad.T, (0, 3, 0, 4)) == (0, 2, 0, 4)
    bad[2, 0] = True
    assert _crowded_line(labels, bad, (0, 4, 0, 3)) == (0, 4, 0, 2)
    bad[2, 1:3] = True
    assert _crowded_line(labels, bad, (0, 4, 0, 3)) is None
    mixed = np.array([list("HHHH"), list("H1H2"), list("8878")])
    assert _crowded_line(mixed, np.zeros(mixed.shape, dtype=bool), (0, 4, 0, 3)) == (0, 4, 0, 2)
    other = np.array([list("HHHH"), list("H1H2"), list("8858")])
    assert _crowded_line(other, np.zeros(other.shape, dtype=bool), (0, 4, 0, 3)) is None


def test_lines_beyond_those_found_follow_the_tiles_and_stop_past_the_board() -> None:
    """The lines found cover the tiles of 62 pixels only (as the first lattice found on
    such a board does): the lines over the tiles of 60 beyond them still follow the
    tiles; from the board's last line on (tiles on one side only), beside a window's
    button (a rectangle of other edges), the lines are not moved: a period apart."""
    rgb, starts = tiles_of_two_sizes(62, 60, 10, 16, margin=200)
    # a button right of the board, its edges two pixels from where the lines past the
    # board fall: lines moved to match edges would move onto them
    left = int(starts[-1] + 60 - GAP / 2 + 62) + 2
    rgb[starts[4] : starts[4] + 120, left : left + 150] = (220, 220, 220)
    rgb[starts[4] : starts[4] + 120, left + 8 : left + 142] = (240, 240, 240)
    middles = np.asarray(starts, dtype=float) - GAP / 2
    first = float(middles[0])
    lines = [first + 62.0 * k for k in range(-2, 21)]  # the 62-pixel lattice, grown
    core = (first, first + 62.0 * 10)
    xs = snapped(lines, edge_profile(integral(rgb), True, starts[0], starts[-1] + 52), core)
    on_board = [xs[k + 2] - middles[k] for k in range(16)]
    assert max(on_board) - min(on_board) <= 1.0, on_board
    # the board's last line (tiles on one side only, a weak match) a period after the
    # line before it: off by the two pixels a tile of 60 is shorter than the period
    edge = starts[-1] + 60 - GAP / 2 + on_board[-1]
    assert abs(xs[18] - edge) <= 2.0 + 1e-9
    beyond = [xs[k] - xs[k - 1] for k in range(19, len(xs)) if xs[k] < rgb.shape[1] - 1]
    assert all(abs(step - 62.0) < 1e-9 for step in beyond), beyond
