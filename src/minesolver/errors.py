"""The base class of the library's errors: ``except MinesolverError`` catches every one.

Each error the library raises derives from :class:`MinesolverError` and from the built-in
class a caller would expect: a ``ValueError`` for bad input (a malformed position, a
replay that cannot be read, an unknown player, a move the game refuses, an input beyond
an engine's limits), a ``RuntimeError`` for a search that ran out of its budget. Either
``except`` keeps working.

This module imports nothing, so that the lowest layer (:mod:`minesolver.position`) can
raise the library's errors too.

>>> from minesolver import MinesolverError, Position, PositionFormatError
>>> issubclass(PositionFormatError, MinesolverError) and issubclass(PositionFormatError, ValueError)
True
>>> try:
...     Position.from_text("2x2x9\\nHH\\nHH")
... except MinesolverError as e:
...     print(type(e).__name__, e)
PositionFormatError line 1: 9 mines do not fit a 2x2 board
"""

from __future__ import annotations

__all__ = ["MinesolverError"]


class MinesolverError(Exception):
    """An error of the library; its message says where (a line and column, a byte offset,
    a cell) and why. Every concrete error also derives from ``ValueError`` (or, for a
    search past its budget, ``RuntimeError``)."""
