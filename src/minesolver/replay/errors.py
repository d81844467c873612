"""The replay readers' one error: :class:`ReplayFormatError`, naming the byte.

Its own public module (also exported by :mod:`minesolver.replay`), so that a caller names
it without reaching into the readers' private helpers; ``minesolver.replay._bytes`` still
re-exports it for code that imported it from there.
"""

from __future__ import annotations

from minesolver.errors import MinesolverError

__all__ = ["ReplayFormatError"]


class ReplayFormatError(MinesolverError, ValueError):
    """A replay file that cannot be read: names the format, the byte offset and why.

    :attr:`format` and :attr:`offset` give the format's name and the byte as values.

    The format ``"replay"`` stands for a file that is no replay of any format read.

    >>> str(ReplayFormatError("evf", 12, "the number of mines (2 bytes)", "the file ends"))
    'evf replay, byte 12: expected the number of mines (2 bytes), but the file ends'
    >>> str(ReplayFormatError("replay", 0, "a replay (AVF, RMV, EVF or MVF)", "found text"))
    'not a replay, byte 0: expected a replay (AVF, RMV, EVF or MVF), but found text'
    """

    def __init__(self, fmt: str, offset: int, expected: str, found: str) -> None:
        self.format = fmt
        self.offset = offset
        self._parts = (fmt, offset, expected, found)
        what = "not a replay" if fmt == "replay" else f"{fmt} replay"
        super().__init__(f"{what}, byte {offset}: expected {expected}, but {found}")

    def __reduce__(self) -> tuple[type[ReplayFormatError], tuple[str, int, str, str]]:
        """Pickled with its parts (a worker process may send it to its parent)."""
        return type(self), self._parts
