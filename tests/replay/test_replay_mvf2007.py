"""Minesweeper Clone 2007's MVF layout, on a file built here with the same permutation.

No Clone 2007 replay is among the samples, so this checks the reader's offsets, field
widths and the 32-pixel shift against an encoder written from the same facts (rawvf's
reader); the permutation table itself is checked on the real Clone 0.97 sample.
"""

from __future__ import annotations

import pytest

from minesolver.replay import ReplayFormatError, load, play_events
from minesolver.replay.mvf import _permutation

KEY = 4321


def encode(states: list[tuple[int, int, int, int, int, int]]) -> bytes:
    """Events (left, right, middle, x, y, ms) as Clone 2007 stores them."""
    byte, bit = _permutation(KEY, True)
    out = bytearray()
    for lb, rb, mb, x, y, t in states:
        e = bytearray(6)
        bits = [rb, mb, lb]
        bits += [(y + 32) >> j & 1 for j in range(11)]
        bits += [(x + 32) >> j & 1 for j in range(11)]
        bits += [t >> j & 1 for j in range(22)]
        for n, value in enumerate(bits):
            if value:
                e[byte[n]] |= bit[n]
        out += e
    return bytes(out)


def clone2007(states: list[tuple[int, int, int, int, int, int]], name: bytes = b"Ann") -> bytes:
    head = bytearray(71)
    head[0:2] = b"\x11\x4d"
    head[27] = ord("7")
    head[53] = 4
    head[54:58] = b"2007"
    body = bytearray([12, 31]) + (2008).to_bytes(2, "big") + bytes([10, 20, 30])
    body += bytes([1, 1]) + (1500).to_bytes(3, "big") + bytes([0])
    body += bytes([3, 2]) + (1).to_bytes(2, "big") + bytes([3, 1])  # 3x2, a mine at (2, 0)
    body += bytes([len(name)]) + name + KEY.to_bytes(2, "big")
    body += len(states).to_bytes(3, "big") + encode(states)
    return bytes(head + body)


STATES = [
    (1, 0, 0, 8, 24, 0),  # left held on (0, 1): the timer starts
    (0, 0, 0, 8, 24, 100),  # released: opens (0, 1)
    (0, 0, 0, 40, 8, 700),  # moved to (2, 0)
    (0, 1, 0, 40, 8, 800),  # right press: flag the mine
    (0, 0, 0, 40, 8, 900),
    (1, 0, 0, 40, 24, 1400),  # left press on (2, 1)
    (0, 0, 0, 40, 24, 1500),
]


def test_a_clone_2007_replay_reads_and_plays() -> None:
    r = load(clone2007(STATES), "mvf")
    assert (r.version, r.software, r.player) == ("2007", "Minesweeper Clone 2007", "Ann")
    assert (r.width, r.height, r.mine_cells) == (3, 2, [(2, 0)])
    kinds = [e.kind for e in r.events]
    assert kinds == ["lc", "mv", "lr", "mv", "rc", "rr", "mv", "lc", "lr"]
    assert r.events[2].cell == (0, 1) and r.events[2].time_ms == 100
    assert [(a.kind, a.cell) for a in play_events(r).actions] == [
        ("open", (0, 1)),
        ("flag", (2, 0)),
        ("open", (2, 1)),
    ]
    assert play_events(r).won
    assert r.time_ms == 1400  # from the first left release to the last event


def test_clone_2007_truncated_or_with_a_bad_mine() -> None:
    raw = clone2007(STATES)
    for cut in (60, 75, 85, len(raw) - 3):
        with pytest.raises(ReplayFormatError, match="mvf replay, byte"):
            load(raw[:cut], "mvf")
    bad = bytearray(raw)
    bad[71 + 17] = 9  # the mine's column, counted from 1, off the 3-column board
    with pytest.raises(ReplayFormatError, match="a mine on the 3x2 board"):
        load(bytes(bad), "mvf")
