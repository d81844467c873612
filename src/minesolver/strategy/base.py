"""What a player is: something that looks at a :class:`Position` and names its moves.

A player never sees the game, only the position the game shows it (a value object with
no reference back to the layout): the separation is structural, not a convention.
A :class:`Player` instance plays one game at a time and may keep caches between its
moves (analysis of components a move did not touch, say); :meth:`Player.reset` is
called before each new game. All its randomness comes from the ``rng`` it is given.
"""

from __future__ import annotations

import random
from typing import Protocol

from minesolver.game.move import Move, MoveKind, Reason
from minesolver.position import Position

__all__ = ["Move", "MoveKind", "Player", "Reason"]


class Player(Protocol):
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
