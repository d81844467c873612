"""Draw boards in the classic skin: the tiles of Minesweeper Arbiter, Viennasweeper,
Minesweeper X, Metasweeper and minesweeper.online (and Windows XP's Minesweeper).

Those programs run on Windows only, so their screenshots cannot be taken here; this module
draws their well-known tiles instead (grey raised hidden cells, flat revealed cells with a
darker grid line, the coloured digits, flags and mines), pixel for pixel at 16 pixels a
cell as the originals are, and the window around them (title bar, menu, the two red
counters and the face). The drawings are approximations made by hand, not copies of the
programs' images: the reader's classic templates are built from them, and the
documentation says so.

What it is for: building the classic templates (``scripts/build_vision_templates.py``),
the benchmark's generated screenshots and the tests. Cost: O(pixels) of the image drawn.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from minesolver.position import FLAG, HIDDEN, Position
from minesolver.vision._load import pillow

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "CELL",
    "EXPLODED",
    "MINE",
    "WRONG_FLAG",
    "classic_cell",
    "classic_window",
    "counter_text",
    "desktop",
    "every_label_board",
    "mines_left",
    "random_board",
]

CELL = 16
"""The classic skin's cell side at 100% scale, in pixels."""
MINE = -3
"""A revealed mine (the board of a lost game)."""
EXPLODED = -4
"""The mine that was clicked (drawn on red)."""
WRONG_FLAG = -5
"""A flag on a safe cell, crossed out when the game is lost."""

_GLYPHS: dict[int, tuple[str, ...]] = {
    1: (
        "...##...",
        "..###...",
        ".####...",
        "...##...",
        "...##...",
        "...##...",
        "...##...",
        ".######.",
        ".######.",
    ),
    2: (
        ".######.",
        "##....##",
        "......##",
        "....###.",
        "..###...",
        ".##.....",
        "##......",
        "########",
        "########",
    ),
    3: (
        "#######.",
        "......##",
        "......##",
        "..#####.",
        "..#####.",
        "......##",
        "......##",
        "#######.",
        "#######.",
    ),
    4: (
        "...###..",
        "..####..",
        ".##.##..",
        "##..##..",
        "########",
        "########",
        "....##..",
        "....##..",
        "....##..",
    ),
    5: (
        "########",
        "##......",
        "##......",
        "#######.",
        "......##",
        "......##",
        "##....##",
        "#######.",
        ".#####..",
    ),
    6: (
        ".######.",
        "##......",
        "##......",
        "#######.",
        "##....##",
        "##....##",
        "##....##",
        "#######.",
        ".######.",
    ),
    7: (
        "########",
        "########",
        "......##",
        ".....##.",
        "....##..",
        "...##...",
        "...##...",
        "...##...",
        "...##...",
    ),
    8: (
        ".######.",
        "##....##",
        "##....##",
        ".######.",
        "##....##",
        "##....##",
        "##....##",
        "########",
        ".######.",
    ),
}
_COLOURS = {
    1: (0, 0, 255),
    2: (0, 128, 0),
    3: (255, 0, 0),
    4: (0, 0, 128),
    5: (128, 0, 0),
    6: (0, 128, 128),
    7: (0, 0, 0),
    8: (128, 128, 128),
}
_SEGMENTS = {  # seven segments a-g of the counters' digits
    "0": "abcdef",
    "1": "bc",
    "2": "abged",
    "3": "abgcd",
    "4": "fgbc",
    "5": "afgcd",
    "6": "afgedc",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
}
_SEGMENT_SHAPES = {  # the seven segments within a 13x23 digit: hexagons 3 pixels thick
    "a": ((2, 1), (10, 1), (9, 3), (3, 3)),
    "d": ((3, 19), (9, 19), (10, 21), (2, 21)),
    "g": ((3, 10), (9, 10), (10, 11), (9, 12), (3, 12), (2, 11)),
    "f": ((1, 2), (3, 4), (3, 9), (1, 10)),
    "e": ((1, 12), (3, 13), (3, 18), (1, 20)),
    "b": ((11, 2), (11, 10), (9, 9), (9, 4)),
    "c": ((11, 12), (11, 20), (9, 18), (9, 13)),
}
GREY, LIGHT, DARK = (192, 192, 192), (255, 255, 255), (128, 128, 128)


