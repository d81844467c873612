"""No-guess boards: layouts the exact core solves from the first click without guessing.

:func:`solves_without_guessing` plays a layout opening only the cells the exact analysis
proves safe (and flagging the proven mines) until the game is won or no cell is certain.
:func:`no_guess_layout` draws layouts as :func:`~minesolver.game.random_layout` does until
one passes, so the boards are uniform among the no-guess layouts of the first-click rule;
it returns how many were drawn, for the rejection rate.

Cost: one exact analysis per round of certain moves, for each layout drawn.
"""

from __future__ import annotations

import random

from minesolver.analysis import analyze
from minesolver.game import FirstClick, Game, GameError, Layout, Level, Move, random_layout
from minesolver.position import Cell

__all__ = ["DEFAULT_MAX_ATTEMPTS", "NoGuessError", "no_guess_layout", "solves_without_guessing"]

DEFAULT_MAX_ATTEMPTS = 100_000


class NoGuessError(GameError):
    """No no-guess layout found within the allowed number of draws."""


def solves_without_guessing(layout: Layout, start: Cell) -> bool:
    """Whether opening ``start`` and then only certain cells wins the game."""
    game = Game.from_layout(layout)
    game.push(Move("open", start))
    while not game.over:
        analysis = analyze(game.view())
        if not analysis.safe:
            return False
        moves = [Move("flag", cell) for cell in analysis.certain_mines]
        moves += [Move("open", cell) for cell in analysis.safe]
        for move in moves:
            if game.over:
                break
            game.push(move)
    return game.outcome.won


def no_guess_layout(
    level: Level,
    rng: random.Random,
    start: Cell,
    rule: FirstClick = "safe",
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> tuple[Layout, int]:
    """A random no-guess layout and the number of layouts drawn to find it (>= 1).

    Raises :class:`NoGuessError` after ``max_attempts`` rejected draws.
    """
    for attempt in range(1, max_attempts + 1):
        layout = random_layout(level, rng, start, rule)
        if solves_without_guessing(layout, start):
            return layout, attempt
    raise NoGuessError(
        f"level {level}: no no-guess layout with the first click at {start} ({rule!r}) "
        f"in {max_attempts} draws"
    )
