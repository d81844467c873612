"""The players' error: a leaf module, so that the registry and every player raise it
without importing each other."""

from __future__ import annotations

from minesolver.errors import MinesolverError

__all__ = ["PlayerError"]


class PlayerError(MinesolverError, ValueError):
    """An unknown player name, a bad setting of one, or a player whose module cannot be
    loaded; the message names the player and what is wrong (the known names, for an
    unknown one)."""
