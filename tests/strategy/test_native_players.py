"""The native players make the Python players' moves: same cells, same order, same
guesses, same typed reasons with the same exact numbers, and leave the game's generator
where the Python player leaves it, on any seed and board."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver import Position
from minesolver.game import Game, Level, Move, random_layout
from minesolver.position import InconsistentPosition
from minesolver.result import MineCountUnknown
from minesolver.simulate import apply_moves
from minesolver.strategy import Player, get_player
from minesolver.strategy.reasons import Certain, Lowest


def _play_both(name: str, level: Level, seed: int, start: tuple[int, int]) -> int:
    """Play one game with ``name`` and ``name-py`` side by side; the rounds played."""
    layout = random_layout(level, random.Random(seed), start, "safe")
    players: list[Player] = [get_player(name), get_player(f"{name}-py")]
    rngs = [random.Random(seed + 1), random.Random(seed + 1)]
    games = [Game.from_layout(layout), Game.from_layout(layout)]
    for player, rng, game in zip(players, rngs, games, strict=True):
        player.reset(rng)
        game.push(Move("open", start))
    rounds = 0
    while not games[0].over:
        native, python = (p.next_moves(g.view()) for p, g in zip(players, games, strict=True))
        assert native == python
        assert rngs[0].getstate() == rngs[1].getstate()
        for game, moves in zip(games, (native, python), strict=True):
            apply_moves(game, moves)
        rounds += 1
    assert games[0].outcome == games[1].outcome
    return rounds


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["greedy", "pseq"]),
    st.integers(4, 12),
    st.integers(4, 10),
    st.floats(0.08, 0.3),
    st.integers(0, 2**64 - 1),
    st.data(),
)
def test_native_and_python_players_move_alike(
    name: str, width: int, height: int, density: float, seed: int, data: st.DataObject
) -> None:
    mines = max(1, int(width * height * density))
    start = (data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
    _play_both(name, Level(width, height, mines), seed, start)


@pytest.mark.parametrize("name", ["greedy", "pseq"])
def test_expert_games_move_alike(name: str) -> None:
    for seed in range(3):
        _play_both(name, Level(30, 16, 99), 1000 + seed, (0, 0))


def test_reasons_and_errors() -> None:
    player = get_player("greedy")
    moves = player.next_moves(Position.from_text("3x1x1\n1HH"))
    assert [m.reason for m in moves] == [Certain(mine=False), Certain(mine=True)]
    guess = player.next_moves(Position.from_text("3x2x1\nHHH\nHHH"))[-1]
    assert guess.guess and isinstance(guess.reason, Lowest) and guess.risk == 1 / 6
    with pytest.raises(InconsistentPosition):
        player.next_moves(Position.from_text("2x1x1\n2H"))
    with pytest.raises(MineCountUnknown):
        player.next_moves(Position.from_text("HH\nH1"))


@pytest.mark.parametrize("name", ["greedy", "pseq", "best"])
def test_a_passed_deadline_stops_the_native_move(name: str) -> None:
    from minesolver.engines import EngineLimitExceeded
    from minesolver.strategy.native import NativePlayer

    position = Position.from_text("3x2x1\nHHH\nHHH")
    with pytest.raises(EngineLimitExceeded, match="time limit"):
        NativePlayer(name, deadline=0.0).next_moves(position)
    # without a deadline (and with an ample one) the same player moves
    assert NativePlayer(name).next_moves(position)[-1].guess
    assert NativePlayer(name, deadline=1e9).next_moves(position)[-1].guess
