"""Shared steps of the readers: checking a board's size and building its layout."""

from __future__ import annotations

from minesolver.errors import plural
from minesolver.game import Layout
from minesolver.replay._bytes import ByteReader

__all__ = ["MAX_SIDE", "bitmap_layout", "check_board", "pair_layout"]

MAX_SIDE = 256
"""No replay format stores a side above 256 cells."""


def check_board(r: ByteReader, width: int, height: int, mines: int, offset: int) -> None:
    """Refuse an empty board, one larger than any format allows, or too many mines."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        r.fail(f"a board of 1 to {MAX_SIDE} cells a side", f"found {width}x{height}", offset)
    if mines > width * height:
        r.fail(
            f"at most {width * height} mines on a {width}x{height} board",
            f"found {mines}",
            offset,
        )


def pair_layout(
    r: ByteReader, width: int, height: int, mines: int, base: int, row_first: bool = False
) -> Layout:
    """``mines`` byte pairs (column then row, or row then column), counted from ``base``."""
    offset = r.pos
    raw = r.take(2 * mines, f"{mines} mine positions")
    cells: list[int] = []
    seen: set[int] = set()
    for k in range(mines):
        a, b = raw[2 * k] - base, raw[2 * k + 1] - base
        x, y = (b, a) if row_first else (a, b)
        where = offset + 2 * k
        if not (0 <= x < width and 0 <= y < height):
            r.fail(f"a mine on the {width}x{height} board", f"found ({x}, {y})", where)
        index = y * width + x
        if index in seen:
            r.fail("each mine once", f"({x}, {y}) is listed twice", where)
        seen.add(index)
        cells.append(index)
    return Layout(width, height, tuple(sorted(cells)))


def bitmap_layout(r: ByteReader, width: int, height: int, mines: int) -> Layout:
    """One bit per cell in reading order, most significant bit first; the count of set
    bits must be ``mines``."""
    offset = r.pos
    n = width * height
    raw = r.take((n + 7) // 8, f"the mine bitmap of {width}x{height} cells")
    bits = int.from_bytes(raw, "big") >> (8 * len(raw) - n)
    cells = _set_bits(bits, n)
    if len(cells) != mines:
        r.fail(f"{plural(mines, 'mine')} in the bitmap", f"found {len(cells)}", offset)
    return Layout(width, height, tuple(cells))


def _set_bits(bits: int, n: int) -> list[int]:
    """Indices (from the most significant of ``n`` bits) of the set bits, ascending."""
    text = format(bits, f"0{n}b") if n else ""
    return [i for i, c in enumerate(text) if c == "1"]
