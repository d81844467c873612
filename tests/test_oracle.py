"""Property tests: the exact engine against the brute-force oracle, on positions cut from
real random games (``gen.py``), and identities every exact answer must satisfy.

The oracle is called on a problem built here, not by :func:`minesolver.constraints.build`,
so that it shares nothing with the engine under test but the position: the unknown cells
are read straight off the cells, and it enumerates every placement of the remaining mines.
All settings are derandomized (``gen.ci_settings``): the same cases on every run.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from gen import Case, Cut, cases, ci_settings, cut_position, game_positions
from hypothesis import event, given
from hypothesis import strategies as st

from minesolver import FLAG, HIDDEN, InconsistentPosition, Position, analyze
from minesolver.analysis import Analysis
from minesolver.constraints import Problem, build
from minesolver.engines.brute import brute_force

Cell = tuple[int, int]

EXACT_ENGINES = ("exact", "exact-py")
"""The native engine and the pure-Python reference: every property holds for both."""
engines = pytest.mark.parametrize("engine", EXACT_ENGINES)


def oracle(
    position: Position, density: Fraction | None = None, trust_flags: bool = True
) -> tuple[int, dict[Cell, Fraction]]:
    """Layout count and probabilities by enumeration, bypassing the constraint builder."""
    cells = position.cells
    unknown = tuple(
        i for i, v in enumerate(cells) if v == HIDDEN or (v == FLAG and not trust_flags)
    )
    problem = Problem(
        position=position,
        unknown=unknown,
        components=(),
        interior=(),
        forced_safe=frozenset(),
        forced_mines=frozenset(),
        mines_left=None,
        density=density,
        trust_flags=trust_flags,
    )
    layouts, probs = brute_force(problem, density)
    return layouts, {position.coords(i): p for i, p in probs.items()}


def assert_matches_oracle(case: Case, engine: str) -> Analysis:
    """The exact analysis equals the oracle's: layouts, every probability, certain cells."""
    p = case.position
    got = analyze(p, engine=engine, density=case.density, trust_flags=case.trust_flags)
    layouts, probs = oracle(p, case.density, case.trust_flags)
    assert got.exact
    assert got.layouts == layouts
    assert dict(got.probabilities) == probs
    assert all(isinstance(v, Fraction) for v in got.probabilities.values())
    assert got.safe == {c for c, v in probs.items() if v == 0}
    assert got.certain_mines == {c for c, v in probs.items() if v == 1}
    problem = build(p, trust_flags=case.trust_flags, density=case.density)
    event(f"components: {min(len(problem.components), 2)}")
    event(f"interior: {bool(problem.interior)}")
    event(f"unknown cells: {len(probs) // 5 * 5}+")
    # the game's true layout is one of those counted: its mines are possible, its safe
    # cells possibly safe.
    for cell, v in probs.items():
        if p.index(cell) in case.layout:
            assert v > 0, cell
        else:
            assert v < 1, cell
    return got


@engines
@ci_settings(300)
@given(cases(density=False, trust_flags=True))
def test_exact_equals_brute_force_total_known(engine: str, case: Case) -> None:
    assert_matches_oracle(case, engine)


@engines
@ci_settings(200)
@given(cases(density=False, trust_flags=True, frontier=True))
def test_exact_equals_brute_force_with_a_frontier(engine: str, case: Case) -> None:
    assert_matches_oracle(case, engine)


@engines
@ci_settings(250)
@given(cases(density=False, trust_flags=False))
def test_exact_equals_brute_force_flags_untrusted(engine: str, case: Case) -> None:
    assert_matches_oracle(case, engine)


@engines
@ci_settings(120)
@given(cases(density=True, frontier=True))
def test_exact_equals_brute_force_under_density(engine: str, case: Case) -> None:
    got = assert_matches_oracle(case, engine)
    # a cell touching no digit keeps the prior density.
    for i in build(case.position, trust_flags=case.trust_flags, density=case.density).interior:
        assert got.probabilities[case.position.coords(i)] == case.density


@engines
@ci_settings(300)
@given(cases(density=False), st.data())
def test_changed_digit_agrees_with_oracle(engine: str, case: Case, data: st.DataObject) -> None:
    """Change one revealed digit: the result is often inconsistent, and the engine must
    say so exactly when the oracle finds no layout, and agree with it otherwise."""
    p = case.position
    digits = [i for i, v in enumerate(p.cells) if v >= 0]
    if not digits:
        return
    i = data.draw(st.sampled_from(digits), label="digit")
    new = data.draw(st.sampled_from([v for v in range(9) if v != p.cells[i]]), label="value")
    changed = p.replace({p.coords(i): new})
    try:
        expected = oracle(changed, trust_flags=case.trust_flags)
    except InconsistentPosition:
        with pytest.raises(InconsistentPosition):
            analyze(changed, engine=engine, trust_flags=case.trust_flags)
        return
    got = analyze(changed, engine=engine, trust_flags=case.trust_flags)
    assert (got.layouts, dict(got.probabilities)) == expected


