"""What a click can show: exact outcome probabilities against direct enumeration."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest

from minesolver.analysis import analyze
from minesolver.constraints import build
from minesolver.engines.brute import brute_force
from minesolver.position import FLAG, HIDDEN, Position
from minesolver.strategy.outcomes import (
    OutcomeCache,
    cell_outcomes,
    deep_signature,
    digit_entropy,
    is_dead,
    representatives,
)

DESIGN_EXAMPLE = """5x5x5
H2HHH
HHHHH
112HH
00HHH
000HH
"""


def list_layouts(position: Position, hidden: list[int]) -> list[set[int]]:
    """Every layout (mine cell indices, flags excluded) by trying each placement."""
    cells = position.cells
    nbrs = position.neighbour_indices()
    flags = {i for i, v in enumerate(cells) if v == FLAG}
    assert position.mines is not None
    return [
        set(combo)
        for combo in combinations(hidden, position.mines - len(flags))
        if all(
            sum(j in set(combo) | flags for j in nbrs[i]) == d
            for i, d in enumerate(cells)
            if d >= 0
        )
    ]


def enumerate_outcomes(position: Position) -> dict[tuple[int, int], dict[int, Fraction]]:
    """P(cell safe and shows d) for every hidden cell, by listing every layout."""
    nbrs = position.neighbour_indices()
    hidden = [i for i, v in enumerate(position.cells) if v == HIDDEN]
    flags = {i for i, v in enumerate(position.cells) if v == FLAG}
    layouts = [mines | flags for mines in list_layouts(position, hidden)]
    out: dict[tuple[int, int], dict[int, Fraction]] = {}
    for i in hidden:
        counts: dict[int, int] = {}
        for mines in layouts:
            if i not in mines:
                d = sum(j in mines for j in nbrs[i])
                counts[d] = counts.get(d, 0) + 1
        out[position.coords(i)] = {d: Fraction(n, len(layouts)) for d, n in counts.items()}
    return out


def random_position(rng: random.Random) -> Position:
    w, h = rng.randint(2, 5), rng.randint(2, 4)
    m = rng.randint(1, max(1, w * h // 4))
    mines = set(rng.sample(range(w * h), m))
    nbrs = Position.empty(w, h).neighbour_indices()
    cells = [HIDDEN] * (w * h)
    safe = [i for i in range(w * h) if i not in mines]
    for i in rng.sample(safe, rng.randint(1, len(safe))):
        cells[i] = sum(j in mines for j in nbrs[i])
    flagged = [i for i in mines if rng.random() < 0.3]
    for i in flagged:
        cells[i] = FLAG
    return Position(w, h, tuple(cells), m)


def check_against_enumeration(position: Position) -> None:
    analysis = analyze(position)
    expected = enumerate_outcomes(position)
    cache = OutcomeCache()
    for cell, by_digit in expected.items():
        outs = cell_outcomes(analysis, cell, cache)
        got = {o.digit: o.probability for o in outs}
        assert got == by_digit, (cell, position.to_text())
        assert sum(got.values(), Fraction(0)) == 1 - analysis.probabilities[cell]


def test_design_example_outcomes_match_enumeration() -> None:
    check_against_enumeration(Position.from_text(DESIGN_EXAMPLE))


def test_outcome_is_child_layouts_over_parent_layouts_by_brute_force() -> None:
    position = Position.from_text(DESIGN_EXAMPLE)
    analysis = analyze(position)
    parent, _ = brute_force(build(position))
    for o in cell_outcomes(analysis, (4, 4)):
        child, _ = brute_force(build(position.replace({(4, 4): o.digit})))
        assert o.probability == Fraction(child, parent)


@pytest.mark.parametrize("seed", range(40))
def test_random_small_positions_match_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng)
    try:
        analyze(position)
    except ValueError:  # pragma: no cover - random positions come from a layout
        pytest.fail("a position revealed from a layout is consistent")
    check_against_enumeration(position)


def test_certain_mine_has_no_outcome_and_revealed_cell_is_refused() -> None:
    position = Position.from_text("3x1x1\n1HH\n")
    analysis = analyze(position)
    assert analysis.probabilities[(1, 0)] == 1
    assert cell_outcomes(analysis, (1, 0)) == []
    with pytest.raises(ValueError, match="not hidden"):
        cell_outcomes(analysis, (0, 0))


def test_dead_cell_and_entropy() -> None:
    # (0,0) hides behind 1s: if safe it shows 1 (its only hidden neighbour (1,0) is then
    # the mine): dead. On an empty 3x3 board with 1 mine the centre is dead too (always
    # 1), while a corner shows 1 (3 of 9 layouts) or 0 (5 of 9).
    position = Position.from_text("2x2x1\nHH\n11\n")
    outs = cell_outcomes(analyze(position), (0, 0))
    assert [o.digit for o in outs] == [1]
    assert is_dead(outs)
    assert digit_entropy(outs) == 0.0
    open_board = analyze(Position.empty(3, 3, 1))
    centre = cell_outcomes(open_board, (1, 1))
    assert is_dead(centre)
    assert {o.digit: o.probability for o in centre} == {1: Fraction(8, 9)}
    corner = cell_outcomes(open_board, (0, 0))
    assert not is_dead(corner)
    assert {o.digit: o.probability for o in corner} == {0: Fraction(5, 9), 1: Fraction(3, 9)}
    assert digit_entropy(corner) == pytest.approx(0.954434, abs=1e-6)  # H(5/8, 3/8)


def test_deep_cells_collapse_to_one_per_class() -> None:
    position = Position.empty(6, 6, 4)
    reps = representatives(position, list(position))
    # corners (3 neighbours), edges (5) and inside cells (8): one each
    assert sorted(deep_signature(position, c) or (0, 0) for c in reps) == [(3, 0), (5, 0), (8, 0)]
    near = Position.from_text("4x4x2\n1HHH\nHHHH\nHHHH\nHHHH\n")
    assert deep_signature(near, (1, 1)) is None  # touches the digit
    assert deep_signature(near, (2, 2)) is None  # its neighbour (1,1) touches it
    assert deep_signature(near, (3, 3)) == (3, 0)