def classic_cell(value: int) -> Image:
    """One 16x16 cell of the classic skin: a :class:`~minesolver.position.Position` cell
    value, or :data:`MINE`, :data:`EXPLODED`, :data:`WRONG_FLAG`."""
    image_module, draw_module = pillow()
    tile: Image = image_module.new("RGB", (CELL, CELL), GREY)
    draw = draw_module.Draw(tile)
    if value in (HIDDEN, FLAG):
        draw.rectangle((0, 0, 15, 1), fill=LIGHT)
        draw.rectangle((0, 0, 1, 15), fill=LIGHT)
        draw.rectangle((0, 14, 15, 15), fill=DARK)
        draw.rectangle((14, 0, 15, 15), fill=DARK)
        draw.point([(1, 14), (14, 1), (0, 15), (15, 0)], fill=LIGHT)
        draw.point([(1, 14), (14, 1)], fill=DARK)
        if value == FLAG:
            draw.polygon([(8, 3), (8, 8), (4, 5.5)], fill=(255, 0, 0))
            draw.rectangle((8, 3, 8, 10), fill=(0, 0, 0))
            draw.rectangle((6, 10, 10, 10), fill=(0, 0, 0))
            draw.rectangle((4, 11, 12, 12), fill=(0, 0, 0))
        return tile
    if value == EXPLODED:
        draw.rectangle((1, 1, 15, 15), fill=(255, 0, 0))
    draw.line((0, 0, 15, 0), fill=DARK)
    draw.line((0, 0, 0, 15), fill=DARK)
    if value in (MINE, EXPLODED, WRONG_FLAG):
        draw.ellipse((4, 4, 12, 12), fill=(0, 0, 0))
        draw.line((8, 2, 8, 14), fill=(0, 0, 0))
        draw.line((2, 8, 14, 8), fill=(0, 0, 0))
        draw.point([(4, 4), (12, 4), (4, 12), (12, 12)], fill=(0, 0, 0))
        draw.rectangle((6, 6, 7, 7), fill=LIGHT)
        if value == WRONG_FLAG:
            draw.line((3, 3, 13, 13), fill=(255, 0, 0), width=2)
            draw.line((13, 3, 3, 13), fill=(255, 0, 0), width=2)
    elif 1 <= value <= 8:
        colour = _COLOURS[value]
        for row, bits in enumerate(_GLYPHS[value]):
            for col, bit in enumerate(bits):
                if bit == "#":
                    draw.point((4 + col, 4 + row), fill=colour)
    return tile


def _bevel(draw: object, box: tuple[int, int, int, int], width: int, raised: bool) -> None:
    """A 3D frame of ``width`` pixels inside ``box`` (light top-left when raised)."""
    x0, y0, x1, y1 = box
    top, bottom = (LIGHT, DARK) if raised else (DARK, LIGHT)
    for i in range(width):
        draw.line((x0 + i, y0 + i, x1 - i, y0 + i), fill=top)  # type: ignore[attr-defined]
        draw.line((x0 + i, y0 + i, x0 + i, y1 - i), fill=top)  # type: ignore[attr-defined]
        draw.line((x0 + i + 1, y1 - i, x1 - i, y1 - i), fill=bottom)  # type: ignore[attr-defined]
        draw.line((x1 - i, y0 + i + 1, x1 - i, y1 - i), fill=bottom)  # type: ignore[attr-defined]


def _counter(draw: object, x: int, y: int, value: int) -> None:
    """The classic mine counter at ``(x, y)``: a box of 41x25 pixels, sunken by one
    pixel (dark grey top and left, white bottom and right), black inside, holding three
    seven-segment digits of 13x23 pixels side by side, as Windows' Minesweeper and its
    clones draw it: lit segments red, unlit ones dark red, segments three pixels thick
    with pointed ends. A negative value shows ``-`` and two digits (down to -99), a value
    above 999 shows 999."""
    _bevel(draw, (x, y, x + 40, y + 24), 1, raised=False)
    draw.rectangle((x + 1, y + 1, x + 39, y + 23), fill=(0, 0, 0))  # type: ignore[attr-defined]
    text = counter_text(value)
    for i, ch in enumerate(text):
        dx, dy = x + 1 + 13 * i, y + 1
        on = _SEGMENTS[ch]
        for seg in "abcdefg":
            colour = (255, 0, 0) if seg in on else (128, 0, 0)
            draw.polygon(  # type: ignore[attr-defined]
                [(dx + px, dy + py) for px, py in _SEGMENT_SHAPES[seg]], fill=colour
            )


