"""Seeds and the layouts of a run, drawn or no-guess."""

from __future__ import annotations

import random
from dataclasses import replace

from minesolver.game import PRESETS, Layout, random_layout
from minesolver.noguess import no_guess_layout, solves_without_guessing
from minesolver.simulate import (
    Setup,
    derive_seed,
    game_layout,
    played_layouts,
    simulate,
)


def test_seeds_differ_by_game_and_purpose() -> None:
    seeds = {derive_seed(1, i, p) for i in range(50) for p in ("layout", "player")}
    assert len(seeds) == 100
    assert derive_seed(1, 0, "layout") == derive_seed(1, 0, "layout")


def test_no_guess_boards_are_won_without_guessing(beginner: Setup) -> None:
    level = PRESETS["beginner"]
    layout, draws = no_guess_layout(level, random.Random(4), (0, 0))
    assert draws >= 1 and solves_without_guessing(layout, (0, 0))
    result = simulate(replace(beginner, no_guess=True), 8)
    data = result.to_json()
    assert data["wins"] == 8 and data["guesses_per_game"] == 0
    assert result.draws >= 8
    assert data["no_guess_rejection_rate"] == 1 - 8 / result.draws


def test_a_board_needing_a_guess_is_not_no_guess() -> None:
    # 2x2, one mine at (1,1): the first click shows 1, the three others are 1/3 each
    assert not solves_without_guessing(Layout(2, 2, (3,)), (0, 0))
    # the mine at the far end of a 3x1 row: the first click shows 0 and opens the rest
    assert solves_without_guessing(Layout(3, 1, (2,)), (0, 0))


def test_played_layouts_are_the_games_layouts(beginner: Setup) -> None:
    drawn = played_layouts(beginner, 5, first_game=3)
    assert drawn == [game_layout(beginner, i)[0] for i in range(3, 8)]
    assert drawn[0] == random_layout(
        beginner.level, random.Random(derive_seed(11, 3, "layout")), (0, 0), "safe"
    )
    assert played_layouts(beginner, 2, drawn, first_game=1) == drawn[1:3]
