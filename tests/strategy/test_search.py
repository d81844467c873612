"""``search``: ``best`` with its close guesses valued by rollouts, in the native core.

Its moves are a function of the game and the seed (the budget is counted in rollouts),
its guesses are never a certain mine, without rollouts it is ``best`` move for move, and
its settings are named ``search:field=value;...``."""

from __future__ import annotations

import random

import pytest

from minesolver import Position, analyze
from minesolver.game import Game, Level, Move, random_layout
from minesolver.simulate import apply_moves, make_setup, simulate
from minesolver.strategy import PlayerError, get_player
from minesolver.strategy.native import NativeSearch
from minesolver.strategy.reasons import Rollout
from minesolver.ui.words import reason_words


def _play(name: str, level: Level, seed: int) -> tuple[list[Move], bool]:
    """One game of ``name`` from the corner on the layout of ``seed``: its moves, won."""
    layout = random_layout(level, random.Random(seed), (0, 0), "safe")
    player = get_player(name)
    player.reset(random.Random(seed + 1))
    game = Game.from_layout(layout)
    game.push(Move("open", (0, 0)))
    moves: list[Move] = []
    while not game.over:
        view = game.view()
        found = player.next_moves(view)
        for m in found:
            if m.guess:
                # a guess is never a cell the exact analysis proves a mine
                assert m.cell not in analyze(view).certain_mines
        moves.extend(found)
        apply_moves(game, found)
    return moves, game.outcome is not None and game.outcome.won


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_same_game_is_played_twice_alike(seed: int) -> None:
    level = Level(9, 9, 10)
    assert _play("search", level, seed) == _play("search", level, seed)


def test_without_rollouts_and_book_search_is_best() -> None:
    level = Level(16, 16, 40)
    for seed in range(6):
        assert _play("search:rollouts=0;book=off", level, seed) == _play("best", level, seed)


def test_settings_by_name_and_keyword() -> None:
    assert get_player("search:rollouts=8;alpha=0.1").name == "search:rollouts=8;alpha=0.1"
    assert NativeSearch(rollouts=8, rollout="pseq").name == "search:rollouts=8;rollout=pseq"
    assert get_player("search", rollouts=4).name == "search:rollouts=4"
    for wrong in ("search:nope=1", "search:rollouts=x", "search:rollout=search"):
        with pytest.raises(PlayerError, match="search"):
            get_player(wrong)


def test_a_rollout_reason_in_words() -> None:
    reason = Rollout(wins=30, rollouts=40, best_wins=20, best_rollouts=40, probability=0.2)
    words = reason_words(reason)
    assert "won 30 games" in words and "20 of 40" in words
    assert "best's guess 20 of 40" in str(reason)


def test_search_plays_in_the_simulator_on_the_layouts_of_best() -> None:
    # both players meet the same layouts (paired); search's guesses are valued, some
    # by rollouts: its reasons name them when it leaves best's guess
    setup, _ = make_setup(
        level="9x9x10", first_click="safe", start="corner", players=["best", "search"], seed=2
    )
    run = simulate(setup, 60, workers=1)
    assert [r.games for r in run.results.values()] == [60, 60]
    again = simulate(setup, 60, workers=1)
    assert [g.wins for g in run.records] == [g.wins for g in again.records]


def test_a_position_with_a_far_guess_is_valued() -> None:
    # the corner shows a 1 on expert: a guess, with its reason
    text = "30x16x99\n" + "\n".join(["1" + "H" * 29] + ["H" * 30] * 15)
    player = get_player("search")
    player.reset(random.Random(1))
    (move,) = player.next_moves(Position.from_text(text))
    assert move.guess and move.reason is not None


def test_search_on_a_dask_cluster_plays_the_local_games() -> None:
    distributed = pytest.importorskip("distributed")
    setup, _ = make_setup(
        level="9x9x10", first_click="safe", start="corner", players=["search"], seed=4
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        remote = simulate(setup, 12, dask=cluster.scheduler_address, batch_size=4)
    local = simulate(setup, 12)
    assert [g.wins for g in remote.records] == [g.wins for g in local.records]
