"""What a player is: something that looks at a :class:`Position` and names its moves.

A player never sees the game, only the position the game shows it (a value object with
no reference back to the layout): the separation is structural, not a convention.
A :class:`Strategy` instance plays one game at a time and may keep caches between its
moves (analysis of components a move did not touch, say); :meth:`Strategy.reset` is
called before each new game. All its randomness comes from the ``rng`` it is given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, Protocol

from minesolver.position import Cell, Position

__all__ = ["Move", "MoveKind", "Strategy"]

MoveKind = Literal["open", "flag", "chord"]


@dataclass(frozen=True, slots=True)
class Move:
    """One action on the board: open a cell, flag it, or chord on a digit.

    ``guess`` is true when the move is not certain to be safe (its probability of being a
    mine, ``risk``, is above 0); ``reason`` says why it was chosen, for people.
    """

    kind: MoveKind
    cell: Cell
    guess: bool = False
    risk: float = 0.0
    reason: str = ""


class Strategy(Protocol):
    """A player. ``name`` is the registry name (``greedy``, ``pseq``, ``best``)."""

    name: str

    def reset(self, rng: random.Random) -> None:
        """Start a new game; all later randomness comes from ``rng``."""
        ...

    def next_moves(self, view: Position) -> list[Move]:
        """Moves to make now, in order (at least one while the game is on).

        Several certain moves may be returned at once (one analysis serves them all);
        the game applies them in order and asks again. A guess, if any, comes last.
        """
        ...
