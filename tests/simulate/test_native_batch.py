"""Batches played in the native core give the Python path's results: the same wins and
guesses per game, and (traced) the very moves recorded in ``tests/data/moves``."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from minesolver.game import Level, random_layout
from minesolver.simulate import GameRecord, Setup, make_setup, simulate
from minesolver.simulate.native import play_native
from minesolver.strategy.native import NativePlayer

KNOWN = Path(__file__).resolve().parents[1] / "data" / "moves" / "moves.json"


def outcomes(records: list[GameRecord]) -> list[tuple[int, tuple[bool, ...], tuple[int, ...]]]:
    return [(r.index, r.wins, r.guesses) for r in records]


@pytest.mark.parametrize(
    ("level", "rule", "start", "games"),
    [
        ("beginner", "safe", (0, 0), 60),
        ("beginner", "opening", (4, 4), 40),
        ("beginner", "none", (2, 3), 40),
        ("expert", "safe", (0, 0), 12),
        ("8x5x9", "opening", (7, 4), 40),
    ],
)
def test_native_batches_equal_the_python_games(
    level: str, rule: str, start: tuple[int, int], games: int
) -> None:
    setup, _ = make_setup(
        level=level,
        first_click=rule,
        start=f"{start[0]},{start[1]}",
        players=["greedy", "greedy-py", "pseq", "pseq-py"],
        seed=21,
    )
    records = simulate(setup, games, batch_size=7).records
    for r in records:  # native and Python side by side in each record
        assert r.wins[0] == r.wins[1] and r.guesses[0] == r.guesses[1]
        assert r.wins[2] == r.wins[3] and r.guesses[2] == r.guesses[3]
        assert all(s >= 0 for s in r.seconds)


def test_given_layouts_and_no_guess_boards(beginner: Setup) -> None:
    import random

    from minesolver.simulate import derive_seed

    drawn = [
        random_layout(beginner.level, random.Random(derive_seed(3, i, "x")), (0, 0))
        for i in range(20)
    ]
    both = replace(beginner, players=("greedy", "greedy-py"))
    given = simulate(both, 20, layouts=drawn).records
    assert all(r.wins[0] == r.wins[1] and r.guesses[0] == r.guesses[1] for r in given)
    no_guess = simulate(replace(both, no_guess=True), 6).records
    assert all(r.wins == (True, True) and r.draws >= 1 for r in no_guess)


def test_traced_batches_make_the_recorded_moves() -> None:
    known = json.loads(KNOWN.read_text())
    for level, player, games, seed in [
        ("expert", "greedy", 30, 11),
        ("expert", "pseq", 20, 11),
        ("beginner", "pseq", 60, 13),
    ]:
        setup, _ = make_setup(
            level=level, first_click="safe", start="corner", players=[player], seed=seed
        )
        width = setup.level.width
        played = play_native(setup, NativePlayer(player), range(games), trace=True)
        digest = hashlib.sha256()
        for game in played:
            for move in game.moves:
                index = move.cell
                digest.update(
                    f"{move.kind}{(index % width, index // width)}{int(move.guess)};".encode()
                )
            digest.update(f"|{'won' if game.won else 'lost'}|".encode())
        wins = sum(g.won for g in played)
        assert {"sha256": digest.hexdigest(), "wins": wins} == known[
            f"{level}/{player}/{games}/{seed}"
        ]


def test_a_run_that_cannot_be_played_is_refused() -> None:
    from minesolver.simulate import SimulationError

    setup = Setup(Level(3, 3, 9), "safe", (0, 0), ("greedy",))
    with pytest.raises(SimulationError):
        play_native(setup, NativePlayer("greedy"), range(1))


def test_a_batch_past_its_deadline_is_refused() -> None:
    from minesolver.simulate import SimulationError

    setup = Setup(Level(9, 9, 10), "safe", (0, 0), ("pseq",))
    with pytest.raises(SimulationError, match="time limit"):
        play_native(setup, NativePlayer("pseq"), range(2), deadline=0.0)
    assert len(play_native(setup, NativePlayer("pseq"), range(2), deadline=1e9)) == 2


def test_best_plays_natively_in_the_simulator_with_the_python_results() -> None:
    """The simulator plays ``best`` (and its variants) natively and the Python reference
    ``best-py`` (and its variants) in Python, game by game: the same records."""
    setup, _ = make_setup(
        level="intermediate",
        first_click="safe",
        start="corner",
        players=["best", "best-py", "best-no-endgame", "best-py-no-endgame"],
        seed=8,
    )
    for r in simulate(setup, 30, batch_size=11).records:
        assert r.wins[0] == r.wins[1] and r.guesses[0] == r.guesses[1]
        assert r.wins[2] == r.wins[3] and r.guesses[2] == r.guesses[3]
