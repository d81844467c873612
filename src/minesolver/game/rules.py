"""The rules: a :class:`Game` owns the hidden layout and the cells' state, and moves are
made with :meth:`Game.push`, which returns a :class:`Step` and keeps an :class:`Outcome`.

A player only ever gets :meth:`Game.view`, an immutable
:class:`~minesolver.position.Position` holding no reference to the layout, so the
separation is structural.

Rules (classic Windows Minesweeper):

- when the game lays its own mines it does so *after* the first open is known, uniformly
  among the layouts the first-click rule allows (:mod:`minesolver.game.levels`);
- opening a cell with no mine around it opens its neighbours, recursively (flood fill;
  flagged cells are left alone);
- a chord on a digit whose flagged neighbours number the digit opens its other hidden
  neighbours;
- the game is won when every safe cell is open, lost when a mine is opened.

:meth:`Game.push` is the one entry point for a move of any kind (``open``, ``flag``,
``unflag``, ``chord``). A move that is legal but does nothing is a no-op
(``Step.changed`` false): opening an open or flagged cell, flagging an open or flagged
cell, unflagging a cell without a flag, a chord on a digit whose flags do not number it.
A move that makes no sense is a :class:`~minesolver.game.GameError`: a cell off the
board, a chord on a hidden or flagged cell, an unknown kind, any move once the game is
over. There is no other way to change a game: every move is kept in
:attr:`Game.move_stack` with the time the game's ``clock`` gives it (the wall's
``time.monotonic`` unless the caller passes its own: a replay passes the times of its
mouse events, a test a fake).

>>> from minesolver.game.layouts import Layout
>>> game = Game.from_layout(Layout.from_cells(3, 1, [(2, 0)]))
>>> game.push(Move("open", (0, 0))).opened
((0, 0), (1, 0))
>>> game.outcome
Outcome(status=<Status.WON: 'won'>, exploded=None)

Cost: laying a layout is O(cells); a move is O(cells opened) plus a copy of one byte per
cell for its :class:`Step` (a memory copy: the :class:`Position` is built only when
:attr:`Step.view` is read, in O(cells)).
"""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from minesolver.errors import plural
from minesolver.game.errors import GameError, LevelError
from minesolver.game.layouts import Layout, random_layout
from minesolver.game.levels import FirstClick, Level, check_rule
from minesolver.game.move import Move, move_kind
from minesolver.position import (
    FLAG,
    HIDDEN,
    Cell,
    Position,
    coordinate_table,
    neighbour_table,
)

__all__ = ["Game", "Outcome", "Status", "Step"]


class Status(StrEnum):
    """Whether a game is on, won or lost. A ``str``: ``Status.WON == "won"``."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game stands: its :class:`Status` and, once lost, the mine that was opened.

    >>> str(Outcome(Status.LOST, (3, 4)))
    'lost at (3, 4)'
    """

    status: Status
    exploded: Cell | None = None

    def __str__(self) -> str:
        if self.exploded is None:
            return self.status.value
        return f"{self.status.value} at ({self.exploded[0]}, {self.exploded[1]})"

    @property
    def over(self) -> bool:
        """Whether the game is won or lost."""
        return self.status is not Status.PLAYING

    @property
    def won(self) -> bool:
        """Whether every safe cell is open."""
        return self.status is Status.WON

    @property
    def lost(self) -> bool:
        """Whether a mine was opened (:attr:`exploded` names it)."""
        return self.status is Status.LOST


_DECODE: tuple[int, ...] = (*range(9), *([0] * 245), FLAG, HIDDEN)
"""A byte of :meth:`Position.raw <minesolver.position.Position.raw>` -> the cell value."""

_PLAYING = Outcome(Status.PLAYING)
_WON = Outcome(Status.WON)


@dataclass(frozen=True, slots=True)
class Step:
    """What one :meth:`Game.push` did: what a replay or a face needs to show the move.

    ``opened`` lists the cells the move opened, in the order they were opened (a lost
    game's last one is the mine); ``changed`` says whether the move changed the board or
    the outcome (a no-op is a legal move that did nothing); ``outcome`` is the game's
    outcome after the move; :attr:`view` the position after it (the mine that lost stays
    hidden in it: the layout is shown only by :meth:`Game.mine_cells`). ``raw`` holds that
    position's cells one byte each, as :meth:`Position.raw
    <minesolver.position.Position.raw>` does (a snapshot: later moves do not change it; a
    copy of a few hundred bytes, so a step costs little when nobody reads its view);
    ``level`` is the game's board size and mines.
    """

    move: Move
    opened: tuple[Cell, ...]
    changed: bool
    outcome: Outcome
    raw: bytes = field(repr=False)
    level: Level = field(repr=False)

    @property
    def cells(self) -> tuple[int, ...]:
        """The cells after the move, as :attr:`Position.cells
        <minesolver.position.Position.cells>` (decoded on each read: O(cells))."""
        return tuple(map(_DECODE.__getitem__, self.raw))

    @property
    def view(self) -> Position:
        """The position after the move, as the player sees it (built on each read: O(cells))."""
        level = self.level
        return Position(level.width, level.height, self.cells, level.mines)


