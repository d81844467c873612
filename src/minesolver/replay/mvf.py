"""Minesweeper Clone's MVF replays: Clone 0.97 and Clone 2006/2007.

MVF is undocumented; these are the facts of rawvf's reader (Maksim Bashov, Damien
Moore) and ms-toollib's. Files start ``0x11 0x4D``; the byte at offset 27 is the last
digit of the year the version was made: ``5`` for 0.97 (data from offset 74), ``6`` or
``7`` for 2006/2007 (a version string at offset 53, data from offset 71). Then the date,
level and mode, the score time, (0.97) 3BV, solved 3BV and click counts, the
question-mark setting, the board (columns, rows, 2-byte mine count, column/row pairs
counted from 1), the counted player name, a 2-byte key, a 3-byte event count and the
events: 5 bytes (0.97) or 6 bytes (2007) whose bits are permuted by a table built from
the key with trigonometric functions. Each event holds the three buttons' state, the
pointer and the time; presses and releases are the changes between events.

Cost: O(file size).
"""

from __future__ import annotations

import math

from minesolver.replay._board import check_board, pair_layout
from minesolver.replay._bytes import ByteReader, decode_name
from minesolver.replay.record import MAX_EVENTS, EventKind, MouseEvent, Replay, cell_at

__all__ = ["read_mvf"]

_CELL = 16
_MULT = 100_000_000.0
_PRESS: tuple[EventKind, ...] = ("lc", "rc", "mc")
_RELEASE: tuple[EventKind, ...] = ("lr", "rr", "mr")


def read_mvf(data: bytes) -> Replay:
    """Read an MVF replay; :class:`ReplayFormatError` names the byte where it goes wrong."""
    r = ByteReader(data, "mvf")
    if not data:
        r.fail("the MVF signature 0x11 0x4D", "the file is empty")
    if data[:2] != b"\x11\x4d":
        r.fail(
            "the signature 0x11 0x4D of Clone 0.97 or 2007 (older versions are not read)",
            f"found {data[:2]!r}",
            0,
        )
    r.pos = 27
    year = r.u8("the version's year digit")
    if year == ord("5"):
        r.pos = 74
        return _read(r, "0.97 beta", new=False)
    if year in (ord("6"), ord("7")):
        r.pos = 53
        name = decode_name(r.take(r.u8("the version string's length"), "the version string"))
        r.pos = 71
        return _read(r, name.strip() or "2007", new=True)
    r.fail("the year digit 5, 6 or 7 of Clone 0.97 or 2007", f"found {year}", 27)


def _read(r: ByteReader, version: str, *, new: bool) -> Replay:
    r.skip(7, "the date")
    r.skip(2, "the level and mode")
    if new:
        r.skip(3, "the score time")
        bbbv = solved = None
    else:
        r.skip(3, "the score time")
        bbbv, solved = r.u16("the 3BV"), r.u16("the solved 3BV")
        r.skip(6, "the click counts")
    question_marks = r.u8("the question-mark setting") != 0
    at = r.pos
    width, height = r.u8("the number of columns"), r.u8("the number of rows")
    mines = r.u16("the number of mines")
    check_board(r, width, height, mines, at)
    layout = pair_layout(r, width, height, mines, base=1)
    player = decode_name(r.take(r.u8("the player name's length"), "the player's name"))
    byte, bit = _permutation(r.u16("the event key"), new)
    at = r.pos
    count = r.uint(3, "the number of events")
    if not 1 <= count <= MAX_EVENTS:
        r.fail(f"1 to {MAX_EVENTS} events", f"found {count}", at)
    size = 6 if new else 5
    raw = r.take(count * size, f"{count} events of {size} bytes")
    states = _decode_all(raw, _tables(byte, bit, new, size), new)
    events = _events(states, width, height)
    first_lr = next((e.time_ms for e in events if e.kind == "lr"), 0)
    return Replay(
        format="mvf",
        version=version,
        software=f"Minesweeper Clone {version}",
        player=player,
        width=width,
        height=height,
        mines=mines,
        cell_size=_CELL,
        layout=layout,
        events=tuple(events),
        time_ms=events[-1].time_ms - first_lr,
        question_marks=question_marks,
        recorded_won=None if bbbv is None else bbbv == solved,
        bbbv_recorded=bbbv,
    )


