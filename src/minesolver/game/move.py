"""A move: one action on the board, the unit :meth:`Game.push <minesolver.game.Game.push>`
applies and a player returns.

It lives with the game (not with the players) because the game is what gives a move its
meaning; :mod:`minesolver.strategy` re-exports the same class, so players name it from
there as before.

A move may carry why a player chose it: a :class:`Reason`, a value with the numbers the
choice rests on. Only the base class lives here, beside :class:`Move`, because the game
(layer 6) must name the type of ``Move.reason`` while the players are a layer above it;
the players' own reasons (``Lowest``, ``SecondMove``, ``Endgame``, ...) subclass it in
:mod:`minesolver.strategy.reasons`, so no import points up the layers. The game never
reads a reason; ``str(reason)`` is its technical text (scores and counts, for logs and
machines) and the faces put it in words by its type (:func:`minesolver.ui.words.plain_reason`);
nobody parses the text.

>>> Move("open", (3, 4))
Move(kind='open', cell=(3, 4), guess=False, risk=0.0, reason=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from minesolver.game.errors import GameError
from minesolver.position import Cell

__all__ = ["MOVE_KINDS", "Move", "MoveKind", "Reason", "move_kind"]

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


class Reason:
    """Why a player chose a move: the base of the typed reasons.

    A subclass is a frozen value holding the numbers the choice rests on, and its
    ``str()`` is the reason's technical text. The built-in players' reasons are in
    :mod:`minesolver.strategy.reasons`; a player of your own may subclass this too (a
    face shows the ``str()`` of a reason it does not know).
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Move:
    """One action on the board: open a cell, flag or unflag it, or chord on a digit.

    ``guess`` is true when the move is not certain to be safe (its probability of being a
    mine, ``risk``, is above 0); ``reason``, when the player gives one, says why it was
    chosen (a :class:`Reason`). The game reads only ``kind`` and ``cell``.
    """

    kind: MoveKind
    cell: Cell
    guess: bool = False
    risk: float = 0.0
    reason: Reason | None = None
