"""Players, selectable by name: ``greedy``, ``pseq``, ``best`` (see :mod:`.base`)."""

from minesolver.strategy.base import Move, MoveKind, Strategy

__all__ = ["Move", "MoveKind", "Strategy"]