def counter_text(value: int) -> str:
    """The three characters a classic counter shows for ``value``: ``010``, ``-05``
    (at least -99, at most 999)."""
    value = max(-99, min(999, value))
    return f"{value:03d}" if value >= 0 else f"-{-value:02d}"


def mines_left(cells: list[int], mines: int) -> int:
    """What the mine counter shows for a board: the mines less the flags placed (the
    crossed-out wrong flags of a lost game included), negative when more flags than
    mines are placed."""
    return mines - sum(1 for v in cells if v in (FLAG, WRONG_FLAG))


def classic_window(
    cells: list[int], width: int, height: int, counter: int, *, xp: bool = False
) -> tuple[Image, tuple[int, int]]:
    """A whole classic Minesweeper window showing ``cells`` (row-major values as
    :func:`classic_cell` takes), the mine counter showing ``counter``; ``xp`` draws the
    Windows XP frame (blue title bar) instead of the Windows 98 one.

    Returns the image and the board's top-left corner in it.
    """
    image_module, draw_module = pillow()
    board_w, board_h = width * CELL, height * CELL
    frame = 4 if xp else 3
    title = 25 if xp else 18
    menu = 20
    inner_x = frame + 9
    panel_y = frame + title + menu + 9
    board_y = panel_y + 37 + 6
    win_w = inner_x * 2 + board_w + 6
    win_h = board_y + board_h + 9 + 3 + frame
    win: Image = image_module.new("RGB", (win_w, win_h), GREY)
    draw = draw_module.Draw(win)
    if xp:
        draw.rectangle((0, 0, win_w - 1, win_h - 1), fill=(0, 84, 227))
        draw.rectangle((frame, frame + title, win_w - frame - 1, win_h - frame - 1), fill=GREY)
        draw.rectangle(
            (frame, frame + title, win_w - frame - 1, frame + title + menu), fill=(236, 233, 216)
        )
        draw.text((frame + 24, frame + 6), "Minesweeper", fill=LIGHT)
        draw.rectangle(
            (win_w - frame - 24, frame + 2, win_w - frame - 4, frame + 21), fill=(224, 67, 29)
        )
    else:
        _bevel(draw, (0, 0, win_w - 1, win_h - 1), 2, raised=True)
        draw.rectangle((frame, frame, win_w - frame - 1, frame + title - 1), fill=(0, 0, 128))
        draw.text((frame + 20, frame + 3), "Minesweeper", fill=LIGHT)
    draw.text((frame + 6, frame + title + 4), "Game   Help", fill=(0, 0, 0))
    _bevel(draw, (inner_x - 3, panel_y - 3, win_w - inner_x + 2, panel_y + 36), 2, raised=False)
    _counter(draw, inner_x + 4, panel_y + 5, counter)
    _counter(draw, win_w - inner_x - 46, panel_y + 5, 0)
    face_x = win_w // 2 - 13
    _bevel(draw, (face_x, panel_y + 5, face_x + 25, panel_y + 30), 2, raised=True)
    draw.ellipse(
        (face_x + 5, panel_y + 10, face_x + 20, panel_y + 25), fill=(255, 255, 0), outline=(0, 0, 0)
    )
    _bevel(
        draw,
        (inner_x - 3, board_y - 3, inner_x + board_w + 2, board_y + board_h + 2),
        3,
        raised=False,
    )
    tiles: dict[int, Image] = {}
    for i, value in enumerate(cells):
        tile = tiles.get(value)
        if tile is None:
            tile = tiles[value] = classic_cell(value)
        win.paste(tile, (inner_x + (i % width) * CELL, board_y + (i // width) * CELL))
    return win, (inner_x, board_y)


def desktop(rng: random.Random, size: tuple[int, int]) -> Image:
    """A cluttered desktop to place windows on: a background colour, other windows with
    title bars, text and lines, drawn from ``rng``."""
    image_module, draw_module = pillow()
    w, h = size
    bg = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    img: Image = image_module.new("RGB", size, bg)
    draw = draw_module.Draw(img)
    for _ in range(rng.randrange(2, 6)):
        x0, y0 = rng.randrange(w), rng.randrange(h)
        x1, y1 = x0 + rng.randrange(80, 500), y0 + rng.randrange(60, 400)
        face = tuple(rng.randrange(160, 256) for _ in range(3))
        draw.rectangle((x0, y0, x1, y1), fill=face, outline=(0, 0, 0))
        draw.rectangle((x0, y0, x1, y0 + 20), fill=(rng.randrange(100), 60, 160))
        for line in range(rng.randrange(1, 12)):
            words = " ".join(
                rng.choice(("mines", "grid", "0123", "File", "Edit", "42")) for _ in range(6)
            )
            draw.text((x0 + 6, y0 + 26 + 14 * line), words, fill=(0, 0, 0))
    return img


def board_cells(position: Position) -> list[int]:
    """The cell values of ``position`` as :func:`classic_window` takes them."""
    return list(position.cells)


def every_label_board(
    rng: random.Random, width: int, height: int, mines: int, *, lost: bool = False
) -> list[int]:
    """Like :func:`random_board`, but the board shows every digit 0 to 8 (and a flag): a
    few cells are given 5 to 8 mines around them and opened, so that the rare digits have
    examples. Needs a board of at least 12x6 and room for the mines planted (about 30).
    O(cells)."""
    n = width * height
    if width < 12 or height < 6:
        raise ValueError(f"a {width}x{height} board is too small to show every digit")
    centres: list[int] = []
    layout: set[int] = set()
    for k, digit in enumerate((8, 7, 6, 5, 4, 3, 2, 1)):
        x = 1 + (k % 4) * 3 + rng.randrange(0, max(1, (width - 12) // 4 + 1))
        y = 1 + (k // 4) * 3 + rng.randrange(0, max(1, (height - 6) // 2 + 1))
        x, y = min(x, width - 2), min(y, height - 2)
        around = [(y + dy) * width + x + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
        layout.update(rng.sample(around, digit))
        centres.append(y * width + x)
    layout -= set(centres)
    free = [i for i in range(n) if i not in layout and i not in centres]
    extra = max(0, mines - len(layout))
    layout.update(rng.sample(free, min(extra, len(free))))
    return random_board(rng, width, height, len(layout), lost=lost, layout=layout, open_=centres)


def random_board(
    rng: random.Random,
    width: int,
    height: int,
    mines: int,
    *,
    lost: bool = False,
    layout: set[int] | None = None,
    open_: list[int] | None = None,
) -> list[int]:
    """The cells of a game in progress drawn from ``rng``: mines laid uniformly (or at
    ``layout``), a random share of the safe cells opened (and those of ``open_``), their
    digits true, some mines flagged; with ``lost``, every mine shown, one of them
    exploded, and a wrong flag or two crossed out. The position is consistent: its true
    layout explains it."""
    n = width * height
    if layout is None:
        layout = set(rng.sample(range(n), mines))
    must = set(open_ or ())
    opened = rng.random() * 0.8 + 0.1
    cells = []
    for i in range(n):
        x, y = i % width, i // width
        if i in layout:
            cells.append(FLAG if rng.random() < 0.3 else HIDDEN)
            continue
        if rng.random() > opened and i not in must:
            cells.append(HIDDEN)
            continue
        near = sum(
            1
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if (dx or dy)
            and 0 <= x + dx < width
            and 0 <= y + dy < height
            and (y + dy) * width + x + dx in layout
        )
        cells.append(near)
    if lost:
        for i in layout:
            if cells[i] == HIDDEN:
                cells[i] = MINE
        if layout:
            cells[rng.choice(sorted(layout))] = EXPLODED
        wrong = [i for i in range(n) if i not in layout and cells[i] == HIDDEN]
        for i in rng.sample(wrong, min(2, len(wrong))):
            cells[i] = WRONG_FLAG
    return cells
