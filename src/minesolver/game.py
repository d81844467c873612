"""The game: levels, mine layouts, the rules, and layout files.

A :class:`Game` owns the hidden mine :class:`Layout` and the state of each cell; a player
only ever gets :meth:`Game.view`, an immutable :class:`~minesolver.position.Position`
holding no reference to the layout, so the separation is structural.

Rules (classic Windows Minesweeper):

- the first click's cell is chosen by the caller (``corner`` = (0, 0), ``centre`` or
  ``X,Y``); when the game lays its own mines it does so *after* the first click is known,
  uniformly at random among the layouts the first-click rule allows: ``safe`` (the first
  cell is mine-free), ``opening`` (the first cell and its neighbours are mine-free) or
  ``none`` (no protection);
- opening a cell with no mine around it opens its neighbours, recursively (flood fill;
  flagged cells are left alone);
- a chord on a digit whose flagged neighbours number the digit opens its other hidden
  neighbours;
- the game is won when every safe cell is open, lost when a mine is opened.

Layouts are read and written as MBF (width byte, height byte, big-endian 16-bit mine
count, then an ``x, y`` byte pair per mine; several records may follow one another in one
file) and as a text list, one layout per line::

    # comment
    9x9x10: 0,3 4,4 8,8 ...

Bad input raises a :class:`GameError` (a ``ValueError``) naming the file and the byte
offset or line.

Complexity: laying a layout is O(cells); each reveal is O(cells opened).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

from minesolver.position import (
    FLAG,
    HIDDEN,
    Cell,
    Position,
    PositionFormatError,
    neighbour_table,
    parse_dimensions,
)

__all__ = [
    "FIRST_CLICK_RULES",
    "PRESETS",
    "FirstClick",
    "Game",
    "GameError",
    "Layout",
    "LayoutFormatError",
    "Level",
    "LevelError",
    "Status",
    "check_level",
    "check_rule",
    "dump_layouts",
    "excluded_cells",
    "load_layouts",
    "parse_level",
    "parse_start",
    "random_layout",
    "read_mbf",
    "read_text_layouts",
    "write_mbf",
    "write_text_layouts",
]

FirstClick = Literal["safe", "opening", "none"]
"""First-click rule: the first cell safe, the first cell an opening, or no protection."""
FIRST_CLICK_RULES: tuple[str, ...] = get_args(FirstClick)

Status = Literal["playing", "won", "lost"]


class GameError(ValueError):
    """Bad input to the game: a level, a cell, a layout or a layout file."""


class LevelError(GameError):
    """A level that cannot be played: malformed text or more mines than fit."""


class LayoutFormatError(GameError):
    """A layout file that cannot be read; the message names the file and where."""


@dataclass(frozen=True, slots=True)
class Level:
    """A board size and its number of mines; ``name`` is the preset's or ``WxHxM``."""

    width: int
    height: int
    mines: int
    name: str = ""

    def __str__(self) -> str:
        return self.name or f"{self.width}x{self.height}x{self.mines}"

    @property
    def cells(self) -> int:
        """Number of cells on the board."""
        return self.width * self.height


PRESETS: dict[str, Level] = {
    "beginner": Level(9, 9, 10, "beginner"),
    "intermediate": Level(16, 16, 40, "intermediate"),
    "expert": Level(30, 16, 99, "expert"),
}
"""The three classic levels."""

MAX_MBF_SIDE = 255


def parse_level(text: str) -> Level:
    """A preset name (``beginner``, ``intermediate``, ``expert``) or ``WxHxM``.

    The size grammar and limits are the position header's
    (:func:`~minesolver.position.parse_dimensions`); raises :class:`LevelError` for
    anything else. (MBF files hold at most 255 a side: :func:`write_mbf` says so.)
    """
    key = text.strip().lower()
    if key in PRESETS:
        return PRESETS[key]
    try:
        size = parse_dimensions(key, f"level {text!r}")
    except PositionFormatError as exc:
        raise LevelError(str(exc)) from None
    if size is None:
        raise LevelError(
            f"level {text!r}: expected beginner, intermediate, expert or WIDTHxHEIGHTxMINES"
        )
    width, height, mines = size
    return Level(width, height, mines, f"{width}x{height}x{mines}")


