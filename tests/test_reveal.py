"""`analyze_after` (incremental reveal) equals a fresh `analyze` of the revealed position.

For every unknown cell of positions cut from real games and every digit 0-8: either both
raise InconsistentPosition, or probabilities, layout count and certain cells are equal.
Positions need no brute force here, so boards go up to 16x16; the count cache shared
across the reveals must not change any answer.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from gen import ci_settings, cut_position
from hypothesis import given
from hypothesis import strategies as st

from minesolver import InconsistentPosition, Position, analyze
from minesolver.analysis import Analysis, CellProbabilities, analyze_after
from minesolver.constraints import build, reveal
from minesolver.counting import ComponentCount


def _fresh(position: Position, cell: tuple[int, int], digit: int, **kw: object) -> Analysis | None:
    try:
        return analyze(position.replace({cell: digit}), **kw)  # type: ignore[arg-type]
    except InconsistentPosition:
        return None


def _after(
    a: Analysis, cell: tuple[int, int], digit: int, cache: dict[object, ComponentCount]
) -> Analysis | None:
    try:
        return analyze_after(a, cell, digit, cache=cache)
    except InconsistentPosition:
        return None


def _same(x: Analysis | None, y: Analysis | None) -> None:
    assert (x is None) == (y is None)
    if x is not None and y is not None:
        assert x.probabilities == y.probabilities
        assert x.layouts == y.layouts
        assert x.safe == y.safe and x.certain_mines == y.certain_mines
        for a in (x, y):  # the distinct levels the players scan are exactly the values
            probs = a.probabilities
            assert isinstance(probs, CellProbabilities)
            assert set(probs.distinct()) == set(probs.values())
            assert {id(v) for v in probs.values()} <= {id(v) for v in probs.distinct()}


@ci_settings(60)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(4, 16),
    height=st.integers(4, 16),
    fill=st.floats(0.1, 0.3),
    openings=st.integers(0, 6),
    flags=st.sampled_from([0.0, 0.5, 1.0]),
    mode=st.sampled_from(["total", "density", "untrusted"]),
)
def test_reveal_equals_fresh_analysis(
    seed: int, width: int, height: int, fill: float, openings: int, flags: float, mode: str
) -> None:
    rng = random.Random(seed)
    mines = max(1, int(width * height * fill))
    cut = cut_position(rng, width, height, mines, openings=openings, flag_fraction=flags)
    kw: dict[str, object] = {}
    if mode == "density":
        kw["density"] = Fraction(1, 5)
    elif mode == "untrusted":
        kw["trust_flags"] = False
    base = analyze(cut.position, **kw)  # type: ignore[arg-type]
    cache: dict[object, ComponentCount] = {}
    cells = sorted(base.probabilities)
    for cell in rng.sample(cells, min(8, len(cells))):
        for digit in range(9):
            _same(_after(base, cell, digit, cache), _fresh(cut.position, cell, digit, **kw))


def test_reveal_keeps_untouched_components() -> None:
    """Components away from the opened cell are the very same objects (so a count cache
    keyed by shape finds them)."""
    pos = Position.from_text("9x3x4\n1HHHHHHH1\nHHHHHHHHH\nHHHHHHHHH\n")
    problem = build(pos)
    assert len(problem.components) == 2
    child = reveal(problem, pos.index((7, 1)), 1)
    kept = [c for c in child.components if any(c is p for p in problem.components)]
    assert len(kept) == 1 and kept[0].boxes[0][0] == pos.index((1, 0))


def test_reveal_rejects_known_and_certain_mine_cells() -> None:
    pos = Position.from_text("3x1x1\n1HH\n")
    a = analyze(pos)
    with pytest.raises(InconsistentPosition, match="certainly a mine"):
        analyze_after(a, (1, 0), 1)
    with pytest.raises(ValueError, match="not an unknown cell"):
        analyze_after(a, (0, 0), 1)
