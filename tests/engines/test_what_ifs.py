"""Native what-ifs against the pure-Python path.

For positions cut from random games, :meth:`ExactEngine.what_ifs` (many cells, one
native call) and :func:`analyze_after` on a native analysis must give, for every hidden
cell asked and every digit 0-8, exactly what the reference gives: the ``exact-py`` count
of :func:`~minesolver.constraints.reveal` of the reference problem (layouts as ints,
probabilities as Fractions, the certain cells), or no outcome where the reference finds
the digit impossible. The outcome chances add up to the cell's chance of being safe.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from gen import ci_settings, cut_position
from hypothesis import given
from hypothesis import strategies as st

from minesolver import HIDDEN, InconsistentPosition, Position, analyze
from minesolver.analysis import Analysis, analyze_after
from minesolver.constraints import build, reveal
from minesolver.engines.component import analyze_components
from minesolver.engines.exact import ExactEngine, NativeAnalysis, supports_what_ifs
from minesolver.engines.exact_py import ExactPyEngine
from minesolver.strategy.outcomes import (
    OutcomeCache,
    cell_outcomes,
    lowest_probability,
    tile_outcomes,
)


def _reference(position: Position, cell: int, digit: int) -> Analysis | None:
    """exact-py on the revealed problem (constraints.reveal), or None when impossible."""
    try:
        return analyze_components(reveal(build(position), cell, digit), ExactPyEngine())
    except InconsistentPosition:
        return None


def _why_not(analysis: Analysis, cell: tuple[int, int], digit: int) -> str:
    """The reason the reference gives for a digit ``cell`` cannot show: a certain mine,
    or the reference's own wording of the revealed position (the core names the cells
    without running it)."""
    if cell in analysis.certain_mines:
        return f"cell ({cell[0]}, {cell[1]}) is certainly a mine"
    position = analysis.position
    with pytest.raises(InconsistentPosition) as raised:
        analyze(position.with_digit(position.index(cell), digit), engine="exact-py")
    return str(raised.value)


def _same(got: Analysis, want: Analysis) -> None:
    assert got.layouts == want.layouts
    assert dict(got.probabilities) == dict(want.probabilities)
    assert got.safe == want.safe
    assert got.certain_mines == want.certain_mines
    assert got.position == want.position
    low = min((p for p in want.probabilities.values() if p < 1), default=None)
    assert lowest_probability(got) == (0 if want.safe else low)


@st.composite
def positions(draw: st.DrawFn) -> tuple[Position, list[tuple[int, int]]]:
    """A consistent position from a random game (sides up to 30, flags on certain mines
    or anywhere), and up to 6 of its hidden cells."""
    side = st.one_of(st.integers(2, 10), st.integers(2, 30))
    width, height = draw(side, label="width"), draw(side, label="height")
    n = width * height
    mines = draw(st.integers(1, max(1, n // 3)), label="mines")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="seed"))
    cut = cut_position(
        rng,
        width,
        height,
        mines,
        openings=draw(st.integers(0, 20), label="openings"),
        flag_fraction=draw(st.sampled_from([0.0, 0.5, 1.0]), label="flags"),
    )
    pos = cut.position
    hidden = [pos.coords(i) for i, v in enumerate(pos.cells) if v == HIDDEN]
    cells = rng.sample(hidden, min(len(hidden), draw(st.integers(1, 6), label="cells")))
    return pos, cells


@ci_settings(150)
@given(positions())
def test_what_ifs_equal_the_reference(case: tuple[Position, list[tuple[int, int]]]) -> None:
    position, cells = case
    analysis = analyze(position)
    assert isinstance(analysis, NativeAnalysis) and supports_what_ifs(analysis)
    batch = ExactEngine().what_ifs(analysis, cells)
    assert len(batch) == len(cells)
    for cell, children in zip(cells, batch, strict=True):
        index = position.index(cell)
        got = dict(children)
        assert list(got) == sorted(got)
        for digit in range(9):
            want = _reference(position, index, digit)
            if want is None:
                assert digit not in got
                with pytest.raises(InconsistentPosition) as raised:
                    analyze_after(analysis, cell, digit)
                assert str(raised.value) == _why_not(analysis, cell, digit)
                continue
            _same(got[digit], want)
            _same(analyze_after(analysis, cell, digit), want)
        total = analysis.layout_count()
        chances = sum((Fraction(c.layout_count(), total) for c in got.values()), Fraction(0))
        assert chances == 1 - analysis.probabilities[cell]


def test_outcomes_and_tiles_equal_the_python_path() -> None:
    """The players' outcomes and the tile information through the batch are those of
    the one-by-one Python path (an exact-py analysis takes it), on expert positions."""
    for seed in range(6):
        cut = cut_position(random.Random(seed), 30, 16, 99, openings=15, flag_fraction=0.5)
        pos = cut.position
        native, reference = analyze(pos), analyze(pos, engine="exact-py")
        cells = sorted(native.probabilities, key=native.probabilities.__getitem__)[:8]
        cache = OutcomeCache()
        batch = cache.outcomes(native, cells)
        for cell in cells:
            want = cell_outcomes(reference, cell)
            got = batch[cell]
            assert [(o.digit, o.probability) for o in got] == [
                (o.digit, o.probability) for o in want
            ]
            for a, b in zip(got, want, strict=True):
                _same(a.analysis, b.analysis)
            assert cell_outcomes(native, cell, cache) == got
            assert tile_outcomes(native, cell) == tile_outcomes(reference, cell)


def test_a_certain_mine_has_no_outcome_and_a_revealed_cell_is_refused() -> None:
    pos = Position.from_text("3x1x1\n1HH")
    analysis = analyze(Position.from_text("2x1x1\n1H"))
    assert ExactEngine().what_ifs(analysis, [(1, 0)]) == [[]]
    with pytest.raises(ValueError, match="not a hidden cell"):
        ExactEngine().what_ifs(analysis, [(0, 0)])
    with pytest.raises(IndexError):
        ExactEngine().what_ifs(analyze(pos), [(5, 0)])


def test_a_large_batch_shares_one_call() -> None:
    """Every hidden cell of an expert position at once: the same as cell by cell."""
    cut = cut_position(random.Random(11), 30, 16, 99, openings=20, flag_fraction=0.0)
    analysis = analyze(cut.position)
    cells = list(analysis.probabilities)
    engine = ExactEngine()
    together = engine.what_ifs(analysis, cells)
    for cell, children in list(zip(cells, together, strict=True))[::37]:
        alone = engine.what_ifs(analysis, [cell])[0]
        assert [(d, a.layouts, a.safe) for d, a in children] == [
            (d, a.layouts, a.safe) for d, a in alone
        ]
