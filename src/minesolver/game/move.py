"""A move: one action on the board, the unit :meth:`Game.push <minesolver.game.Game.push>`
applies and a player returns.

It lives with the game (not with the players) because the game is what gives a move its
meaning; :mod:`minesolver.strategy` re-exports the same class, so players name it from
there as before.

>>> Move("open", (3, 4))
Move(kind='open', cell=(3, 4), guess=False, risk=0.0, reason='')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from minesolver.game.errors import GameError
from minesolver.position import Cell

__all__ = ["MOVE_KINDS", "Move", "MoveKind", "move_kind"]

MoveKind = Literal["open", "flag", "unflag", "chord"]
"""What a move does: open a cell, flag it, remove its flag, or chord on a digit."""
MOVE_KINDS: tuple[str, ...] = get_args(MoveKind)


def move_kind(text: str) -> MoveKind:
    """``text`` as a :data:`MoveKind`, or :class:`~minesolver.game.GameError` naming the
    kinds (for moves that arrive as text: a web request, a command line).

    >>> move_kind("chord")
    'chord'
    """
    if text not in MOVE_KINDS:
        raise GameError(f"move kind {text!r}: expected one of {', '.join(MOVE_KINDS)}")
    return text  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Move:
    """One action on the board: open a cell, flag or unflag it, or chord on a digit.

    ``guess`` is true when the move is not certain to be safe (its probability of being a
    mine, ``risk``, is above 0); ``reason`` says why it was chosen, for people. The game
    reads only ``kind`` and ``cell``.
    """

    kind: MoveKind
    cell: Cell
    guess: bool = False
    risk: float = 0.0
    reason: str = ""
