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

__all__ = ["MinesolverError", "plural"]


class MinesolverError(Exception):
    """An error of the library; its message says where (a line and column, a byte offset,
    a cell) and why. Every concrete error also derives from ``ValueError`` (or, for a
    search past its budget, ``RuntimeError``)."""


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one: the error
    messages say "1 mine" and "2 mines", never "1 mines". Regular plurals only (``s``
    added). O(1).

    >>> plural(1, "mine"), plural(0, "cell"), plural(3, "more mine")
    ('1 mine', '0 cells', '3 more mines')
    """
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
