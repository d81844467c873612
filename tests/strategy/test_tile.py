"""The tile information of a cell (``tile_outcomes``) against listing every layout."""

from __future__ import annotations

from fractions import Fraction

import pytest
from gen import Cut, ci_settings, game_positions
from hypothesis import given
from tile_oracle import layouts, tile_truth

from minesolver.analysis import analyze
from minesolver.position import HIDDEN, Position
from minesolver.result import MineCountUnknown
from minesolver.strategy.outcomes import (
    OutcomeCache,
    TileError,
    cell_outcomes,
    tile_outcomes,
)

KNOWN = "5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH\n"


@ci_settings(100)
@given(game_positions(max_side=6, budget=2000, frontier=True))
def test_every_hidden_cell_matches_the_enumeration(cut: Cut) -> None:
    position = cut.position
    analysis = analyze(position)
    every = layouts(position)
    cache = OutcomeCache()
    for i, v in enumerate(position.cells):
        if v != HIDDEN:
            continue
        cell = position.coords(i)
        tile = tile_outcomes(analysis, cell, cache)
        truth = tile_truth(position, cell, every)
        assert tile.mine == truth.mine, (cell, position.to_text())
        assert dict(tile.digits) == truth.digits, (cell, position.to_text())
        assert tile.progress == truth.progress, (cell, position.to_text())
        assert sum(tile.digits.values(), Fraction(0)) == tile.safe == 1 - tile.mine
        assert tile.opening == truth.digits.get(0, 0)
        assert 0 <= tile.progress <= tile.safe
        assert list(tile.digits) == sorted(tile.digits)
        assert all(p > 0 for p in tile.digits.values())


def test_progress_is_the_best_players_when_no_cell_is_certainly_safe() -> None:
    # the best player counts an outcome as progress when its analysis has a safe cell;
    # with no certainly safe cell before the click that is the tile's meaning too
    position = Position.from_text("5x4x4\nHHHHH\nH2HHH\nHHH1H\nHHHHH\n")
    analysis = analyze(position)
    assert not analysis.safe
    seen = set()
    for cell, p in analysis.probabilities.items():
        if p == 1:
            continue
        outs = cell_outcomes(analysis, cell)
        tile = tile_outcomes(analysis, cell)
        expected = sum((o.probability for o in outs if o.analysis.safe), Fraction(0))
        assert tile.progress == expected
        seen.add(tile.progress)
    assert len(seen) > 2  # the cells differ: the comparison is not between zeros


def test_the_design_example() -> None:
    analysis = analyze(Position.from_text(KNOWN))
    corner = tile_outcomes(analysis, (4, 4))
    assert corner.mine == Fraction(11, 36)
    assert dict(corner.digits) == {0: Fraction(4, 9), 1: Fraction(1, 4)}
    assert corner.opening == corner.progress == Fraction(4, 9)
    dead = tile_outcomes(analysis, (0, 0))  # shows 1 whenever it is safe: nothing new
    assert dict(dead.digits) == {1: Fraction(1, 2)} and dead.progress == 0
    safe = tile_outcomes(analysis, (2, 1))  # certainly safe: its digits add up to 1
    assert safe.mine == 0 and sum(safe.digits.values(), Fraction(0)) == 1


def test_a_certain_mine_shows_nothing() -> None:
    tile = tile_outcomes(analyze(Position.from_text("3x1x1\n1HH\n")), (1, 0))
    assert tile.mine == 1 and dict(tile.digits) == {} and tile.progress == 0
    assert tile.safe == 0 and tile.opening == 0


@pytest.mark.parametrize(
    ("cell", "words"),
    [
        ((5, 0), "off the 5x5 board"),
        ((0, -1), "off the 5x5 board"),
        ((1, 0), "not hidden: it shows the digit 2"),
    ],
)
def test_bad_cells_are_refused_naming_the_cell(cell: tuple[int, int], words: str) -> None:
    analysis = analyze(Position.from_text(KNOWN))
    with pytest.raises(TileError) as info:
        tile_outcomes(analysis, cell)
    assert str(info.value).startswith(f"cell {cell} ") and words in str(info.value)


def test_a_flag_a_density_an_approximate_engine_and_untrusted_flags_are_refused() -> None:
    flagged = Position.from_text("3x1x1\n1FH\n")
    with pytest.raises(TileError, match="it shows a flag"):
        tile_outcomes(analyze(flagged), (1, 0))
    with pytest.raises(TileError, match="trust them"):
        tile_outcomes(analyze(flagged, trust_flags=False), (2, 0))
    unknown = Position.from_text("1HH\nHHH\nHHH\n")
    with pytest.raises(MineCountUnknown, match="not a density"):
        tile_outcomes(analyze(unknown, density="1/5"), (2, 2))
    with pytest.raises(TileError, match=r"exact count.*bp engine"):
        tile_outcomes(analyze(Position.from_text(KNOWN), engine="bp"), (4, 4))
