"""Viennasweeper's RMV replays, format versions 1 and 2 (ralokt's RMV specification).

Big-endian. The ``*rmv`` signature, the format version, section sizes, (v1) a text
result string holding the 3BV, a version string, counted player fields (name, nickname,
country, token), the board (columns, rows, mines, a column/row byte pair per mine),
flags placed before the start, one-byte properties (question marks, NF, mode, level;
v1: UTF-8; v2: 3BV, cell size), (v2) named extension properties, then events: mouse
events (kind, 3-byte time, button flags, x, y; v1 positions are offset by the window
frame, 12 and 56 pixels), v2's 3-byte relative mouse moves, board events (skipped: the
game is rebuilt from the layout) and a termination event (15 blast, 16 win, 17 other).

The recording leaves out the first left press: it is restored at the first mouse event,
as Viennasweeper's players do. Cost: O(file size).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minesolver.replay._board import check_board, pair_layout
from minesolver.replay._bytes import ByteReader, decode_name
from minesolver.replay.record import MAX_EVENTS, MouseEvent, Replay, cell_at

__all__ = ["read_rmv"]

_MOUSE: dict[int, str] = {1: "mv", 2: "lc", 3: "lr", 4: "rc", 5: "rr", 6: "mc", 7: "mr"}
_V1_OFFSET = (12, 56)


@dataclass
class _Sizes:
    version: int = 0
    clone_id: int = 0
    result: int = 0
    version_info: int = 0
    preflags: int = 0
    properties: int = 0
    fields: list[bytes] = field(default_factory=list)


def read_rmv(data: bytes) -> Replay:
    """Read an RMV replay; :class:`ReplayFormatError` names the byte where it goes wrong."""
    r = ByteReader(data, "rmv")
    if not data:
        r.fail("the signature '*rmv'", "the file is empty")
    if data[:4] != b"*rmv":
        r.fail("the signature '*rmv'", f"found {data[:4]!r}", 0)
    s = _header(r)
    bbbv = _result_string(r, s) if s.version == 1 else None
    r.skip(s.version_info, "the version string")
    _player_fields(r, s)
    r.skip(4, "the board's timestamp")
    offset = r.pos
    width, height = r.u8("the number of columns"), r.u8("the number of rows")
    mines = r.u16("the number of mines")
    check_board(r, width, height, mines, offset)
    layout = pair_layout(r, width, height, mines, base=0)
    preflags = _preflags(r, s, width, height)
    props_at = r.pos
    props = r.take(s.properties, "the properties")
    if len(props) < 4:
        r.fail("at least 4 properties", f"found {len(props)}", props_at)
    question_marks = props[0] == 1
    utf8 = s.version >= 2 or (len(props) > 4 and props[4] == 1)
    size = 16
    if s.version >= 2:
        if len(props) < 7:
            r.fail("7 properties in RMV v2", f"found {len(props)}", props_at)
        bbbv = props[4] + (props[5] << 8)
        size = props[6]
        if size < 1:
            r.fail("a cell size of at least 1 pixel", "found 0", props_at + 6)
    clone_name = _extensions(r) if s.version >= 2 else None
    events, won, time_ms = _events(r, s, width, height, size, preflags)
    names = [decode_name(f, legacy=not utf8) for f in s.fields]
    return Replay(
        format="rmv",
        version=str(s.version),
        software=_software(s, clone_name),
        player=names[0] if names else "",
        width=width,
        height=height,
        mines=mines,
        cell_size=size,
        layout=layout,
        events=tuple(events),
        time_ms=time_ms,
        question_marks=question_marks,
        recorded_won=won,
        bbbv_recorded=bbbv,
    )


def _header(r: ByteReader) -> _Sizes:
    r.skip(4, "the signature")
    s = _Sizes()
    s.version = r.u16("the format version")
    if s.version not in (1, 2):
        r.fail("RMV format version 1 or 2", f"found {s.version}", 4)
    if s.version == 2:
        s.clone_id = r.u8("the clone id")
        r.skip(1, "the clone's major version")
    r.skip(4, "the file size")
    if s.version == 1:
        s.result = r.u16("the result string's size")
    s.version_info = r.u16("the version string's size")
    r.skip(4, "the player and board section sizes")
    s.preflags = r.u16("the preflag section's size")
    s.properties = r.u16("the properties' size")
    if s.version == 2:
        r.skip(2, "the extension properties' size")
    r.skip(6, "the event and checksum sizes")
    return s


def _result_string(r: ByteReader, s: _Sizes) -> int | None:
    """The v1 result string ``\\n KEY:value# ... \\n``: its 3BV, when it has one."""
    text = r.take(s.result, "the result string")
    for part in text.split(b"#"):
        key, _, value = part.strip().partition(b":")
        if key == b"3BV" and value.isdigit() and len(value) <= 6:
            return int(value)
    return None


