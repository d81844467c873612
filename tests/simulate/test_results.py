"""A run's results: the JSON, per player and paired."""

from __future__ import annotations

import random
from dataclasses import replace

from minesolver.game import PRESETS
from minesolver.simulate import (
    GameRecord,
    Setup,
    simulate,
    summarise,
)
from minesolver.simulate.stats import mcnemar_exact
from minesolver.strategy import register_player
from minesolver.strategy.greedy import GreedyPlayer


def test_json_fields_are_consistent(beginner: Setup) -> None:
    result = simulate(beginner, 30).to_json()
    assert result["level"] == "beginner" and result["player"] == "greedy"
    assert result["games"] == 30
    wins = result["wins"]
    assert isinstance(wins, int)
    assert result["win_rate"] == wins / 30
    lo, hi = result["ci95"]  # type: ignore[misc]
    assert lo <= wins / 30 <= hi
    assert isinstance(result["games_per_second"], float) and result["games_per_second"] > 0


class _Lowest(GreedyPlayer):
    """Greedy whose ties go to the first cell in reading order (no randomness)."""

    name = "lowest"

    def reset(self, rng: random.Random) -> None:
        super().reset(random.Random(0))


def test_paired_run_plays_the_same_layouts(beginner: Setup) -> None:
    register_player("lowest", _Lowest)
    setup = replace(beginner, players=("greedy", "lowest"))
    result = simulate(setup, 40)
    data = result.to_json()
    assert set(data["results"]) == {"greedy", "lowest"}  # type: ignore[arg-type]
    solo = simulate(beginner, 40)
    greedy_wins = [r.wins[0] for r in result.records]
    assert greedy_wins == [r.wins[0] for r in solo.records]  # same boards, same games
    (pair,) = result.paired
    assert pair.a_only == sum(r.wins[0] and not r.wins[1] for r in result.records)
    assert pair.b_only == sum(r.wins[1] and not r.wins[0] for r in result.records)
    assert pair.p_value == mcnemar_exact(pair.a_only, pair.b_only)


def test_summarise_known_records() -> None:
    setup = Setup(PRESETS["beginner"], "safe", (0, 0), ("a", "b"))
    wins = [(True, True), (True, False), (False, True), (True, False), (False, False)]
    records = [GameRecord(i, w, (i, 2 * i), (0.5, 1.5)) for i, w in reversed(list(enumerate(wins)))]
    result = summarise(setup, "beginner", records, wall_seconds=10.0, workers=1)
    assert [r.index for r in result.records] == [0, 1, 2, 3, 4]  # sorted by index
    a, b = result.results["a"], result.results["b"]
    assert (a.wins, a.guesses, b.wins, b.guesses) == (3, 10, 2, 20)
    assert a.win_rate == 3 / 5 and b.guesses_per_game == 4.0
    assert a.games_per_second == 5 / 2.5 and b.games_per_second == 5 / 7.5  # wall by cpu
    assert a.games_per_second_per_core == 5 / 2.5
    (pair,) = result.paired
    assert (pair.a, pair.b, pair.a_only, pair.b_only) == ("a", "b", 2, 1)
    assert pair.p_value == 1.0  # 2 against 1 of 3: no evidence


def test_games_lost_on_the_first_click_are_left_out_of_the_speed() -> None:
    setup = Setup(PRESETS["beginner"], "safe", (0, 0), ("a",))
    records = [GameRecord(i, (i < 2,), (0,), (0.5,)) for i in range(5)]
    result = summarise(setup, "beginner", records, 10.0, 1, given_layouts=True, lost_on_start=3)
    (a,) = result.results.values()
    assert (a.games, a.played, a.wins) == (5, 2, 2)
    assert a.games_per_second_per_core == 2 / 2.5 and a.games_per_second == 2 / 10.0
    data = result.to_json()
    assert data["lost_on_first_click"] == 3 and data["games_per_second_per_core"] == 2 / 2.5
    every = summarise(setup, "beginner", records, 10.0, 1, given_layouts=True, lost_on_start=5)
    assert every.results["a"].games_per_second_per_core == 0.0
    data = every.to_json()
    assert data["games_per_second"] is None and data["games_per_second_per_core"] is None
