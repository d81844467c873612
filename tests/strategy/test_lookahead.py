"""``efficient-lookahead``: layouts sampled exactly (consistent, uniform), the guesses and
wins of ``best`` game by game, certain moves that never open a mine, the same game for
the same seed, at most ``candidates * samples`` rollouts an action, and the rollouts'
deductions."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from strategy.test_efficient import fast_best, play

from minesolver import Position
from minesolver.analysis import analyze
from minesolver.game import Game, Level, Move, random_layout
from minesolver.position import HIDDEN
from minesolver.strategy import get_player, player_names
from minesolver.strategy.efficient import EfficientPlayer
from minesolver.strategy.lookahead import LookaheadPlayer, _Rollout, sample_layouts

START = (0, 0)


def _consistent(view: Position, mines: bytearray) -> bool:
    """Whether a layout (1 a mine) explains ``view``: its total, its flags, its digits."""
    if sum(mines) != view.mines:
        return False
    nbrs = view.neighbour_indices()
    for i, v in enumerate(view.cells):
        if v >= 0 and (mines[i] or sum(mines[j] for j in nbrs[i]) != v):
            return False
        if v == -2 and not mines[i]:
            return False
    return True


def _every_layout(view: Position) -> list[bytes]:
    """Every layout consistent with ``view``, by brute force over its closed cells."""
    closed = [i for i, v in enumerate(view.cells) if v < 0]
    out = []
    for chosen in itertools.combinations(closed, view.mines or 0):
        mines = bytearray(len(view.cells))
        for i in chosen:
            mines[i] = 1
        if _consistent(view, mines):
            out.append(bytes(mines))
    return out


def test_registered_over_best() -> None:
    assert "efficient-lookahead" in player_names()
    player = get_player("efficient-lookahead")
    assert isinstance(player, LookaheadPlayer) and isinstance(player, EfficientPlayer)
    assert player.name == "efficient-lookahead"
    assert player.guesser.name == "best"


@pytest.mark.parametrize(
    "text",
    [
        "5x4x4\n1HHHH\nHHHHH\nHHHHH\nHHHHH",
        "5x5x5\n01HHH\n02HHH\n02HHH\n12HHH\nHHHHH",
        "6x4x5\n001HHH\n012HHH\n12FHHH\nHHHHHH",
    ],
)
def test_samples_are_consistent_and_uniform(text: str) -> None:
    """Every draw explains the position, and the draws are uniform over the consistent
    layouts: each layout's frequency within a loose bound of 1/count (2,000 draws), and
    each cell's mine frequency near its exact probability."""
    view = Position.from_text(text)
    every = _every_layout(view)
    draws = sample_layouts(view, 2000, random.Random(3))
    assert all(_consistent(view, d) for d in draws)
    counts = Counter(bytes(d) for d in draws)
    assert set(counts) <= set(every)
    expected = len(draws) / len(every)
    if len(every) <= 200:  # each layout drawn about as often as the others
        assert set(counts) == set(every)
        assert all(abs(c - expected) < 5 * expected**0.5 + 2 for c in counts.values()), counts
    probs = analyze(view).probabilities
    for (x, y), p in probs.items():
        i = y * view.width + x
        share = sum(d[i] for d in draws) / len(draws)
        assert abs(share - float(p)) < 0.05, ((x, y), share, p)


def test_samples_are_deterministic_for_a_seed() -> None:
    view = Position.from_text("5x5x5\n01HHH\n02HHH\n02HHH\n12HHH\nHHHHH")
    assert sample_layouts(view, 20, random.Random(1)) == sample_layouts(view, 20, random.Random(1))


@pytest.mark.parametrize(("level", "games"), [(Level(16, 16, 40), 2), (Level(30, 16, 99), 1)])
def test_same_games_won_and_same_guesses_as_best(level: Level, games: int) -> None:
    """Game by game: the same outcome and the very same guessed cells as best, no mine
    opened on a certain move (``play`` checks), never more clicks than best's plain left
    clicks on these seeds, and some lookahead made."""
    rng = random.Random(21 + level.mines)
    rollouts = 0
    for k in range(games):
        layout = random_layout(level, rng, START, "safe")
        seed = 500 + k
        best = play(fast_best(), layout, seed)
        player = LookaheadPlayer(fast_best())
        eff = play(player, layout, seed)
        assert (eff.won, eff.guesses) == (best.won, best.guesses), f"game {k}"
        if eff.won:
            assert eff.clicks <= best.opens_changed, f"game {k}"
        rollouts += player.rollouts
    assert rollouts > 0


class _Counting(LookaheadPlayer):
    """Records the rollouts of each action."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.per_action: list[int] = []

    def next_moves(self, view: Position) -> list[Move]:
        before = self.rollouts
        moves = super().next_moves(view)
        self.per_action.append(self.rollouts - before)
        return moves


def test_the_same_game_for_the_same_seed_and_moves_that_replay() -> None:
    """Two plays of one layout and seed make the same moves, each of which changes the
    board when pushed again; at most candidates * samples rollouts an action."""
    layout = random_layout(Level(16, 16, 40), random.Random(8), START, "safe")
    runs = []
    for _ in range(2):
        player = _Counting(fast_best(), samples=4, candidates=2)
        runs.append(play(player, layout, 3))
        assert 0 < max(player.per_action) <= 2 * 4
    assert runs[0].moves == runs[1].moves
    game = Game.from_layout(layout)
    for move in runs[0].moves:
        assert game.push(move).changed, move


def test_rollout_deductions() -> None:
    """A rollout's digits settle their neighbours: 1s whose mine is known free the other
    cells; with subsets, a 1 over {e, f} inside a 2 over {e, f, g} makes g a mine, which
    settles the rest (without subsets nothing is settled there)."""
    h = HIDDEN
    view = Position(3, 2, (1, 1, 1, h, h, h), 1)
    mines = bytearray(6)
    mines[4] = 1
    r = _Rollout(view.cells, view.neighbour_indices(), set(), {4}, mines)
    r._deduce([0, 1, 2])
    assert r.safe == {3, 5}
    view = Position(4, 2, (1, 2, 1, 1, h, h, h, h), 2)  # mines at e (4) and g (6)
    mines = bytearray(8)
    mines[4] = mines[6] = 1
    for subsets in (False, True):
        r = _Rollout(view.cells, view.neighbour_indices(), set(), set(), mines, None, subsets)
        r._deduce([0, 1, 2, 3])
        assert (r.mines, r.safe) == (({4, 6}, {5, 7}) if subsets else (set(), set()))
