"""The registry and the ``greedy`` player on crafted positions."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from minesolver.position import Position
from minesolver.strategy import PlayerError, get_player, player_names
from minesolver.strategy.greedy import GreedyPlayer
from minesolver.strategy.native import NativeGreedy


def test_registry_names_and_errors() -> None:
    assert {"greedy", "pseq", "best"} <= set(player_names())
    player = get_player(" Greedy ")
    assert isinstance(player, NativeGreedy)  # decided natively
    assert isinstance(get_player("greedy-py"), GreedyPlayer)  # the Python reference
    assert get_player("greedy") is not player  # a fresh instance each time
    with pytest.raises(PlayerError, match="unknown player 'nope'"):
        get_player("nope")


def test_opens_every_certain_cell_in_one_call() -> None:
    # the design's known answer: (2,1), (2,3), (3,3), (3,4) are certainly safe
    pos = Position.from_text("5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH")
    player = GreedyPlayer()
    player.reset(random.Random(0))
    moves = player.next_moves(pos)
    assert [(m.kind, m.cell) for m in moves] == [
        ("open", (2, 1)),
        ("open", (2, 3)),
        ("open", (3, 3)),
        ("open", (3, 4)),
    ]
    assert not any(m.guess for m in moves)


def test_flags_certain_mines_then_guesses_last() -> None:
    # the 1 sees only (1,0): a mine; the other mine is (2,0) or (3,0), 1/2 each
    pos = Position.from_text("4x1x2\n1HHH")
    player = GreedyPlayer()
    player.reset(random.Random(3))
    moves = player.next_moves(pos)
    assert (moves[0].kind, moves[0].cell) == ("flag", (1, 0))
    assert moves[-1].kind == "open" and moves[-1].guess
    assert moves[-1].cell in {(2, 0), (3, 0)}
    assert moves[-1].risk == 0.5
    assert len(moves) == 2


def test_guesses_the_lowest_probability_with_random_ties() -> None:
    # 3 mines; the 1 at (0,0) puts one among its 3 neighbours (1/3 each), two among the
    # 5 other cells (2/5 each): the guess is one of the three neighbours
    pos = Position.from_text("3x3x3\n1HH\nHHH\nHHH")
    neighbours = {(1, 0), (0, 1), (1, 1)}
    chosen = set()
    player = GreedyPlayer()
    for seed in range(30):
        player.reset(random.Random(seed))
        (move,) = player.next_moves(pos)
        assert move.guess and move.cell in neighbours
        assert Fraction(move.risk).limit_denominator(10) == Fraction(1, 3)
        chosen.add(move.cell)
    assert chosen == neighbours  # ties are broken at random, not always the same way
    player.reset(random.Random(5))
    first = player.next_moves(pos)
    player.reset(random.Random(5))
    assert player.next_moves(pos) == first  # and reproducibly from the rng
