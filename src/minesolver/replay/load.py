"""`load`: read a replay file of any supported format, telling the format by its bytes.

RMV starts ``*rmv``; MVF ``0x11 0x4D``; EVF's first byte is its version, 0 to 4;
anything else is tried as AVF, whose first byte is Arbiter's version. A file's extension,
when it names one of the four formats, decides instead. Files over :data:`MAX_BYTES`
are refused before they are read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from minesolver.replay.avf import read_avf
from minesolver.replay.errors import ReplayFormatError
from minesolver.replay.evf import read_evf
from minesolver.replay.mvf import read_mvf
from minesolver.replay.record import Format, Replay
from minesolver.replay.rmv import read_rmv

__all__ = ["MAX_BYTES", "READERS", "load", "sniff"]

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


def load(source: str | os.PathLike[str] | bytes, fmt: Format | None = None) -> Replay:
    """Read a replay from a path or from its bytes.

    ``fmt`` forces a format; otherwise a path's extension (``.avf``, ``.rmv``, ``.evf``,
    ``.mvf``) or else the bytes decide. Raises :class:`ReplayFormatError` (a
    ``ValueError``) naming the byte offset of anything unreadable, ``OSError`` when the
    file cannot be opened.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
    else:
        path = Path(source)
        ext = path.suffix.lower().lstrip(".")
        if fmt is None and ext in READERS:
            fmt = ext
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ReplayFormatError(
                fmt or "replay", MAX_BYTES, f"a file of at most {MAX_BYTES} bytes", f"it has {size}"
            )
        data = path.read_bytes()
    if len(data) > MAX_BYTES:
        raise ReplayFormatError(
            fmt or "replay", MAX_BYTES, f"at most {MAX_BYTES} bytes", f"there are {len(data)}"
        )
    return READERS[fmt or sniff(data)](data)