@dataclass(slots=True)
class Game:
    """One game: the hidden layout, what is open or flagged, and its :class:`Outcome`.

    Build it with a layout (:meth:`from_layout`) or let it lay one at the first open
    (:meth:`new`): then the mines are drawn from ``rng`` after the first cell is known,
    as the first-click ``rule`` allows. Moves go through :meth:`push`, the one way to
    change a game. The player gets :meth:`view`, never the game.

    ``clock`` times the moves kept in :attr:`move_stack`: called once per move, it returns
    seconds (``time.monotonic`` by default; a replay passes the times of its events).

    >>> times = iter([10.0, 12.5])
    >>> game = Game.from_layout(Layout.from_cells(3, 1, [(2, 0)]), clock=lambda: next(times))
    >>> _ = game.push(Move("flag", (2, 0))), game.push(Move("open", (0, 0)))
    >>> [(move.kind, t) for move, t in game.move_stack]
    [('flag', 10.0), ('open', 12.5)]
    """

    width: int
    height: int
    mines: int
    rule: FirstClick = "safe"
    rng: random.Random | None = None
    layout: Layout | None = field(default=None, repr=False)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False, compare=False)
    _outcome: Outcome = field(default=_PLAYING, init=False, repr=False)
    _cells: list[int] = field(default_factory=list, init=False, repr=False)
    _raw: bytearray = field(default_factory=bytearray, init=False, repr=False)
    _mine: list[bool] = field(default_factory=list, init=False, repr=False)
    _digits: list[int] = field(default_factory=list, init=False, repr=False)
    _safe_left: int = field(default=0, init=False, repr=False)
    _level: Level = field(default=Level(1, 1, 0), init=False, repr=False)
    _neighbours: tuple[tuple[int, ...], ...] = field(default=(), init=False, repr=False)
    _coords: tuple[Cell, ...] = field(default=(), init=False, repr=False)
    move_stack: list[tuple[Move, float]] = field(default_factory=list, init=False, repr=False)
    """Every move :meth:`push` accepted, no-ops included, with the time ``clock`` gave it
    (what a replay of the game records)."""

    def __post_init__(self) -> None:
        level = self._level = Level(self.width, self.height, self.mines)
        if self.mines > level.cells or self.mines < 0:
            raise LevelError(f"level {level}: {plural(self.mines, 'mine')} do not fit")
        self._cells = [HIDDEN] * level.cells
        self._raw = bytearray(b"\xff" * level.cells)  # _cells one byte each, for snapshots
        self._neighbours = neighbour_table(self.width, self.height)
        self._coords = coordinate_table(self.width, self.height)
        if self.layout is not None:
            self._lay(self.layout)

    @classmethod
    def new(
        cls,
        level: Level,
        rng: random.Random,
        rule: FirstClick = "safe",
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> Game:
        """A game whose mines are laid from ``rng`` when the first cell is opened."""
        check_rule(rule)
        return cls(level.width, level.height, level.mines, rule=rule, rng=rng, clock=clock)

    @classmethod
    def from_layout(cls, layout: Layout, *, clock: Callable[[], float] = time.monotonic) -> Game:
        """A game on a given layout (the first-click rule does not apply)."""
        return cls(
            layout.width, layout.height, len(layout.mine_indices), layout=layout, clock=clock
        )

    def _lay(self, layout: Layout) -> None:
        if (layout.width, layout.height, len(layout.mine_indices)) != (
            self.width,
            self.height,
            self.mines,
        ):
            raise GameError("layout does not match the game's board and mine count")
        self.layout = layout
        n = self.width * self.height
        mine = [False] * n
        for i in layout.mine_indices:
            mine[i] = True
        table = self._neighbours
        self._mine = mine
        self._digits = [sum(mine[j] for j in table[i]) for i in range(n)]
        self._safe_left = n - self.mines

    # -- what the player sees ------------------------------------------------------------

    def view(self) -> Position:
        """The position the player sees: a value object with no link to the layout."""
        return Position(self.width, self.height, tuple(self._cells), self.mines)

    @property
    def outcome(self) -> Outcome:
        """Playing, won, or lost (and at which cell)."""
        return self._outcome

    @property
    def over(self) -> bool:
        """Whether the game is won or lost."""
        return self._outcome is not _PLAYING  # the one playing outcome

    @property
    def exploded(self) -> Cell | None:
        """The mine that was opened, once the game is lost (``outcome.exploded``)."""
        return self._outcome.exploded

    @property
    def status(self) -> Status:
        """Deprecated: read ``outcome.status`` (equal to the strings ``playing``, ``won``,
        ``lost`` that this property returned before)."""
        warnings.warn(
            "Game.status is deprecated: use Game.outcome.status", DeprecationWarning, stacklevel=2
        )
        return self._outcome.status

    @property
    def started(self) -> bool:
        """Whether the mines are laid (after the first open, or given)."""
        return self.layout is not None

    def _index(self, cell: Cell) -> int:
        x, y = cell
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise GameError(f"cell ({x}, {y}) is off the {self.width}x{self.height} board")
        return y * self.width + x

    # -- the one way to move -------------------------------------------------------------

    def push(self, move: Move) -> Step:
        """Make ``move`` and say what it did; O(cells opened) plus a byte-per-cell snapshot.

        No-ops and errors are as the module docstring lists: a legal move that does
        nothing gives a :class:`Step` with ``changed`` false; a cell off the board, a
        chord on a hidden or flagged cell, an unknown kind or a move after the end raise
        :class:`~minesolver.game.GameError` naming the move and the reason.
        """
        kind, cell = move_kind(move.kind), move.cell
        if self._outcome is not _PLAYING:
            raise GameError(f"{kind} {_cell_text(cell)}: the game is already {self._outcome}")
        opened: list[Cell] = []
        if kind == "open":
            opened = self._open(cell)
            changed = bool(opened)
        elif kind == "flag":
            changed = self._switch(cell, HIDDEN, FLAG)
        elif kind == "unflag":
            changed = self._switch(cell, FLAG, HIDDEN)
        else:  # chord
            self._check_chord(cell)
            opened = self._chord(cell)
            changed = bool(opened)
        self.move_stack.append((move, self.clock()))
        return Step(move, tuple(opened), changed, self._outcome, bytes(self._raw), self._level)

    def _check_chord(self, cell: Cell) -> None:
        value = self._cells[self._index(cell)]
        if value < 0:
            state = "flagged" if value == FLAG else "hidden"
            raise GameError(f"chord {_cell_text(cell)}: the cell is {state}, not an open digit")

    def toggle_move(self, cell: Cell) -> Move:
        """The move that toggles ``cell``'s flag: ``unflag`` on a flag, else ``flag``
        (a person's right click)."""
        return Move("unflag" if self._cells[self._index(cell)] == FLAG else "flag", cell)

    # -- the rules of a click (push's helpers; the game is on) ----------------------------

    def _open(self, cell: Cell) -> list[Cell]:
        """Open ``cell`` (flood-filling from zeros); returns the cells opened.

        Opening a flagged or open cell does nothing. On the first open of a game without
        a layout, the mines are laid first.
        """
        index = self._index(cell)
        if self._cells[index] != HIDDEN:
            return []
        if self.layout is None:
            if self.rng is None:
                raise GameError("game has neither a layout nor a random generator")
            self._lay(random_layout(self._level, self.rng, cell, self.rule))
        if self._mine[index]:
            self._outcome = Outcome(Status.LOST, cell)
            return [cell]
        coords = self._coords
        return [coords[i] for i in self._reveal(index)]

    def _reveal(self, start: int) -> list[int]:
        """Open the safe cell ``start`` and flood-fill from zeros; O(cells opened)."""
        cells, raw, digits, table = self._cells, self._raw, self._digits, self._neighbours
        opened = [start]
        cells[start] = raw[start] = digits[start]
        stack = [start] if digits[start] == 0 else []
        while stack:
            i = stack.pop()
            for j in table[i]:
                if cells[j] == HIDDEN:
                    cells[j] = raw[j] = digits[j]
                    opened.append(j)
                    if digits[j] == 0:
                        stack.append(j)
        self._safe_left -= len(opened)
        if self._safe_left == 0:
            self._outcome = _WON
        return opened

    def _switch(self, cell: Cell, old: int, new: int) -> bool:
        """Turn ``cell`` from ``old`` to ``new`` (a flag placed or taken away); returns
        whether it changed."""
        index = self._index(cell)
        if self._cells[index] != old:
            return False
        self._cells[index] = new
        self._raw[index] = new & 255
        return True

    def _chord(self, cell: Cell) -> list[Cell]:
        """On the open digit ``cell`` with as many flags around it, open its other hidden
        neighbours; returns the cells opened (a mine among them, under a wrong flag, loses
        the game and ends the chord). A chord whose flags do not number the digit does
        nothing."""
        index = self._index(cell)
        around = self._neighbours[index]
        if sum(self._cells[j] == FLAG for j in around) != self._cells[index]:
            return []
        coords = self._coords
        opened: list[Cell] = []
        for j in around:
            if self._cells[j] == HIDDEN and not self.over:
                opened.extend(self._open(coords[j]))
        return opened

    # -- after the game ------------------------------------------------------------------

    def mine_cells(self) -> list[Cell]:
        """The mines, for showing once the game is over (never given to a player)."""
        return [] if self.layout is None else self.layout.cells()


def _cell_text(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"
