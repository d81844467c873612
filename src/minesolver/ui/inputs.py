"""What the command line reads: a position from a file or standard input, a screenshot.

The command line's input files are told apart by their content (an image by its first
bytes, else its suffix), so that every one is read by the reader it needs and a file of
the wrong kind is refused with one line saying what it is. Each function costs O(bytes
read); a position file is read no further than the parser's limit.
"""

from __future__ import annotations

import codecs
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from minesolver.position import MAX_TEXT, Position, PositionFormatError

__all__ = [
    "CliError",
    "check_layout_file",
    "fail",
    "is_image",
    "not_a_replay",
    "read_image",
    "read_position",
    "read_progress",
]


class CliError(Exception):
    """A user error to report as ``error: …`` with exit status 2."""


def fail(message: str) -> NoReturn:
    """Stop the command with ``error: message`` and exit status 2."""
    raise CliError(message)


def read_position(source: str) -> Position:
    """Read a position from a file path or ``-`` (standard input): no more than the
    parser's limit and a byte-order mark and one character, so that a huge file is refused
    without being read whole. Binary data is refused saying what it is (a replay, a
    layout file, or just binary data), and so is a list of layouts."""
    text: str | None = None
    try:
        if source == "-":
            if sys.stdin.isatty():
                sys.stderr.write(
                    "reading a position from standard input (end with Ctrl-D; "
                    "or give a file: minesolver solve FILE)\n"
                )
            text = sys.stdin.read(MAX_TEXT + 2)
        else:
            with Path(source).open(encoding="utf-8") as stream:
                text = stream.read(MAX_TEXT + 2)
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        pass  # not text
    name = "standard input" if source == "-" else source
    if text is None or _has_controls(text):
        kind = None if source == "-" else _binary_kind(source)
        if kind is None:
            fail(f"{name} is not a position (binary data)")
        fail(f"{name} is {kind[0]}, not a position: {kind[1]}")
    try:
        return Position.from_text(text)
    except PositionFormatError:
        if len(text) > MAX_TEXT or not _layout_list(text):
            raise  # a text over the limit is refused as it is, without parsing it again
        fail(f"{name} is a list of mine layouts, not a position: {_LAYOUTS_HINT.format(name)}")


_LAYOUTS_HINT = "minesolver efficiency {0} measures them, minesolver bench --layouts {0} plays them"
_REPLAY_HINT = "minesolver replay {0} grades it"
_IMAGE_HINT = "minesolver read {0} reads the board it shows"


def _has_controls(text: str) -> bool:
    """Whether the start of ``text`` holds a control character no text file has (all
    but tab, line feed, form feed and carriage return): binary data."""
    return any((ord(c) < 32 and c not in "\t\n\x0c\r") or c == "\x7f" for c in text[:4096])


def _binary_kind(source: str) -> tuple[str, str] | None:
    """What a binary file is, as ``(what, the command that reads it)``: an image, a
    replay of a known format (read whole, up to the replay reader's limit) or an MBF
    layout file; ``None`` when it is none of those."""
    if is_image(source):
        return "an image", _IMAGE_HINT.format(source)
    from minesolver.game import LayoutFormatError, read_mbf
    from minesolver.replay import MAX_BYTES, ReplayFormatError, identify, load

    try:
        if Path(source).stat().st_size > MAX_BYTES:
            return None
        data = Path(source).read_bytes()
    except OSError:
        return None
    fmt = identify(data)
    if fmt is not None:
        try:
            load(data, fmt)
        except ReplayFormatError as exc:
            return f"a damaged {fmt.upper()} replay ({exc})", _REPLAY_HINT.format(source)
        return f"a replay ({fmt.upper()})", _REPLAY_HINT.format(source)
    try:
        read_mbf(data, source)
    except LayoutFormatError:
        return None
    return "a layout file (MBF)", _LAYOUTS_HINT.format(source)


def _layout_list(text: str) -> bool:
    """Whether ``text`` is a list of mine layouts (``WxHxM: x,y ...`` lines)."""
    from minesolver.game import LayoutFormatError, read_text_layouts

    try:
        return bool(read_text_layouts(text))
    except LayoutFormatError:
        return False


