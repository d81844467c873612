"""One game: the first click, the player's moves pushed, what the player sees."""

from __future__ import annotations

import random

import pytest

from minesolver.game import PRESETS, Game, GameError, Layout, random_layout
from minesolver.position import Position
from minesolver.simulate import (
    Setup,
    SimulationError,
    apply_moves,
    make_setup,
    play_game,
    simulate,
    start_game,
)
from minesolver.strategy import Move, get_player, register_player
from minesolver.strategy.greedy import GreedyPlayer


class _Spy(GreedyPlayer):
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


class _Stuck(GreedyPlayer):
    name = "stuck"

    def next_moves(self, view: Position) -> list[Move]:
        return [Move("flag", (0, 0))]


def test_a_player_that_makes_no_progress_is_stopped() -> None:
    register_player("stuck", _Stuck)
    layout = random_layout(PRESETS["beginner"], random.Random(0), (8, 8))
    with pytest.raises(SimulationError, match="no progress"):
        play_game(_Stuck(), layout, (8, 8), random.Random(0))


def test_start_game_is_the_game_the_simulator_plays() -> None:
    """A game followed move by move from :func:`start_game` ends as the simulator's
    record of the same game says (same layout, same player seed)."""
    setup, _ = make_setup(
        level="9x9x10", first_click="safe", start="corner", players=["pseq"], seed=11
    )
    result = simulate(setup, 12, workers=1)
    for record in result.records:
        player = get_player("pseq")
        game = start_game(setup, record.index, player)
        guesses = 0
        while not game.over:
            guesses += apply_moves(game, player.next_moves(game.view()))
        assert (game.outcome.status == "won", guesses) == (record.wins[0], record.guesses[0])


def test_start_game_on_a_given_layout() -> None:
    """With ``layout`` given, the game is laid on it (not on the seed's draw) and the
    first click is made, as in a simulator run over given layouts."""
    setup = Setup(PRESETS["beginner"], "safe", (0, 0), ("greedy",), seed=11)
    drawn = start_game(setup, 0, get_player("greedy"))
    given = Layout.from_cells(
        9, 9, [(8, 8), (7, 8), (8, 7), (4, 4), (0, 8), (8, 0), (2, 6), (6, 2), (3, 7), (7, 3)]
    )
    game = start_game(setup, 0, get_player("greedy"), given)
    assert sorted(game.mine_cells()) == sorted(given.cells()) != sorted(drawn.mine_cells())
    assert game.view().cells[0] == 0  # the first click opened the corner


def test_apply_moves_stops_at_the_end_and_counts_guesses() -> None:
    game = Game.from_layout(Layout.from_cells(3, 1, [(2, 0)]))
    moves = [Move("open", (0, 0), guess=True), Move("open", (2, 0)), Move("flag", (2, 0))]
    assert apply_moves(game, moves) == 1  # (0, 0) opens (1, 0) and wins: the rest not made
    assert game.outcome.won


def test_a_move_the_game_refuses_is_a_game_error() -> None:
    game = Game.from_layout(Layout.from_cells(3, 3, [(2, 2)]))
    with pytest.raises(GameError, match=r"chord \(1, 1\): the cell is hidden"):
        apply_moves(game, [Move("chord", (1, 1))])