def _digits(value: float) -> str:
    """Eight decimal digits of ``|value| * 10^8``, rounded half up (as Clone does)."""
    return f"{math.floor(abs(value) * _MULT + 0.5):08d}"[-8:]


def _permutation(key: int, new: bool) -> tuple[list[int], list[int]]:
    """Which byte and bit of an event hold its n-th logical bit, from the file's key."""
    num1 = math.sqrt(key)
    num2 = math.sqrt(key + 1000.0)
    num3 = math.sqrt(num1 + 1000.0)
    num4 = math.sqrt(num2 + 1000.0)
    parts = [
        math.cos(num3 + 1000.0),
        math.sin(math.sqrt(num2)),
        math.cos(num3),
        math.sin(math.sqrt(num1) + 1000.0),
    ]
    parts += [math.cos(num4), math.sin(num4)] if new else [math.cos(math.sqrt(num2 + 1000.0))]
    s = "".join(_digits(v) for v in parts)
    order = sorted(range(len(s)), key=lambda j: (s[j], j))
    return [j // 8 for j in order], [1 << (j % 8) for j in order]


_Fields = tuple[int, int, int, int, int, int]
"""An event's left, right and middle buttons, x, y and time in ms."""


def _tables(byte: list[int], bit: list[int], new: bool, size: int) -> list[list[_Fields]]:
    """For each of an event's bytes and each of its values, what it adds to each field:
    decoding an event is then ``size`` lookups. Cost: O(size * 256 * bits) once."""
    if new:
        fields = [(0, 1, 1), (1, 2, 1), (2, 0, 1), (3, 4, 11), (14, 3, 11), (25, 5, 22)]
    else:
        fields = [(0, 1, 1), (1, 2, 1), (2, 0, 1), (3, 4, 9), (12, 3, 9), (21, 6, 7), (28, 7, 10)]
    weights = {6: 10, 7: 1000}  # 0.97: hundredths (as ms) and seconds (as ms)
    tables: list[list[_Fields]] = []
    for k in range(size):
        table = []
        for value in range(256):
            acc = [0, 0, 0, 0, 0, 0]
            for start, target, n in fields:
                for j in range(n):
                    if byte[start + j] == k and value & bit[start + j]:
                        acc[min(target, 5)] += (1 << j) * weights.get(target, 1)
            table.append((acc[0], acc[1], acc[2], acc[3], acc[4], acc[5]))
        tables.append(table)
    return tables


def _decode_all(raw: bytes, tables: list[list[_Fields]], new: bool) -> list[_Fields]:
    """Every event's fields (2007 positions are stored 32 pixels out)."""
    size = len(tables)
    shift = 32 if new else 0
    out = []
    for k in range(0, len(raw), size):
        lb = rb = mb = x = y = t = 0
        for table, value in zip(tables, raw[k : k + size], strict=True):
            a, b, c, d, e, f = table[value]
            lb, rb, mb, x, y, t = lb + a, rb + b, mb + c, x + d, y + e, t + f
        out.append((lb, rb, mb, x - shift, y - shift, t))
    return out


def _events(states: list[_Fields], width: int, height: int) -> list[MouseEvent]:
    """Presses, releases and moves from the sequence of button states. The first state
    is a press of the button held (Clone saves nothing before the timer starts)."""
    lb, rb, mb, x, y, t = states[0]
    first: EventKind = "mc" if mb else "rc" if rb else "lc" if lb else "mv"
    events = [MouseEvent(t, first, x, y, cell_at(x, y, width, height, _CELL))]
    prev = (lb, rb, mb, 0, 0)  # Clone's readers compare the second pointer with (0, 0)
    for lb, rb, mb, x, y, t in states[1:]:
        plb, prb, pmb, px, py = prev
        kinds: list[EventKind] = ["mv"] if (x, y) != (px, py) else []
        now, was = (lb, rb, mb), (plb, prb, pmb)
        kinds += [_PRESS[b] for b in range(3) if now[b] and not was[b]]
        kinds += [_RELEASE[b] for b in range(3) if was[b] and not now[b]]
        cell = cell_at(x, y, width, height, _CELL)
        events.extend(MouseEvent(t, k, x, y, cell) for k in kinds)
        prev = (lb, rb, mb, x, y)
    return events
