"""The game's errors: one ``ValueError`` family, so a caller catches :class:`GameError`.

Every message says where (the cell, the level text, the file and its byte offset or line)
and why.
"""

from __future__ import annotations

from minesolver.errors import MinesolverError

__all__ = ["GameError", "LayoutFormatError", "LevelError"]


class GameError(MinesolverError, ValueError):
    """Bad input to the game: a level, a cell, a move, a layout or a layout file."""


class LevelError(GameError):
    """A level that cannot be played: malformed text or more mines than fit."""


class LayoutFormatError(GameError):
    """A layout file that cannot be read; the message names the file and where."""