def parse_start(text: str, width: int, height: int) -> Cell:
    """The first click's cell: ``corner`` (0, 0), ``centre`` (``center``) or ``X,Y``."""
    key = text.strip().lower()
    if key == "corner":
        return 0, 0
    if key in ("centre", "center"):
        return width // 2, height // 2
    parts = key.replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise GameError(f"start {text!r}: expected corner, centre or X,Y")
    x, y = int(parts[0]), int(parts[1])
    if not (0 <= x < width and 0 <= y < height):
        raise GameError(f"start {text!r}: cell ({x}, {y}) is off the {width}x{height} board")
    return x, y


def check_rule(rule: str) -> FirstClick:
    """``rule`` as a :data:`FirstClick`, or :class:`GameError` naming the choices."""
    if rule not in FIRST_CLICK_RULES:
        choices = ", ".join(FIRST_CLICK_RULES)
        raise GameError(f"first-click rule {rule!r}: expected one of {choices}")
    return rule  # type: ignore[return-value]


def excluded_cells(width: int, height: int, start: Cell, rule: FirstClick) -> frozenset[int]:
    """Indices the first-click rule keeps free of mines when the first click is ``start``."""
    check_rule(rule)
    x, y = start
    if not (0 <= x < width and 0 <= y < height):
        raise GameError(f"first click ({x}, {y}) is off the {width}x{height} board")
    index = y * width + x
    if rule == "none":
        return frozenset()
    if rule == "safe":
        return frozenset((index,))
    return frozenset((index, *neighbour_table(width, height)[index]))


