"""Mine layouts: the value, drawing one at random, and the layout files (MBF and text).

A :class:`Layout` is a board size and the sorted row-major indices of its mines.
:func:`random_layout` draws one uniformly among those a first-click rule allows.

Layouts are read and written as MBF (width byte, height byte, big-endian 16-bit mine
count, then an ``x, y`` byte pair per mine; several records may follow one another in one
file) and as a text list, one layout per line::

    # comment
    9x9x10: 0,3 4,4 8,8 ...

>>> layout = Layout.from_cells(3, 2, [(2, 0), (0, 1)])
>>> write_text_layouts([layout])
'3x2x2: 2,0 0,1\\n'
>>> read_mbf(write_mbf(layout)) == [layout]
True

Bad input raises a :class:`~minesolver.game.LayoutFormatError` (a ``ValueError``) naming
the file and the byte offset or line.

Cost: drawing a layout is O(cells); reading or writing a file is O(its size).
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from minesolver.errors import plural
from minesolver.game.errors import GameError, LayoutFormatError, LevelError
from minesolver.game.levels import FirstClick, Level, check_level, excluded_cells
from minesolver.position import Cell, PositionFormatError, parse_dimensions

__all__ = [
    "MAX_MBF_SIDE",
    "Layout",
    "dump_layouts",
    "load_layouts",
    "random_layout",
    "read_mbf",
    "read_text_layouts",
    "write_mbf",
    "write_text_layouts",
]

MAX_MBF_SIDE = 255
"""Largest width or height an MBF record holds (one byte each)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the mines are: a board size and the sorted row-major indices of its mines
    (``mine_indices``: the index of ``(x, y)`` is ``y * width + x``).

    >>> layout = Layout.from_cells(3, 2, [(2, 0), (0, 1)])
    >>> layout.mine_indices, layout.cells(), layout.level.mines
    ((2, 3), [(2, 0), (0, 1)], 2)
    """

    width: int
    height: int
    mine_indices: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise GameError(f"layout: board {self.width}x{self.height} is smaller than 1x1")
        cells = self.width * self.height
        if len(set(self.mine_indices)) != len(self.mine_indices):
            raise GameError("layout: a mine is listed twice")
        for i in self.mine_indices:
            if not 0 <= i < cells:
                raise GameError(f"layout: mine index {i} is off the board")

    @classmethod
    def from_cells(cls, width: int, height: int, mines: Iterable[Cell]) -> Layout:
        """A layout from mine coordinates ``(x, y)``; raises :class:`GameError` off-board."""
        indices = []
        for x, y in mines:
            if not (0 <= x < width and 0 <= y < height):
                raise GameError(f"layout: mine ({x}, {y}) is off the {width}x{height} board")
            indices.append(y * width + x)
        return cls(width, height, tuple(sorted(indices)))

    @property
    def mines(self) -> tuple[int, ...]:
        """Deprecated name of :attr:`mine_indices` (``mines`` is a level's total)."""
        warnings.warn(
            "Layout.mines is deprecated: use Layout.mine_indices (or Layout.cells() for the "
            "coordinates, Layout.level.mines for the count)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.mine_indices

    @property
    def level(self) -> Level:
        """The layout's board size and mine count."""
        return Level(self.width, self.height, len(self.mine_indices))

    def cells(self) -> list[Cell]:
        """Mine coordinates ``(x, y)`` in reading order."""
        return [(i % self.width, i // self.width) for i in self.mine_indices]

    def is_mine(self, cell: Cell) -> bool:
        """Whether ``cell`` holds a mine."""
        x, y = cell
        return y * self.width + x in set(self.mine_indices)


def random_layout(
    level: Level, rng: random.Random, start: Cell | None = None, rule: FirstClick = "safe"
) -> Layout:
    """A layout drawn uniformly among those the first-click rule allows at ``start``.

    Uniform because the mines are a uniform sample of the cells the rule leaves free
    (``rng.sample``); ``start`` ``None`` means no first click is known (rule ignored).
    O(cells).
    """
    if start is None:
        free: frozenset[int] = frozenset()
    else:
        check_level(level, start, rule)
        free = excluded_cells(level.width, level.height, start, rule)
    allowed = [i for i in range(level.cells) if i not in free]
    if level.mines > len(allowed):
        raise LevelError(f"level {level}: {plural(level.mines, 'mine')} do not fit")
    return Layout(level.width, level.height, tuple(sorted(rng.sample(allowed, level.mines))))


# -- MBF ---------------------------------------------------------------------------------


def write_mbf(layouts: Layout | Sequence[Layout]) -> bytes:
    """MBF bytes of one layout, or of several records one after another."""
    items = [layouts] if isinstance(layouts, Layout) else list(layouts)
    out = bytearray()
    for layout in items:
        if layout.width > MAX_MBF_SIDE or layout.height > MAX_MBF_SIDE:
            raise GameError(f"layout {layout.level}: MBF holds at most 255 per side")
        if len(layout.mine_indices) > 0xFFFF:
            raise GameError(f"layout {layout.level}: MBF holds at most 65535 mines")
        out += bytes((layout.width, layout.height))
        out += len(layout.mine_indices).to_bytes(2, "big")
        for x, y in layout.cells():
            out += bytes((x, y))
    return bytes(out)


def read_mbf(data: bytes, source: str = "<bytes>") -> list[Layout]:
    """Every MBF record in ``data``; :class:`LayoutFormatError` names source and offset."""
    if not data:
        raise LayoutFormatError(f"{source}: empty MBF file")
    layouts: list[Layout] = []
    offset = 0
    while offset < len(data):
        layout, offset = _read_mbf_record(data, offset, source)
        layouts.append(layout)
    return layouts


def _read_mbf_record(data: bytes, offset: int, source: str) -> tuple[Layout, int]:
    """The MBF record at ``offset`` and the offset after it."""
    if len(data) - offset < 4:
        raise LayoutFormatError(
            f"{source}, offset {offset}: truncated MBF header "
            f"({len(data) - offset} bytes, 4 expected)"
        )
    width, height = data[offset], data[offset + 1]
    count = int.from_bytes(data[offset + 2 : offset + 4], "big")
    if width < 1 or height < 1:
        raise LayoutFormatError(f"{source}, offset {offset}: board {width}x{height}")
    if count > width * height:
        raise LayoutFormatError(
            f"{source}, offset {offset + 2}: {count} mines do not fit a {width}x{height} board"
        )
    end = offset + 4 + 2 * count
    if end > len(data):
        raise LayoutFormatError(
            f"{source}, offset {len(data)}: truncated MBF record ({count} mines need "
            f"{2 * count} bytes after offset {offset + 4})"
        )
    seen: set[int] = set()
    for at in range(offset + 4, end, 2):
        x, y = data[at], data[at + 1]
        if x >= width or y >= height:
            raise LayoutFormatError(
                f"{source}, offset {at}: mine ({x}, {y}) is off the {width}x{height} board"
            )
        index = y * width + x
        if index in seen:
            raise LayoutFormatError(f"{source}, offset {at}: mine ({x}, {y}) listed twice")
        seen.add(index)
    return Layout(width, height, tuple(sorted(seen))), end


# -- the text list -----------------------------------------------------------------------

_MINE = re.compile(r"^(\d+),(\d+)$")


def write_text_layouts(layouts: Iterable[Layout]) -> str:
    """The text list: one ``WxHxM: x,y x,y ...`` line per layout."""
    lines = []
    for layout in layouts:
        mines = " ".join(f"{x},{y}" for x, y in layout.cells())
        lines.append(f"{layout.width}x{layout.height}x{len(layout.mine_indices)}: {mines}".rstrip())
    return "\n".join(lines) + "\n"


def read_text_layouts(text: str, source: str = "<text>") -> list[Layout]:
    """Read the text list (blank lines and ``#`` comments ignored).

    Raises :class:`LayoutFormatError` naming the source and the line (1-based).
    """
    layouts = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            layouts.append(_read_text_line(line, f"{source}, line {number}"))
    if not layouts:
        raise LayoutFormatError(f"{source}: no layout in the file")
    return layouts


def _read_text_line(line: str, where: str) -> Layout:
    """One ``WxHxM: x,y ...`` line (comment stripped); ``where`` names it in errors."""
    head, colon, rest = line.partition(":")
    try:
        size = parse_dimensions(head, where) if colon else None
    except PositionFormatError as exc:
        raise LayoutFormatError(str(exc)) from None
    if size is None:
        raise LayoutFormatError(f"{where}: expected 'WIDTHxHEIGHTxMINES: x,y x,y ...'")
    width, height, count = size
    cells: list[Cell] = []
    for token in rest.split():
        mine = _MINE.match(token)
        if not mine:
            raise LayoutFormatError(f"{where}: bad mine {token!r} (want x,y)")
        x, y = int(mine.group(1)), int(mine.group(2))
        if not (x < width and y < height):
            raise LayoutFormatError(f"{where}: mine ({x}, {y}) is off the {width}x{height} board")
        cells.append((x, y))
    if len(set(cells)) != len(cells):
        raise LayoutFormatError(f"{where}: a mine is listed twice")
    if len(cells) != count:
        raise LayoutFormatError(
            f"{where}: header says {plural(count, 'mine')}, {len(cells)} listed"
        )
    return Layout.from_cells(width, height, cells)


# -- files -------------------------------------------------------------------------------


def _looks_binary(data: bytes) -> bool:
    return any(b < 9 or 13 < b < 32 for b in data[:4096])


def load_layouts(path: str | Path) -> list[Layout]:
    """Layouts from a file: MBF (``.mbf`` or binary content) or the text list.

    Raises :class:`LayoutFormatError` when the file cannot be read or parsed; binary data
    that is not MBF (a replay, an image) is said to be no layout file.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LayoutFormatError(f"cannot read {source}: {exc.strerror or exc}") from exc
    if source.lower().endswith(".mbf"):
        return read_mbf(data, source)
    if _looks_binary(data):  # MBF has no signature: binary data is read as MBF or refused
        try:
            return read_mbf(data, source)
        except LayoutFormatError as exc:
            raise LayoutFormatError(
                f"{source} is not a layout file: binary data that is not MBF either ({exc})"
            ) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LayoutFormatError(f"{source}, offset {exc.start}: not UTF-8 text") from exc
    return read_text_layouts(text, source)


def dump_layouts(layouts: Sequence[Layout], path: str | Path) -> None:
    """Write layouts to ``path``: MBF when it ends in ``.mbf``, else the text list."""
    if str(path).lower().endswith(".mbf"):
        Path(path).write_bytes(write_mbf(layouts))
    else:
        Path(path).write_text(write_text_layouts(layouts), encoding="utf-8")
