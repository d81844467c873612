"""What the command line reads: a position from a file or standard input, a screenshot.

The command line's input files are told apart by their content (an image by its first
bytes, else its suffix), so that every one is read by the reader it needs and a file of
the wrong kind is refused with one line saying what it is. Each function costs O(bytes
read); a position file is read no further than the parser's limit.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

from minesolver.position import MAX_TEXT, Position

__all__ = ["CliError", "fail", "is_image", "read_image", "read_position"]


class CliError(Exception):
    """A user error to report as ``error: …`` with exit status 2."""


def fail(message: str) -> NoReturn:
    """Stop the command with ``error: message`` and exit status 2."""
    raise CliError(message)


def read_position(source: str) -> Position:
    """Read a position from a file path or ``-`` (standard input): no more than the
    parser's limit and a byte-order mark and one character, so that a huge file is refused
    without being read whole."""
    if source == "-":
        if sys.stdin.isatty():
            sys.stderr.write(
                "reading a position from standard input (end with Ctrl-D; "
                "or give a file: minesolver solve FILE)\n"
            )
        text = sys.stdin.read(MAX_TEXT + 2)
    else:
        try:
            with Path(source).open(encoding="utf-8") as stream:
                text = stream.read(MAX_TEXT + 2)
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            fail(f"cannot read {source}: {reason}")
    return Position.from_text(text)


_IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"BM", b"RIFF", b"II*\x00", b"MM\x00*")
_IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff"}


def is_image(source: str) -> bool:
    """Whether ``source`` names an image file: by its first bytes, else by its suffix."""
    if source == "-":
        return False
    try:
        with Path(source).open("rb") as stream:
            head = stream.read(8)
    except OSError:
        return Path(source).suffix.lower() in _IMAGE_SUFFIXES
    return head.startswith(_IMAGE_MAGIC) or Path(source).suffix.lower() in _IMAGE_SUFFIXES


def read_image(source: str, mines: int | None) -> Position:
    """The position a screenshot shows; a total of mines unknown is an error that says
    to give ``--mines``."""
    from minesolver.vision import read_board

    position = read_board(source, mines=mines)
    if position.mines is None:
        fail(
            f"the board read is {position.width}x{position.height}, not a standard level: "
            "give its total of mines with --mines N"
        )
    return position