def check_level(level: Level, start: Cell, rule: FirstClick) -> None:
    """Raise :class:`LevelError` when the mines do not fit beside the protected cells."""
    free = excluded_cells(level.width, level.height, start, rule)
    room = level.cells - len(free)
    if level.mines > room:
        raise LevelError(
            f"level {level}: {level.mines} mines do not fit a {level.width}x{level.height} "
            f"board when the first click at {start} is {rule!r} ({room} cells available)"
        )


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the mines are: a board size and the sorted row-major indices of its mines."""

    width: int
    height: int
    mines: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise GameError(f"layout: board {self.width}x{self.height} is smaller than 1x1")
        cells = self.width * self.height
        if len(set(self.mines)) != len(self.mines):
            raise GameError("layout: a mine is listed twice")
        for i in self.mines:
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
    def level(self) -> Level:
        """The layout's board size and mine count."""
        return Level(self.width, self.height, len(self.mines))

    def cells(self) -> list[Cell]:
        """Mine coordinates ``(x, y)`` in reading order."""
        return [(i % self.width, i // self.width) for i in self.mines]

    def is_mine(self, cell: Cell) -> bool:
        """Whether ``cell`` holds a mine."""
        x, y = cell
        return y * self.width + x in set(self.mines)


def random_layout(
    level: Level, rng: random.Random, start: Cell | None = None, rule: FirstClick = "safe"
) -> Layout:
    """A layout drawn uniformly among those the first-click rule allows at ``start``.

    Uniform because the mines are a uniform sample of the cells the rule leaves free
    (``rng.sample``); ``start`` ``None`` means no first click is known (rule ignored).
    """
    if start is None:
        free: frozenset[int] = frozenset()
    else:
        check_level(level, start, rule)
        free = excluded_cells(level.width, level.height, start, rule)
    allowed = [i for i in range(level.cells) if i not in free]
    if level.mines > len(allowed):
        raise LevelError(f"level {level}: {level.mines} mines do not fit")
    return Layout(level.width, level.height, tuple(sorted(rng.sample(allowed, level.mines))))


@dataclass(slots=True)
class Game:
    """One game: the hidden layout, what is open or flagged, and whether it is over.

    Build it with a layout (:meth:`from_layout`) or let it lay one at the first click
    (:meth:`new`): then the mines are drawn from ``rng`` after the first cell is known,
    as the first-click ``rule`` allows. The player gets :meth:`view`, never the game.
    """

    width: int
    height: int
    mines: int
    rule: FirstClick = "safe"
    rng: random.Random | None = None
    layout: Layout | None = field(default=None, repr=False)
    status: Status = field(default="playing", init=False)
    exploded: Cell | None = field(default=None, init=False)
    _cells: list[int] = field(default_factory=list, init=False, repr=False)
    _mine: list[bool] = field(default_factory=list, init=False, repr=False)
    _digits: list[int] = field(default_factory=list, init=False, repr=False)
    _safe_left: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        level = Level(self.width, self.height, self.mines)
        if self.mines > level.cells or self.mines < 0:
            raise LevelError(f"level {level}: {self.mines} mines do not fit")
        self._cells = [HIDDEN] * level.cells
        if self.layout is not None:
            self._lay(self.layout)

    @classmethod
    def new(cls, level: Level, rng: random.Random, rule: FirstClick = "safe") -> Game:
        """A game whose mines are laid from ``rng`` when the first cell is opened."""
        check_rule(rule)
        return cls(level.width, level.height, level.mines, rule=rule, rng=rng)

    @classmethod
    def from_layout(cls, layout: Layout) -> Game:
        """A game on a given layout (the first-click rule does not apply)."""
        return cls(layout.width, layout.height, len(layout.mines), layout=layout)

    def _lay(self, layout: Layout) -> None:
        if (layout.width, layout.height, len(layout.mines)) != (
            self.width,
            self.height,
            self.mines,
        ):
            raise GameError("layout does not match the game's board and mine count")
        self.layout = layout
        n = self.width * self.height
        mine = [False] * n
        for i in layout.mines:
            mine[i] = True
        table = neighbour_table(self.width, self.height)
        self._mine = mine
        self._digits = [sum(mine[j] for j in table[i]) for i in range(n)]
        self._safe_left = n - self.mines

    # -- what the player sees ------------------------------------------------------------

    def view(self) -> Position:
        """The position the player sees: a value object with no link to the layout."""
        return Position(self.width, self.height, tuple(self._cells), self.mines)

    @property
    def over(self) -> bool:
        """Whether the game is won or lost."""
        return self.status != "playing"

    @property
    def started(self) -> bool:
        """Whether the mines are laid (after the first open, or given)."""
        return self.layout is not None

    def _index(self, cell: Cell) -> int:
        x, y = cell
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise GameError(f"cell ({x}, {y}) is off the {self.width}x{self.height} board")
        return y * self.width + x

    # -- moves ---------------------------------------------------------------------------

    def open(self, cell: Cell) -> list[Cell]:
        """Open ``cell`` (flood-filling from zeros); returns the cells opened.

        Opening a flagged or open cell, or any cell once the game is over, does nothing.
        On the first open of a game without a layout, the mines are laid first.
        """
        index = self._index(cell)
        if self.over or self._cells[index] != HIDDEN:
            return []
        if self.layout is None:
            if self.rng is None:
                raise GameError("game has neither a layout nor a random generator")
            level = Level(self.width, self.height, self.mines)
            self._lay(random_layout(level, self.rng, cell, self.rule))
        if self._mine[index]:
            self.status = "lost"
            self.exploded = cell
            return [cell]
        return [(i % self.width, i // self.width) for i in self._reveal(index)]

    def _reveal(self, start: int) -> list[int]:
        """Open the safe cell ``start`` and flood-fill from zeros; O(cells opened)."""
        cells, digits = self._cells, self._digits
        table = neighbour_table(self.width, self.height)
        opened = [start]
        cells[start] = digits[start]
        stack = [start] if digits[start] == 0 else []
        while stack:
            i = stack.pop()
            for j in table[i]:
                if cells[j] == HIDDEN:
                    cells[j] = digits[j]
                    opened.append(j)
                    if digits[j] == 0:
                        stack.append(j)
        self._safe_left -= len(opened)
        if self._safe_left == 0:
            self.status = "won"
        return opened

    def _switch(self, cell: Cell, old: int, new: int) -> bool:
        index = self._index(cell)
        if self.over or self._cells[index] != old:
            return False
        self._cells[index] = new
        return True

    def flag(self, cell: Cell) -> bool:
        """Flag a hidden cell; returns whether it changed."""
        return self._switch(cell, HIDDEN, FLAG)

    def unflag(self, cell: Cell) -> bool:
        """Remove a flag; returns whether it changed."""
        return self._switch(cell, FLAG, HIDDEN)

    def toggle_flag(self, cell: Cell) -> bool:
        """Flag a hidden cell or unflag a flagged one; returns whether it changed."""
        return self.flag(cell) or self.unflag(cell)

    def chord(self, cell: Cell) -> list[Cell]:
        """On an open digit with as many flags around it, open its other hidden neighbours.

        Returns the cells opened (a mine among them, under a wrong flag, loses the game);
        a chord that does not apply does nothing.
        """
        index = self._index(cell)
        digit = self._cells[index]
        if self.over or digit < 0:
            return []
        table = neighbour_table(self.width, self.height)
        around = table[index]
        if sum(self._cells[j] == FLAG for j in around) != digit:
            return []
        opened: list[Cell] = []
        for j in around:
            if self._cells[j] == HIDDEN and not self.over:
                opened.extend(self.open((j % self.width, j // self.width)))
        return opened

    # -- after the game ------------------------------------------------------------------

    def mine_cells(self) -> list[Cell]:
        """The mines, for showing once the game is over (never given to a player)."""
        return [] if self.layout is None else self.layout.cells()


# -- layout files ------------------------------------------------------------------------


def write_mbf(layouts: Layout | Sequence[Layout]) -> bytes:
    """MBF bytes of one layout, or of several records one after another."""
    items = [layouts] if isinstance(layouts, Layout) else list(layouts)
    out = bytearray()
    for layout in items:
        if layout.width > MAX_MBF_SIDE or layout.height > MAX_MBF_SIDE:
            raise GameError(f"layout {layout.level}: MBF holds at most 255 per side")
        if len(layout.mines) > 0xFFFF:
            raise GameError(f"layout {layout.level}: MBF holds at most 65535 mines")
        out += bytes((layout.width, layout.height))
        out += len(layout.mines).to_bytes(2, "big")
        for x, y in layout.cells():
            out += bytes((x, y))
    return bytes(out)


def read_mbf(data: bytes, source: str = "<bytes>") -> list[Layout]:
    """Every MBF record in ``data``; :class:`LayoutFormatError` names source and offset."""
    layouts: list[Layout] = []
    offset = 0
    if not data:
        raise LayoutFormatError(f"{source}: empty MBF file")
    while offset < len(data):
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
        for k in range(count):
            at = offset + 4 + 2 * k
            x, y = data[at], data[at + 1]
            if x >= width or y >= height:
                raise LayoutFormatError(
                    f"{source}, offset {at}: mine ({x}, {y}) is off the {width}x{height} board"
                )
            index = y * width + x
            if index in seen:
                raise LayoutFormatError(f"{source}, offset {at}: mine ({x}, {y}) listed twice")
            seen.add(index)
        layouts.append(Layout(width, height, tuple(sorted(seen))))
        offset = end
    return layouts


_MINE = re.compile(r"^(\d+),(\d+)$")


def write_text_layouts(layouts: Iterable[Layout]) -> str:
    """The text list: one ``WxHxM: x,y x,y ...`` line per layout."""
    lines = []
    for layout in layouts:
        mines = " ".join(f"{x},{y}" for x, y in layout.cells())
        lines.append(f"{layout.width}x{layout.height}x{len(layout.mines)}: {mines}".rstrip())
    return "\n".join(lines) + "\n"


def read_text_layouts(text: str, source: str = "<text>") -> list[Layout]:
    """Read the text list (blank lines and ``#`` comments ignored).

    Raises :class:`LayoutFormatError` naming the source and the line (1-based).
    """
    layouts = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        head, colon, rest = line.partition(":")
        try:
            size = parse_dimensions(head, f"{source}, line {number}") if colon else None
        except PositionFormatError as exc:
            raise LayoutFormatError(str(exc)) from None
        if size is None:
            raise LayoutFormatError(
                f"{source}, line {number}: expected 'WIDTHxHEIGHTxMINES: x,y x,y ...'"
            )
        width, height, count = size
        cells: list[Cell] = []
        for token in rest.split():
            mine = _MINE.match(token)
            if not mine:
                raise LayoutFormatError(f"{source}, line {number}: bad mine {token!r} (want x,y)")
            x, y = int(mine.group(1)), int(mine.group(2))
            if not (x < width and y < height):
                raise LayoutFormatError(
                    f"{source}, line {number}: mine ({x}, {y}) is off the {width}x{height} board"
                )
            cells.append((x, y))
        if len(set(cells)) != len(cells):
            raise LayoutFormatError(f"{source}, line {number}: a mine is listed twice")
        if len(cells) != count:
            raise LayoutFormatError(
                f"{source}, line {number}: header says {count} mines, {len(cells)} listed"
            )
        layouts.append(Layout.from_cells(width, height, cells))
    if not layouts:
        raise LayoutFormatError(f"{source}: no layout in the file")
    return layouts


def _looks_binary(data: bytes) -> bool:
    return any(b < 9 or 13 < b < 32 for b in data[:4096])


def load_layouts(path: str | Path) -> list[Layout]:
    """Layouts from a file: MBF (``.mbf`` or binary content) or the text list.

    Raises :class:`LayoutFormatError` when the file cannot be read or parsed.
    """
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LayoutFormatError(f"cannot read {source}: {exc.strerror or exc}") from exc
    if source.lower().endswith(".mbf") or _looks_binary(data):
        return read_mbf(data, source)
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