# -- identities on bigger boards (exact engine only, no oracle) ---------------------------

bigger_games = game_positions(min_side=4, max_side=16, budget=None)


@engines
@ci_settings(250)
@given(bigger_games, st.booleans())
def test_sum_of_probabilities_is_the_number_of_mines_left(
    engine: str, cut: Cut, trust: bool
) -> None:
    """Linearity of expectation: under a known total the probabilities of the unknown
    cells add up exactly to the mines among them (the total minus trusted flags)."""
    p = cut.position
    assert p.mines is not None
    got = analyze(p, engine=engine, trust_flags=trust)
    assert sum(got.probabilities.values(), Fraction(0)) == p.mines - (p.flags if trust else 0)


@engines
@ci_settings(250)
@given(bigger_games)
def test_cells_of_a_box_share_one_probability(engine: str, cut: Cut) -> None:
    """Cells with the same constraints are interchangeable, interior cells too; forced
    cells are certain; every unknown cell gets a probability."""
    p = cut.position
    got = analyze(p, engine=engine)
    problem = build(p)
    probs = {p.index(c): v for c, v in got.probabilities.items()}
    assert set(probs) == {i for i, v in enumerate(p.cells) if v == HIDDEN}
    for comp in problem.components:
        for box in comp.boxes:
            assert len({probs[i] for i in box}) == 1
    assert len({probs[i] for i in problem.interior}) <= 1
    assert all(probs[i] == 0 for i in problem.forced_safe)
    assert all(probs[i] == 1 for i in problem.forced_mines)


def transpose(p: Position) -> Position:
    """The position mirrored in its main diagonal (x and y swapped)."""
    cells = tuple(p.cells[y * p.width + x] for x in range(p.width) for y in range(p.height))
    return Position(p.height, p.width, cells, p.mines)


def mirror(p: Position) -> Position:
    """The position mirrored left to right."""
    cells = tuple(
        p.cells[y * p.width + (p.width - 1 - x)] for y in range(p.height) for x in range(p.width)
    )
    return Position(p.width, p.height, cells, p.mines)


@engines
@ci_settings(200)
@given(bigger_games)
def test_symmetric_positions_get_symmetric_answers(engine: str, cut: Cut) -> None:
    """Transposing or mirroring the board permutes the answer and keeps the count: the
    engine's cell and box orders must not change any result."""
    p = cut.position
    got = analyze(p, engine=engine)
    t = analyze(transpose(p), engine=engine)
    assert t.layouts == got.layouts
    assert {(y, x): v for (x, y), v in t.probabilities.items()} == got.probabilities
    m = analyze(mirror(p), engine=engine)
    assert m.layouts == got.layouts
    assert {(p.width - 1 - x, y): v for (x, y), v in m.probabilities.items()} == (got.probabilities)


@engines
@ci_settings(40)
@given(
    st.integers(5, 16),
    st.integers(5, 16),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, Fraction(1, 5)]),
)
def test_a_shared_count_cache_changes_nothing(
    engine: str, width: int, height: int, seed: int, density: Fraction | None
) -> None:
    """One game, move after move, analysed with one cache kept across the moves (as a
    player does) and without: the same answers. Same seed, more openings: each position
    is the next step of the same game."""
    mines = width * height // 6
    cache: dict[object, Any] = {}
    for openings in range(0, 30, 3):
        p = cut_position(random.Random(seed), width, height, mines, openings=openings).position
        if density is not None:
            p = p.with_mines(None)
        fresh = analyze(p, engine=engine, density=density)
        cached = analyze(p, engine=engine, density=density, cache=cache)
        assert (cached.layouts, cached.probabilities) == (fresh.layouts, fresh.probabilities)


# -- text round trip ----------------------------------------------------------------------

cell_values = st.sampled_from([HIDDEN, FLAG, *range(9)])


@st.composite
def any_positions(draw: st.DrawFn) -> Position:
    """Any grid of cell values (not necessarily consistent), total known or not."""
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    cells = tuple(draw(st.lists(cell_values, min_size=width * height, max_size=width * height)))
    mines = draw(st.none() | st.integers(0, width * height))
    return Position(width, height, cells, mines)


@ci_settings(400)
@given(any_positions() | game_positions().map(lambda cut: cut.position))
def test_text_round_trip(p: Position) -> None:
    text = p.to_text()
    assert Position.from_text(text) == p
    assert Position.from_text(text.replace("H", ".")) == p
    assert Position.from_text(text.replace("H", "?").lower()) == p
    bare = Position.from_text(p.to_text(header=False))
    assert bare == p.with_mines(None)
    assert bare.to_text() == p.to_text(header=False)
    assert len(text.splitlines()) == p.height + (p.mines is not None)
