"""`load`: read a replay file of any supported format, telling the format by its bytes.

RMV starts ``*rmv``; MVF ``0x11 0x4D``; EVF's first byte is its version, 0 to 4; AVF's
sixth byte is its level, 3 to 6 (its first, Arbiter's version, varies). The content
decides, whatever the file is called: a file whose bytes carry none of these signatures
(text, an image, other binary data) is refused as no replay, before any reader tries it.
A file's extension decides only for an empty file. Files over :data:`MAX_BYTES` are
refused before they are read.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable
from pathlib import Path

from minesolver.replay.avf import read_avf
from minesolver.replay.errors import ReplayFormatError
from minesolver.replay.evf import read_evf
from minesolver.replay.mvf import read_mvf
from minesolver.replay.record import Format, Replay
from minesolver.replay.rmv import read_rmv

__all__ = ["MAX_BYTES", "READERS", "identify", "load", "sniff"]

MAX_BYTES = 64 * 1024 * 1024
"""The largest replay file read (real ones are under a megabyte)."""

READERS: dict[Format, Callable[[bytes], Replay]] = {
    "avf": read_avf,
    "rmv": read_rmv,
    "evf": read_evf,
    "mvf": read_mvf,
}


def sniff(data: bytes) -> Format:
    """The format the bytes look like.

    >>> sniff(b"*rmv\\x00\\x02"), sniff(b"\\x11\\x4d"), sniff(b"\\x04"), sniff(b"\\x22")
    ('rmv', 'mvf', 'evf', 'avf')
    """
    if data.startswith(b"*rmv"):
        return "rmv"
    if data.startswith(b"\x11\x4d"):
        return "mvf"
    if data and data[0] <= 4:
        return "evf"
    return "avf"


def identify(data: bytes) -> Format | None:
    """The format whose signature the bytes carry (:func:`sniff`'s, with AVF's level byte
    checked), or ``None`` for bytes that are no replay: text, an image, other data. O(1).

    >>> identify(b"*rmv\\x00\\x02"), identify(b"\\x34\\x11\\x1e\\x19\\x04\\x03")
    ('rmv', 'avf')
    >>> identify(b"5x5x5\\nH2HHH"), identify(b"\\x89PNG\\r\\n\\x1a\\n")
    (None, None)
    """
    if not data or _is_text(data):
        return None
    found = sniff(data)
    if found == "avf" and (len(data) < 6 or data[5] not in _AVF_LEVELS):
        return None
    return found


_AVF_LEVELS = frozenset({3, 4, 5, 6})


def _is_text(data: bytes) -> bool:
    """Whether the first 4 KiB read as UTF-8 text with no control character but tab, line
    feed, form feed and carriage return: no replay does (each has one in its first six
    bytes)."""
    head = data[:4096]
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return not any((b < 32 and b not in b"\t\n\x0c\r") or b == 127 for b in head)


def load(source: str | os.PathLike[str] | bytes, fmt: Format | None = None) -> Replay:
    """Read a replay from a path or from its bytes.

    ``fmt`` forces a format; otherwise the bytes decide (:func:`identify`), whatever a
    path's extension says, and bytes with no replay's signature are refused as no replay
    (``ReplayFormatError.format`` is then ``"replay"``); an empty file is refused by the
    reader its extension names. Raises :class:`ReplayFormatError` (a ``ValueError``)
    naming the byte offset of anything unreadable, ``OSError`` when the file cannot be
    opened.
    """
    named: Format | None = None
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
    else:
        path = Path(source)
        ext = path.suffix.lower().lstrip(".")
        named = ext if ext in READERS else None
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ReplayFormatError(
                fmt or named or "replay",
                MAX_BYTES,
                f"a file of at most {MAX_BYTES} bytes",
                f"it has {size}",
            )
        data = path.read_bytes()
    if len(data) > MAX_BYTES:
        raise ReplayFormatError(
            fmt or "replay", MAX_BYTES, f"at most {MAX_BYTES} bytes", f"there are {len(data)}"
        )
    if fmt is None and data:
        fmt = identify(data)
        if fmt is None:
            found = "found text" if _is_text(data) else f"its first bytes are {data[:8]!r}"
            raise ReplayFormatError("replay", 0, "a replay (AVF, RMV, EVF or MVF)", found)
    return READERS[fmt or named or "avf"](data)
