"""The native ``best`` makes the moves of the Python ``best``: same cells, same reasons
with the same exact numbers, same draws, for every setting of its ingredients (the
endgame search with small budgets too, so that it gives up where the Python one does)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minesolver._native as _native
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
        level="intermediate", first_click="safe", start="corner", players=["greedy"], seed=4
    )
    options = Options(endgame_budget=200)
    played = play_native(setup, NativeBest(options), range(25))
    for index, game in enumerate(played):
        layout, _ = game_layout(setup, index)
        rng = random.Random(derive_seed(setup.seed, index, "player"))
        assert play_game(BestPlayer(options), layout, setup.start, rng) == (
            game.won,
            game.guesses,
        )


def test_the_settings_cross_to_the_core_by_name() -> None:
    """``best``'s settings are a named native value: what goes in comes back by name,
    and a setting the core cannot take is refused when the value is made."""
    options = Options(margin=Fraction(1, 10), latent_weight=Fraction(3, 2), endgame_budget=77)
    settings = NativeBest(options).best_settings
    assert isinstance(settings, _native.BestSettings)
    for field in (
        "fifty", "dead", "dominance", "second", "margin", "max_candidates", "progress_weight",
        "latent", "latent_weight", "latent_missing", "endgame", "endgame_layouts",
        "endgame_budget",
    ):  # fmt: skip
        assert getattr(settings, field) == getattr(options, field), field
    assert isinstance(settings.margin, Fraction)
    with pytest.raises(TypeError):
        _native.BestSettings(fifty=True)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="max_candidates"):
        NativeBest(Options(max_candidates=0))


def test_each_reason_crosses_with_its_own_named_fields() -> None:
    """The core's reasons are named values of the kind the Python reason is made from:
    every guess of a few native games reads its fields by name, and a field of another
    kind is an ``AttributeError``, never a silent zero."""
    player = _native.NativePlayer("best", False, NativeBest(Options(endgame=False)).best_settings)
    kinds: set[str] = set()
    for seed in range(12):
        layout = random_layout(Level(9, 9, 10), random.Random(seed), (0, 0), "safe")
        game = Game.from_layout(layout)
        game.push(Move("open", (0, 0)))
        player.reset()
        player.set_state(list(random.Random(seed).getstate()[1]))
        while not game.over:
            view = game.view()
            moves = player.next_moves(view.raw(), view.width, view.height, 10)
            for move in moves:
                assert move.kind in ("open", "flag") and 0 <= move.cell < 81
                reason = move.reason
                if reason is None:
                    assert not move.guess
                    continue
                kinds.add(reason.kind)
                assert 0 <= reason.probability < 1
                if reason.kind == "safety":
                    assert reason.weighed >= 1 and reason.latent_weight > 0
                    with pytest.raises(AttributeError, match="a safety reason has no tied"):
                        reason.tied  # noqa: B018
                elif reason.kind == "fifty-fifty":
                    assert reason.probability == Fraction(1, 2) and 0 <= reason.other < 81
                    with pytest.raises(AttributeError, match="no score"):
                        reason.score  # noqa: B018
            apply_moves(game, [_game_move(m, view.width) for m in moves])
    assert "safety" in kinds


def _game_move(move: _native.Move, width: int) -> Move:
    return Move(move.kind, (move.cell % width, move.cell // width))
