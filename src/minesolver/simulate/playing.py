"""One game: the first click, then the player's moves pushed until the game ends.

The first click, at ``start``, is made by the simulator, not the player; ``guesses``
counts the player's moves that were not certain (``Move.guess``). The player gets only
:meth:`Game.view <minesolver.game.Game.view>` positions. Cost: the player's own, plus
O(cells opened) per move and an O(cells) view per round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from minesolver.game import Game, Layout, Move
from minesolver.position import Cell
from minesolver.simulate.config import Setup, SimulationError
from minesolver.simulate.seeds import derive_seed, game_layout
from minesolver.strategy import Player

__all__ = ["apply_moves", "play_game", "start_game"]


def play_game(player: Player, layout: Layout, start: Cell, rng: random.Random) -> tuple[bool, int]:
    """Play one game on ``layout``: the first click at ``start``, then the player's moves.

    Returns ``(won, guesses)``. The player gets only :meth:`Game.view` positions.
    Raises :class:`SimulationError` when a round of the player's moves changes nothing.
    """
    player.reset(rng)
    game = Game.from_layout(layout)
    game.push(Move("open", start))
    guesses = 0
    while not game.over:
        moves = player.next_moves(game.view())
        guesses += apply_moves(game, moves, player.name)
    return game.outcome.won, guesses


def apply_moves(game: Game, moves: Sequence[Move], player: str = "player") -> int:
    """Push ``moves`` in order until the game ends; returns how many were guesses.

    Raises :class:`SimulationError` when none of them changes the board (a player that
    would otherwise loop forever), and :class:`~minesolver.game.GameError` for a move
    the game refuses (:meth:`Game.push <minesolver.game.Game.push>`).
    """
    changed = False
    guesses = 0
    for move in moves:
        if game.over:
            break
        guesses += move.guess
        changed |= game.push(move).changed
    if not changed:
        raise SimulationError(f"player {player!r} made no progress with moves {moves!r}")
    return guesses


def start_game(setup: Setup, index: int, player: Player, layout: Layout | None = None) -> Game:
    """Game ``index`` of a run with its first click made, and ``player`` reset with the
    game's player seed: the game :func:`run_batch` plays, for tools that follow it move
    by move (``benchmarks/bench_losses.py``, ``bench_regret.py``). ``layout`` is the
    game's layout in a run over given layouts (else it is drawn from the seed)."""
    if layout is None:
        layout, _ = game_layout(setup, index)
    player.reset(random.Random(derive_seed(setup.seed, index, "player")))
    game = Game.from_layout(layout)
    game.push(Move("open", setup.start))
    return game
