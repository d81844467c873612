"""Levels and first-click rules: a board size with its mines, and which cells the first
click protects.

A level is a preset name (``beginner``, ``intermediate``, ``expert``) or ``WxHxM`` in the
one size grammar of positions (:func:`~minesolver.position.parse_dimensions`). The first
click's cell is chosen by the caller (``corner`` = (0, 0), ``centre`` or ``X,Y``); the
first-click rule says which cells stay free of mines: ``safe`` (the first cell),
``opening`` (the first cell and its neighbours) or ``none``.

>>> parse_level("expert")
Level(width=30, height=16, mines=99, name='expert')
>>> sorted(excluded_cells(3, 3, (0, 0), "opening"))
[0, 1, 3, 4]

Cost: parsing is O(length of the text); :func:`excluded_cells` is O(1) after the
board's neighbour table (O(cells), cached).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from minesolver.errors import plural
from minesolver.game.errors import GameError, LevelError
from minesolver.position import Cell, PositionFormatError, neighbour_table, parse_dimensions

__all__ = [
    "FIRST_CLICK_RULES",
    "PRESETS",
    "FirstClick",
    "Level",
    "check_level",
    "check_rule",
    "excluded_cells",
    "parse_level",
    "parse_start",
]

FirstClick = Literal["safe", "opening", "none"]
"""First-click rule: the first cell safe, the first cell an opening, or no protection."""
FIRST_CLICK_RULES: tuple[str, ...] = get_args(FirstClick)


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
            f"board when the first click at {start} is {rule!r} ({plural(room, 'cell')} available)"
        )
