"""Minesweeper Arbiter's AVF replays (standard levels and custom boards).

AVF is undocumented; these are the facts ms-toollib's and rawvf's readers rely on. A
version byte, 4 bytes of noise, the level (3 beginner, 4 intermediate, 5 expert, 6
custom: then columns - 1, rows - 1 and a 2-byte mine count), a row/column byte pair per
mine counted from 1, a checksum string whose length follows from the board, a country
byte, then a bracketed text ``[level|start|end|B<3BV>T<time>]`` preceded by a byte that
says whether question marks were on (17) or off (127), then 8-byte mouse events
``kind, x-high, seconds-low, x-low, hundredths, y-high, seconds-high, y-low`` (seconds
counted from 1) ended by a zero time, and a text trailer whose ``Skin:`` line is
followed by the player's name.

Cost: O(file size).
"""

from __future__ import annotations

import re

from minesolver.game import Layout
from minesolver.replay._board import check_board, pair_layout
from minesolver.replay._bytes import ByteReader, decode_name
from minesolver.replay.record import MAX_EVENTS, EventKind, MouseEvent, Replay, cell_at

__all__ = ["read_avf"]

_LEVELS = {3: (8, 8, 10), 4: (16, 16, 40), 5: (30, 16, 99)}
_KIND: dict[int, EventKind] = {
    1: "mv", 3: "lc", 5: "lr", 9: "rc", 17: "rr", 33: "mc", 65: "mr", 145: "rr", 193: "mr",
    21: "lr",
}  # fmt: skip
_BRACKET = re.compile(rb"\[[0-3]\|")
_TAIL = re.compile(rb"B(\d{1,6})T(\d{1,6})(?:[.,](\d{1,3}))?\]$")
_FIRST_EVENT = re.compile(rb"(?s).[\x00\x01]\x01")  # x-high 0 or 1, seconds-low 1
_CELL = 16
_MAX_BRACKET = 200


def read_avf(data: bytes) -> Replay:
    """Read an AVF replay; :class:`ReplayFormatError` names the byte where it goes wrong."""
    r = ByteReader(data, "avf")
    if not data:
        r.fail("an AVF version byte", "the file is empty")
    r.skip(5, "the version and 4 header bytes")
    width, height, mines = _level(r)
    layout = pair_layout(r, width, height, mines, base=1, row_first=True)
    r.skip(len(str(_checksum(layout))) + 4, "the checksum string")
    r.skip(1, "the country")
    question_marks, bbbv, header_ms = _bracket(r)
    events = _events(r, width, height)
    return Replay(
        format="avf",
        version=str(data[0]),
        software="Arbiter",
        player=_player(r),
        width=width,
        height=height,
        mines=mines,
        cell_size=_CELL,
        layout=layout,
        events=tuple(events),
        time_ms=_time(events, header_ms),
        question_marks=question_marks,
        bbbv_recorded=bbbv,
    )


def _level(r: ByteReader) -> tuple[int, int, int]:
    at = r.pos
    level = r.u8("the level")
    if level in _LEVELS:
        return _LEVELS[level]
    if level != 6:
        r.fail("a level 3, 4, 5 or 6 (custom)", f"found {level}", at)
    at = r.pos
    width = r.u8("the number of columns") + 1
    height = r.u8("the number of rows") + 1
    mines = r.u16("the number of mines")
    check_board(r, width, height, mines, at)
    return width, height, mines


def _checksum(layout: Layout) -> int:
    """Arbiter's board checksum, whose decimal length sets how many bytes follow."""
    w, h = layout.width, layout.height
    mine = set(layout.mine_indices)
    total = 0
    for y in range(h):
        for x in range(w):
            i = y * w + x
            if i in mine:
                value = 10
            else:
                value = 1 + sum(
                    (yy * w + xx) in mine
                    for yy in range(max(y - 1, 0), min(y + 2, h))
                    for xx in range(max(x - 1, 0), min(x + 2, w))
                )
            total += value * (x + x * y)
    return total


def _bracket(r: ByteReader) -> tuple[bool, int, int]:
    """Question marks on, the 3BV and the header time (ms) from ``[...|B<bbbv>T<time>]``."""
    start = r.pos
    m = _BRACKET.search(r.data, r.pos)
    if m is None:
        r.fail("the game's bracketed summary '[0|...'", "the file ends first", start)
    at = m.start()
    marks = r.data[at - 2] if at - 2 >= start else -1
    if marks not in (17, 127):
        r.fail("the question-mark setting (17 or 127)", f"found {marks}", max(at - 2, start))
    r.pos = at
    end = r.data.find(b"]", at, at + _MAX_BRACKET)
    if end < 0:
        r.fail("the end of the bracketed summary ']'", "none within 200 bytes", at)
    text = r.data[at : end + 1]
    tail = _TAIL.search(text)
    if tail is None:
        r.fail("'B<3BV>T<time>]' at the end of the summary", f"found {text[-24:]!r}", at)
    r.pos = end + 1
    fraction = (tail.group(3) or b"0").ljust(3, b"0")
    header_ms = int(tail.group(2)) * 1000 + int(fraction) - 1000
    return marks == 17, int(tail.group(1)), header_ms


def _events(r: ByteReader, width: int, height: int) -> list[MouseEvent]:
    data = r.data
    first = _FIRST_EVENT.search(data, r.pos)
    if first is None or first.start() + 8 > len(data):
        r.fail("the first mouse event (its seconds byte is 1)", "the file ends first", r.pos)
    at = first.start()
    events: list[MouseEvent] = []
    while True:
        if at + 8 > len(data):
            r.fail("an 8-byte mouse event", "the file ends first", at)
        if len(events) >= MAX_EVENTS:
            r.fail(f"at most {MAX_EVENTS} mouse events", "there are more", at)
        b = data[at : at + 8]
        if events and b[2] == 0 and b[6] == 0:
            break
        kind = _KIND.get(b[0])
        if kind is None:
            r.fail("a mouse event kind", f"found {b[0]}", at)
        t = ((b[6] << 8 | b[2]) - 1) * 1000 + b[4] * 10
        x, y = b[1] << 8 | b[3], b[5] << 8 | b[7]
        events.append(MouseEvent(t, kind, x, y, cell_at(x, y, width, height, _CELL)))
        at += 8
    r.pos = at + 8
    return events


def _time(events: list[MouseEvent], header_ms: int) -> int:
    """Arbiter's time: the header's, unless the events run past it (the header is then
    wrong): from the first left release to the last event."""
    last = events[-1].time_ms
    if header_ms >= last:
        return header_ms
    first_lr = next((e.time_ms for e in events if e.kind == "lr"), 0)
    return last - first_lr


def _player(r: ByteReader) -> str:
    for needle in (b"S", b"k", b"i", b"n", b":", b"\r"):
        r.find(needle, "the trailer's 'Skin:' line")
    return decode_name(r.until(b"\r", "the player's name"))