def not_a_replay(source: str) -> str:
    """Why ``source``, which the replay reader refused as no replay, is not one: what it
    is instead (an image, a position, a list of layouts, text, binary data) and the
    command that reads it."""
    kind = _binary_kind(source)
    if kind is None:
        try:
            text = Path(source).read_text(encoding="utf-8")[: MAX_TEXT + 2]
        except (OSError, UnicodeDecodeError):
            return f"{source} is not a replay (AVF, RMV, EVF or MVF): it holds binary data"
        if _has_controls(text):
            return f"{source} is not a replay (AVF, RMV, EVF or MVF): it holds binary data"
        try:
            Position.from_text(text)
            kind = "a position", f"minesolver solve {source} analyses it"
        except ValueError:
            kind = (
                ("a list of mine layouts", _LAYOUTS_HINT.format(source))
                if _layout_list(text)
                else ("text", "")
            )
    what, hint = kind
    return f"{source} is not a replay (AVF, RMV, EVF or MVF): it is {what}" + (
        f"; {hint}" if hint else ""
    )


def check_layout_file(source: str) -> None:
    """Refuse, saying what it is, a file given as mine layouts that is an image, a
    replay or a position; anything else is left to the layout reader."""
    try:
        with Path(source).open("rb") as stream:
            head = stream.read(4096)
    except OSError:
        return  # the layout reader says why it cannot be read
    try:
        text: str | None = codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        text = None
    if text is None or _has_controls(text):
        kind = _binary_kind(source)
        if kind is not None and not kind[0].startswith("a layout file"):
            fail(f"{source} is {kind[0]}, not a layout file: {kind[1]}")
        return
    if not _layout_list(text) and _is_position(source):
        fail(f"{source} is a position, not a layout file: minesolver solve {source} analyses it")


def _is_position(source: str) -> bool:
    try:
        Position.from_text(Path(source).read_text(encoding="utf-8")[: MAX_TEXT + 2])
    except (OSError, ValueError):
        return False
    return True


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


SHOW_AFTER = 1.0
"""Seconds (of wall time) after which :func:`read_progress` shows what a read is doing:
a display matter only, nothing read depends on it."""


@contextmanager
def read_progress(
    console: Any = None, after: float = SHOW_AFTER, shown: threading.Event | None = None
) -> Iterator[Callable[[str], None]]:
    """A :data:`~minesolver.vision.reader.Progress` callback for a screenshot's read that
    shows, once the read has taken ``after`` seconds, a spinner with the stage it is at on
    standard error (``console``, a rich console; none when it is no terminal, so that
    what a script reads is only the result); cleared when the read ends. ``shown`` is set
    when the spinner starts (for the tests)."""
    from rich.console import Console

    console = console or Console(stderr=True)
    stage = ["reading the screenshot"]
    if not console.is_terminal:
        yield lambda _: None
        return
    status = console.status(stage[0])
    lock = threading.Lock()
    state = {"started": False, "over": False}

    def start() -> None:
        with lock:
            if state["over"]:
                return
            status.update(f"reading the screenshot: {stage[0]}")
            status.start()
            state["started"] = True
        if shown is not None:
            shown.set()

    def tell(now: str) -> None:
        with lock:
            stage[0] = now
            if state["started"]:
                status.update(f"reading the screenshot: {now}")

    timer = threading.Timer(after, start)
    timer.daemon = True
    timer.start()
    try:
        yield tell
    finally:
        timer.cancel()
        with lock:
            state["over"] = True
            if state["started"]:
                status.stop()


def read_image(source: str, mines: int | None) -> Position:
    """The position a screenshot shows; a total of mines unknown is an error that says
    to give ``--mines``. A read of over a second shows its progress
    (:func:`read_progress`)."""
    from minesolver.vision import read_board

    with read_progress() as progress:
        position = read_board(source, mines=mines, progress=progress)
    if position.mines is None:
        fail(
            f"the board read is {position.width}x{position.height}, not a standard level: "
            "give its total of mines with --mines N"
        )
    return position
