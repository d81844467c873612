"""The native ``best`` makes the moves of the Python ``best``: same cells, same reasons
with the same exact numbers, same draws, for every setting of its ingredients (the
endgame search with small budgets too, so that it gives up where the Python one does)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver.game import Game, Level, Move, random_layout
from minesolver.simulate import apply_moves
from minesolver.strategy import Player
from minesolver.strategy.best import BestPlayer, Options
from minesolver.strategy.native import NativeBest
from minesolver.strategy.reasons import FiftyFifty, Safety


def _play_both(options: Options, level: Level, seed: int, start: tuple[int, int]) -> list[Move]:
    """One game played by the native and the Python player side by side; the guesses."""
    layout = random_layout(level, random.Random(seed), start, "safe")
    players: list[Player] = [NativeBest(options), BestPlayer(options)]
    rngs = [random.Random(seed + 1), random.Random(seed + 1)]
    games = [Game.from_layout(layout), Game.from_layout(layout)]
    for player, rng, game in zip(players, rngs, games, strict=True):
        player.reset(rng)
        game.push(Move("open", start))
    guesses = []
    while not games[0].over:
        native, python = (p.next_moves(g.view()) for p, g in zip(players, games, strict=True))
        assert native == python
        assert rngs[0].getstate() == rngs[1].getstate()
        guesses += [m for m in native if m.guess]
        for game, moves in zip(games, (native, python), strict=True):
            apply_moves(game, moves)
    assert games[0].outcome == games[1].outcome
    return guesses


@settings(max_examples=60, deadline=None)
@given(
    st.integers(4, 12),
    st.integers(4, 10),
    st.floats(0.08, 0.3),
    st.integers(0, 2**64 - 1),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from([Fraction(0), Fraction(1, 20), Fraction(1, 10)]),
    st.sampled_from([1, 3, 12]),
    st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1, 2)]),
    st.booleans(),
    st.sampled_from([Fraction(1, 2), Fraction(1)]),
    st.sampled_from([0, 2, 3]),
    st.booleans(),
    st.sampled_from([(1000, 20_000), (50, 20_000), (1000, 3), (5000, 40)]),
)
def test_native_best_moves_as_the_python_one(
    width: int,
    height: int,
    density: float,
    seed: int,
    fifty: bool,
    dead: bool,
    dominance: bool,
    second: bool,
    margin: Fraction,
    most: int,
    weight: Fraction,
    latent: bool,
    latent_weight: Fraction,
    latent_missing: int,
    endgame: bool,
    search: tuple[int, int],
) -> None:
    options = Options(
        endgame=endgame,
        endgame_layouts=search[0],
        endgame_budget=search[1],
        latent=latent,
        latent_weight=latent_weight,
        latent_missing=latent_missing,
        fifty=fifty,
        dead=dead,
        dominance=dominance,
        second=second,
        margin=margin,
        max_candidates=most,
        progress_weight=weight,
    )
    mines = max(1, int(width * height * density))
    _play_both(options, Level(width, height, mines), seed, (0, 0))


def test_expert_and_beginner_games_with_fifty_fiftys_and_latent_weights() -> None:
    options = Options(endgame=False)  # with the search on, it takes most of those guesses
    guesses: list[Move] = []
    for seed in range(3):
        guesses += _play_both(options, Level(30, 16, 99), 500 + seed, (0, 0))
    for seed in range(40):
        guesses += _play_both(options, Level(9, 9, 10), 900 + seed, (0, 0))
    assert any(isinstance(m.reason, FiftyFifty) for m in guesses)  # the 50/50 path ran
    weights = [m.reason.latent_weight for m in guesses if isinstance(m.reason, Safety)]
    assert any(w > 1 for w in weights)  # and the latent weight counted


def test_a_native_batch_of_best_plays_the_python_games() -> None:
    from minesolver.simulate import derive_seed, make_setup, play_game
    from minesolver.simulate.native import play_native
    from minesolver.simulate.seeds import game_layout

    setup, _ = make_setup(
        level="intermediate", first_click="safe", start="corner", strategies=["greedy"], seed=4
    )
    options = Options(endgame_budget=200)
    played = play_native(setup, NativeBest(options), range(25))
    for index, (won, guesses, _, _) in enumerate(played):
        layout, _ = game_layout(setup, index)
        rng = random.Random(derive_seed(setup.seed, index, "player"))
        assert play_game(BestPlayer(options), layout, setup.start, rng) == (won, guesses)
