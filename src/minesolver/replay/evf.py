"""Metasweeper's EVF replays, versions 0 to 4 (the EVF specification, ``evf标准.md``).

Big-endian integers. Versions 0-3: a fixed header (flags, rows, columns, mines, cell
size, game mode (it says the first-click rule), 3BV, time in ms on 3 bytes),
NUL-terminated strings (software, player, race and unique identifiers, timestamps,
country; a device UUID from version 2), the mine bitmap, then 8-byte events (kind,
3-byte time, x, y on 2 bytes each) ended by 0 (a 32-byte checksum follows) or 255
(none). Version 4: a 4-byte time, country, 8-byte timestamps, strings, a counted UUID,
the bitmap, custom metric names, then events with time and position deltas, pause
events, game-state, board and metric events, ended by 0 and a counted checksum.

Cost: O(file size).
"""

from __future__ import annotations

from minesolver.replay._board import bitmap_layout, check_board
from minesolver.replay._bytes import ByteReader, decode_name
from minesolver.replay.record import EVENT_KINDS, MAX_EVENTS, EventKind, MouseEvent, Replay, cell_at

__all__ = ["read_evf"]

_KIND_BY_CODE: dict[int, EventKind] = {
    code: kind  # type: ignore[misc]
    for code, kind in enumerate(EVENT_KINDS, start=1)
}


class _Header:
    """The header fields every EVF version has."""

    version: int
    completed: bool
    question_marks: bool
    height: int
    width: int
    mines: int
    cell_size: int
    mode: int
    bbbv: int
    time_ms: int
    software: str
    player: str


def read_evf(data: bytes) -> Replay:
    """Read an EVF replay; :class:`ReplayFormatError` names the byte where it goes wrong."""
    r = ByteReader(data, "evf")
    if not data:
        r.fail("an EVF version byte (0 to 4)", "the file is empty")
    h = _Header()
    h.version = r.u8("the EVF version")
    if h.version > 4:
        r.fail("an EVF version from 0 to 4", f"found {h.version}", 0)
    if h.version == 4:
        _header_v4(r, h)
    else:
        _header_v0_3(r, h)
    layout = bitmap_layout(r, h.width, h.height, h.mines)
    events = _events_v4(r, h) if h.version == 4 else _events_v0_3(r, h)
    return Replay(
        format="evf",
        version=str(h.version),
        software=h.software,
        player=h.player,
        width=h.width,
        height=h.height,
        mines=h.mines,
        cell_size=h.cell_size,
        layout=layout,
        events=tuple(events),
        time_ms=h.time_ms,
        question_marks=h.question_marks,
        recorded_won=h.completed,
        bbbv_recorded=h.bbbv,
        mode=h.mode,
    )


def _board_fields(r: ByteReader, h: _Header) -> None:
    offset = r.pos
    h.height = r.u8("the number of rows")
    h.width = r.u8("the number of columns")
    h.mines = r.u16("the number of mines")
    check_board(r, h.width, h.height, h.mines, offset)
    at = r.pos
    h.cell_size = r.u8("the cell size in pixels")
    if h.cell_size < 1:
        r.fail("a cell size of at least 1 pixel", "found 0", at)
    h.mode = r.u16("the game mode")
    h.bbbv = r.u16("the 3BV")


def _text(r: ByteReader, what: str) -> str:
    return decode_name(r.until(b"\0", what))


def _header_v0_3(r: ByteReader, h: _Header) -> None:
    flags = r.u8("the summary flags")
    h.completed = bool(flags & 0x80)
    h.question_marks = False
    if h.version == 3:
        settings = r.u8("the game settings")
        h.question_marks = bool(settings & 0x80)  # as Metasweeper writes it
    _board_fields(r, h)
    h.time_ms = r.uint(3, "the time in milliseconds")
    h.software = _text(r, "the software's name")
    h.player = _text(r, "the player's name")
    for what in ("race identifier", "unique identifier", "start time", "end time", "country"):
        r.until(b"\0", f"the {what}")
    if h.version >= 2:
        r.until(b"\0", "the device UUID")


def _header_v4(r: ByteReader, h: _Header) -> None:
    flags = r.u8("the summary flags")
    h.completed = bool(flags & 0x80)
    translated = bool(flags & 0x08)
    settings = r.u8("the game settings")
    h.question_marks = bool(settings & 0x80)
    _board_fields(r, h)
    h.time_ms = r.uint(4, "the time in milliseconds")
    r.skip(2 + 8 + 8, "the country and the start and end timestamps")
    h.software = _text(r, "the software's name")
    if translated:
        r.until(b"\0", "the translating software")
        r.until(b"\0", "the original encoding")
    h.player = _text(r, "the player's name")
    r.until(b"\0", "the race identifier")
    r.until(b"\0", "the unique identifier")
    r.skip(r.u16("the UUID length"), "the device UUID")


def _event(r: ByteReader, h: _Header, t: int, kind: EventKind, x: int, y: int) -> MouseEvent:
    return MouseEvent(t, kind, x, y, cell_at(x, y, h.width, h.height, h.cell_size))


def _events_v0_3(r: ByteReader, h: _Header) -> list[MouseEvent]:
    events: list[MouseEvent] = []
    while True:
        r.count(len(events), MAX_EVENTS, "events")
        at = r.pos
        code = r.u8("an event code")
        if code in (0, 255):
            break
        kind = _KIND_BY_CODE.get(code)
        if kind is None:
            r.fail("a mouse event code (1 to 12), 0 or 255", f"found {code}", at)
        t = r.uint(3, "the event's time")
        x = r.u16("the event's x")
        y = r.u16("the event's y")
        events.append(_event(r, h, t, kind, x, y))
    if code == 0:
        r.skip(32, "the checksum")
    return events


def _events_v4(r: ByteReader, h: _Header) -> list[MouseEvent]:
    for _ in range(r.u16("the number of custom metrics")):
        r.until(b"\0", "a custom metric's name")
    events: list[MouseEvent] = []
    at = r.pos
    code = r.u8("the first event's code")
    if code not in (1, 2, 4, 8):
        r.fail("a first event that moves, presses or places a flag", f"found code {code}", at)
    t = r.u8("the first event's time")
    x, y = r.u16("the first event's x"), r.u16("the first event's y")
    events.append(_event(r, h, t, _KIND_BY_CODE[code], x, y))
    pause = records = 0
    while True:
        records += 1
        r.count(records, MAX_EVENTS, "event records")
        at = r.pos
        code = r.u8("an event code")
        if code == 0:
            break
        if code == 255:
            pause += r.u16("a pause's length")
            continue
        t += r.u8("the event's time step") + pause
        pause = 0
        if code <= 80:
            kind = _KIND_BY_CODE.get(code)
            if kind is None:
                r.fail("a mouse event code (1 to 12)", f"found {code}", at)
            x += r.i16("the event's x step")
            y += r.i16("the event's y step")
            events.append(_event(r, h, t, kind, x, y))
        elif 100 <= code <= 199:
            r.skip(2, "a board event's cell")
        elif code in (200, 201):
            _metric(r, code)
        elif not 81 <= code <= 99:
            r.fail("an event code", f"found {code}", at)
    r.skip(r.u16("the checksum length"), "the checksum")
    return events


def _metric(r: ByteReader, code: int) -> None:
    r.skip(2, "a metric's index")
    if code == 200:
        r.skip(8, "a metric's value")
    else:
        r.until(b"\0", "a metric's text")