def _player_fields(r: ByteReader, s: _Sizes) -> None:
    for _ in range(r.u16("the number of player fields")):
        s.fields.append(r.take(r.u8("a player field's size"), "a player field"))


def _preflags(r: ByteReader, s: _Sizes, width: int, height: int) -> list[tuple[int, int]]:
    if not s.preflags:
        return []
    n = r.u16("the number of preflags")
    offset = r.pos
    raw = r.take(2 * n, f"{n} preflag positions")
    out = []
    for k in range(n):
        x, y = raw[2 * k], raw[2 * k + 1]
        if not (x < width and y < height):
            r.fail(f"a preflag on the {width}x{height} board", f"found ({x}, {y})", offset + 2 * k)
        out.append((x, y))
    return out


def _extensions(r: ByteReader) -> str | None:
    clone_name = None
    for _ in range(r.u16("the number of extension properties")):
        key = r.take(r.u8("an extension key's size"), "an extension key")
        value = r.take(r.u8("an extension value's size"), "an extension value")
        if key == b"clone_name":
            clone_name = decode_name(value, legacy=False)
    return clone_name


def _software(s: _Sizes, clone_name: str | None) -> str:
    if s.version == 1 or s.clone_id == 1:
        return "Viennasweeper"
    return clone_name or f"RMV clone {s.clone_id}"


def _events(
    r: ByteReader,
    s: _Sizes,
    width: int,
    height: int,
    size: int,
    preflags: list[tuple[int, int]],
) -> tuple[list[MouseEvent], bool | None, int]:
    """The mouse events, whether the game was won (``None``: ended otherwise), and the
    time of the last event."""
    events = [MouseEvent(0, "pf", x * size, y * size, (x, y)) for x, y in preflags]
    dx, dy = _V1_OFFSET if s.version == 1 else (0, 0)
    x = y = t = 0
    first = True
    records = 0
    while True:
        records += 1
        r.count(records, MAX_EVENTS, "event records")
        at = r.pos
        code = r.u8("an event code")
        if code == 0 and s.version == 1:
            r.skip(4, "a timestamp change")
            continue
        if 1 <= code <= 7 or (code == 28 and s.version >= 2 and not first):
            if code == 28:
                t += r.u8("a move's time step")
                step = r.u8("a move's position step")
                x += _nibble(step >> 4)
                y += _nibble(step & 15)
                kind = "mv"
            else:
                t = r.uint(3, "the event's time")
                r.skip(1, "the button flags")
                if s.version == 1:
                    x, y = r.u16("the event's x") - dx, r.u16("the event's y") - dy
                else:
                    x, y = r.i16("the event's x"), r.i16("the event's y")
                kind = _MOUSE[code]
            cell = cell_at(x, y, width, height, size)
            if first:
                first = False
                events.append(MouseEvent(t, "lc", x, y, cell))
            events.append(MouseEvent(t, kind, x, y, cell))  # type: ignore[arg-type]
        elif 9 <= code <= 14 or 18 <= code <= 27:
            r.skip(2, "a board event's cell")
        elif 15 <= code <= 17:
            won = True if code == 16 else (False if code == 15 else None)
            return events, won, (events[-1].time_ms if events else 0)
        else:
            r.fail("an RMV event code", f"found {code}", at)


def _nibble(n: int) -> int:
    """A 4-bit two's complement number."""
    return n - 16 if n & 8 else n
