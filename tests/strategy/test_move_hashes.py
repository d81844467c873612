"""The players' moves on fixed games are those recorded in ``tests/data/moves/``.

Each line of a known-answer file is one player on one level: the SHA-256 of every move it
made (kind, cell, guess flag) over games ``0 .. n-1`` of a seeded run, with the wins.
A refactoring that changes any decision of any player changes a hash. The native players
and their Python reference (``greedy`` and ``greedy-py``, ``pseq`` and ``pseq-py``) are
held to the same recorded line. After an intended
change of play, regenerate with ``python tests/strategy/test_move_hashes.py --write``
and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from minesolver.simulate import apply_moves, make_setup, start_game
from minesolver.strategy import Player, get_player
from minesolver.strategy.native import NativeBest

KNOWN = Path(__file__).resolve().parents[1] / "data" / "moves" / "moves.json"

CASES = [
    # (level, player, games, seed)
    ("expert", "greedy", 30, 11),
    ("expert", "pseq", 20, 11),
    ("expert", "best", 40, 11),
    ("intermediate", "best", 60, 12),
    ("beginner", "best", 80, 13),
    ("beginner", "pseq", 60, 13),
]


def play(
    level: str, player: str, games: int, seed: int, make: Callable[[], Player] | None = None
) -> dict[str, object]:
    """The hash of every move ``player`` (or the player ``make`` builds) makes in games
    ``0 .. games-1`` and its wins."""
    setup, _ = make_setup(
        level=level, first_click="safe", start="corner", players=[player], seed=seed
    )
    digest = hashlib.sha256()
    wins = 0
    for index in range(games):
        strategy = make() if make is not None else get_player(player)
        game = start_game(setup, index, strategy)
        while not game.over:
            moves = strategy.next_moves(game.view())
            for move in moves:
                digest.update(f"{move.kind}{move.cell}{int(move.guess)};".encode())
            apply_moves(game, moves, player)
        status = game.outcome.status.value  # "won" or "lost"
        wins += status == "won"
        digest.update(f"|{status}|".encode())
    return {"sha256": digest.hexdigest(), "wins": wins}


REFERENCE = {"greedy": "greedy-py", "pseq": "pseq-py", "best": "best-py"}
"""Native players -> their Python reference, which must make the same moves."""


def key(case: tuple[str, str, int, int]) -> str:
    return "{}/{}/{}/{}".format(*case)


@pytest.mark.parametrize("case", CASES, ids=key)
def test_moves_equal_the_recorded_ones(case: tuple[str, str, int, int]) -> None:
    known = json.loads(KNOWN.read_text())
    assert play(*case) == known[key(case)]


@pytest.mark.parametrize("case", [c for c in CASES if c[1] == "best"], ids=key)
def test_the_native_best_makes_the_same_moves(case: tuple[str, str, int, int]) -> None:
    """``best`` natively (what the simulator plays) against the recorded Python moves."""
    known = json.loads(KNOWN.read_text())
    assert play(*case, make=NativeBest) == known[key(case)]


@pytest.mark.parametrize("case", [c for c in CASES if c[1] in REFERENCE], ids=key)
def test_the_python_reference_makes_the_same_moves(case: tuple[str, str, int, int]) -> None:
    level, player, games, seed = case
    known = json.loads(KNOWN.read_text())
    assert play(level, REFERENCE[player], games, seed) == known[key(case)]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    KNOWN.write_text(json.dumps({key(c): play(*c) for c in CASES}, indent=1) + "\n")
