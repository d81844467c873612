"""The simulator: reproducibility, paired runs, given layouts, no-guess boards, Dask."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from minesolver.game import PRESETS, Layout, Level, dump_layouts, load_layouts, random_layout
from minesolver.noguess import no_guess_layout, solves_without_guessing
from minesolver.position import Position
from minesolver.simulate import (
    GameRecord,
    Setup,
    SimulationError,
    apply_moves,
    derive_seed,
    make_setup,
    play_game,
    simulate,
    start_game,
)
from minesolver.stats import mcnemar_exact, wilson_interval
from minesolver.strategy import Move, get_strategy, register
from minesolver.strategy.greedy import GreedyStrategy

BEGINNER = Setup(PRESETS["beginner"], "safe", (0, 0), ("greedy",), seed=11)


def outcomes(records: list[GameRecord]) -> list[tuple[int, tuple[bool, ...], tuple[int, ...]]]:
    """What a run decided, without its timings."""
    return [(r.index, r.wins, r.guesses) for r in records]


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mcnemar_exact_known_values() -> None:
    assert mcnemar_exact(0, 5) == 2 / 32
    assert mcnemar_exact(1, 9) == 22 / 1024  # (C(10,0) + C(10,1)) / 2^10, both tails
    assert mcnemar_exact(9, 1) == mcnemar_exact(1, 9)
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 0) == 1.0


def test_seeds_differ_by_game_and_purpose() -> None:
    seeds = {derive_seed(1, i, p) for i in range(50) for p in ("layout", "player")}
    assert len(seeds) == 100
    assert derive_seed(1, 0, "layout") == derive_seed(1, 0, "layout")


def test_same_results_whatever_the_workers_and_batches() -> None:
    one = simulate(BEGINNER, 24, workers=1, batch_size=24)
    two = simulate(BEGINNER, 24, workers=2, batch_size=5)
    assert outcomes(one.records) == outcomes(two.records)
    assert one.to_json()["wins"] == two.to_json()["wins"]
    other = simulate(replace(BEGINNER, seed=12), 24, batch_size=24)
    assert outcomes(other.records) != outcomes(one.records)
    parts = simulate(BEGINNER, 10).records + simulate(BEGINNER, 14, first_game=10).records
    assert outcomes(parts) == outcomes(one.records)  # a run made in parts is the same run


def test_json_fields_are_consistent() -> None:
    result = simulate(BEGINNER, 30).to_json()
    assert result["level"] == "beginner" and result["strategy"] == "greedy"
    assert result["games"] == 30
    wins = result["wins"]
    assert isinstance(wins, int)
    assert result["win_rate"] == wins / 30
    lo, hi = result["ci95"]  # type: ignore[misc]
    assert lo <= wins / 30 <= hi
    assert isinstance(result["games_per_second"], float) and result["games_per_second"] > 0


class _Spy(GreedyStrategy):
    """Greedy, recording what it is shown."""

    name = "spy"
    seen: list[type] = []  # noqa: RUF012 - shared across instances on purpose

    def next_moves(self, view: Position) -> list[Move]:
        _Spy.seen.append(type(view))
        return super().next_moves(view)


def test_the_player_only_ever_sees_positions() -> None:
    layout = random_layout(PRESETS["expert"], random.Random(3), (0, 0), "safe")
    _Spy.seen.clear()
    play_game(_Spy(), layout, (0, 0), random.Random(1))
    assert _Spy.seen and set(_Spy.seen) == {Position}


class _Lowest(GreedyStrategy):
    """Greedy whose ties go to the first cell in reading order (no randomness)."""

    name = "lowest"

    def reset(self, rng: random.Random) -> None:
        super().reset(random.Random(0))


def test_paired_run_plays_the_same_layouts() -> None:
    register("lowest", _Lowest)
    setup = replace(BEGINNER, strategies=("greedy", "lowest"))
    result = simulate(setup, 40)
    data = result.to_json()
    assert set(data["results"]) == {"greedy", "lowest"}  # type: ignore[arg-type]
    solo = simulate(BEGINNER, 40)
    greedy_wins = [r.wins[0] for r in result.records]
    assert greedy_wins == [r.wins[0] for r in solo.records]  # same boards, same games
    (pair,) = result.paired
    assert pair.a_only == sum(r.wins[0] and not r.wins[1] for r in result.records)
    assert pair.b_only == sum(r.wins[1] and not r.wins[0] for r in result.records)
    assert pair.p_value == mcnemar_exact(pair.a_only, pair.b_only)


def test_given_layouts_replay_the_drawn_games(tmp_path: Path) -> None:
    drawn = [
        random_layout(
            BEGINNER.level, random.Random(derive_seed(BEGINNER.seed, i, "layout")), (0, 0)
        )
        for i in range(12)
    ]
    for name in ("boards.mbf", "boards.txt"):
        dump_layouts(drawn, tmp_path / name)
        given = simulate(BEGINNER, 12, layouts=load_layouts(tmp_path / name))
        assert outcomes(given.records) == outcomes(simulate(BEGINNER, 12).records)
    with pytest.raises(SimulationError, match="only 12 layouts"):
        simulate(BEGINNER, 13, layouts=drawn)
    with pytest.raises(SimulationError, match="layout 1 is"):
        simulate(replace(BEGINNER, level=Level(9, 9, 11)), 2, layouts=drawn)


def test_no_guess_boards_are_won_without_guessing() -> None:
    level = PRESETS["beginner"]
    layout, draws = no_guess_layout(level, random.Random(4), (0, 0))
    assert draws >= 1 and solves_without_guessing(layout, (0, 0))
    result = simulate(replace(BEGINNER, no_guess=True), 8)
    data = result.to_json()
    assert data["wins"] == 8 and data["guesses_per_game"] == 0
    assert result.draws >= 8
    assert data["no_guess_rejection_rate"] == 1 - 8 / result.draws


def test_a_board_needing_a_guess_is_not_no_guess() -> None:
    # 2x2, one mine at (1,1): the first click shows 1, the three others are 1/3 each
    assert not solves_without_guessing(Layout(2, 2, (3,)), (0, 0))
    # the mine at the far end of a 3x1 row: the first click shows 0 and opens the rest
    assert solves_without_guessing(Layout(3, 1, (2,)), (0, 0))


class _Stuck(GreedyStrategy):
    name = "stuck"

    def next_moves(self, view: Position) -> list[Move]:
        return [Move("flag", (0, 0))]


def test_a_player_that_makes_no_progress_is_stopped() -> None:
    register("stuck", _Stuck)
    layout = random_layout(PRESETS["beginner"], random.Random(0), (8, 8))
    with pytest.raises(SimulationError, match="no progress"):
        play_game(_Stuck(), layout, (8, 8), random.Random(0))


def test_bad_settings() -> None:
    with pytest.raises(SimulationError, match="at least 1"):
        simulate(BEGINNER, 0)
    with pytest.raises(ValueError, match="unknown strategy"):
        simulate(replace(BEGINNER, strategies=("nope",)), 3)


def test_dask_local_cluster_gives_the_local_result() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        remote = simulate(BEGINNER, 16, dask=cluster.scheduler_address, batch_size=4)
    local = simulate(BEGINNER, 16)
    assert outcomes(remote.records) == outcomes(local.records)
    assert remote.to_json()["wins"] == local.to_json()["wins"]
    assert remote.to_json()["workers"] == 2  # the cluster's threads, not the local default


def test_start_game_is_the_game_the_simulator_plays() -> None:
    """A game followed move by move from :func:`start_game` ends as the simulator's
    record of the same game says (same layout, same player seed)."""
    setup, _ = make_setup(
        level="9x9x10", first_click="safe", start="corner", strategies=["pseq"], seed=11
    )
    result = simulate(setup, 12, workers=1)
    for record in result.records:
        player = get_strategy("pseq")
        game = start_game(setup, record.index, player)
        guesses = 0
        while not game.over:
            guesses += apply_moves(game, player.next_moves(game.view()))
        assert (game.outcome.status == "won", guesses) == (record.wins[0], record.guesses[0])


def test_start_game_on_a_given_layout() -> None:
    """With ``layout`` given, the game is laid on it (not on the seed's draw) and the
    first click is made, as in a simulator run over given layouts."""
    setup = Setup(PRESETS["beginner"], "safe", (0, 0), ("greedy",), seed=11)
    drawn = start_game(setup, 0, get_strategy("greedy"))
    given = Layout.from_cells(
        9, 9, [(8, 8), (7, 8), (8, 7), (4, 4), (0, 8), (8, 0), (2, 6), (6, 2), (3, 7), (7, 3)]
    )
    game = start_game(setup, 0, get_strategy("greedy"), given)
    assert sorted(game.mine_cells()) == sorted(given.cells()) != sorted(drawn.mine_cells())
    assert game.view().cells[0] == 0  # the first click opened the corner
