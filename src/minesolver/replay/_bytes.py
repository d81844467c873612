"""Reading a replay's bytes: bounds-checked integers and strings.

Every read names what it expects; reading past the end, or finding a value no replay
can hold, raises :class:`ReplayFormatError` with the byte offset. The readers never index
the data directly, so a truncated or corrupted file cannot raise anything else.

Cost: each read is O(its length); string searches use ``bytes.find`` (linear, in C).
"""

from __future__ import annotations

from typing import NoReturn

from minesolver.replay.errors import ReplayFormatError

__all__ = ["ByteReader", "ReplayFormatError", "decode_name"]


class ByteReader:
    """A cursor over a replay's bytes; big-endian unless a method says otherwise."""

    __slots__ = ("data", "fmt", "pos")

    def __init__(self, data: bytes, fmt: str, pos: int = 0) -> None:
        self.data = data
        self.fmt = fmt
        self.pos = pos

    def fail(self, expected: str, found: str, offset: int | None = None) -> NoReturn:
        """Raise :class:`ReplayFormatError` at ``offset`` (default: the cursor)."""
        raise ReplayFormatError(self.fmt, self.pos if offset is None else offset, expected, found)

    def take(self, n: int, what: str) -> bytes:
        """The next ``n`` bytes."""
        if n < 0 or self.pos + n > len(self.data):
            left = max(len(self.data) - self.pos, 0)
            self.fail(f"{what} ({n} bytes)", f"the file ends after {left} more")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def skip(self, n: int, what: str) -> None:
        """Skip ``n`` bytes that must be present."""
        self.take(n, what)

    def uint(self, n: int, what: str) -> int:
        """An unsigned big-endian integer of ``n`` bytes."""
        return int.from_bytes(self.take(n, what), "big")

    def u8(self, what: str) -> int:
        return self.uint(1, what)

    def u16(self, what: str) -> int:
        return self.uint(2, what)

    def i16(self, what: str) -> int:
        return int.from_bytes(self.take(2, what), "big", signed=True)

    def count(self, n: int, limit: int, what: str) -> None:
        """Refuse a file with more than ``limit`` records (``n`` read so far)."""
        if n > limit:
            self.fail(f"at most {limit} {what}", "there are more")

    def until(self, end: bytes, what: str) -> bytes:
        """The bytes up to ``end`` (consumed, not returned)."""
        at = self.data.find(end, self.pos)
        if at < 0:
            self.fail(f"{what} ending with {end!r}", "the file ends first")
        out = self.data[self.pos : at]
        self.pos = at + len(end)
        return out

    def find(self, needle: bytes, what: str) -> int:
        """Move past the next occurrence of ``needle``; returns where it started."""
        at = self.data.find(needle, self.pos)
        if at < 0:
            self.fail(what, "the file ends first")
        self.pos = at + len(needle)
        return at

    def ascii_int(self, raw: bytes, what: str, offset: int) -> int:
        """A decimal number written in ASCII digits (at most 9 of them)."""
        if not raw.isdigit() or len(raw) > 9:
            self.fail(what, f"found {raw[:20]!r}", offset)
        return int(raw)


def decode_name(raw: bytes, *, legacy: bool = True) -> str:
    """Text from a replay: UTF-8 when valid; else, for ``legacy`` formats written before
    UTF-8, GB18030 (Chinese clones) or Windows-1252; else UTF-8 with replacement
    characters. Never raises.

    >>> decode_name("王".encode("gb18030"))
    '王'
    >>> decode_name(b"ab\\xff", legacy=False)
    'ab\\ufffd'
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if legacy:
        for codec in ("gb18030", "cp1252"):
            try:
                return raw.decode(codec)
            except UnicodeDecodeError:
                continue
    return raw.decode("utf-8", errors="replace")
