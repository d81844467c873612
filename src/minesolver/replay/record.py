"""The typed record every replay reader returns: :class:`Replay` and its :class:`MouseEvent`.

A replay is the board (size, mines, the file's cell size in pixels) and the mouse
events as the file holds them; the game is what those events do under the clones'
rules (:func:`~minesolver.replay.actions.play_events`), and grading it is
:func:`~minesolver.replay.grade.grade_replay`'s business: the record knows neither. Times
are integer milliseconds from the start of the recording, as the file counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from minesolver.game import FirstClick, Layout
from minesolver.position import Cell

__all__ = [
    "EVENT_KINDS",
    "MAX_EVENTS",
    "MODE_CLASSIC_NO_GUESS",
    "MODE_NO_RULE",
    "MODE_STANDARD",
    "MODE_UPK",
    "MODE_WIN7",
    "EventKind",
    "Format",
    "MouseEvent",
    "Replay",
    "cell_at",
    "first_click_of_mode",
]

Format = Literal["avf", "rmv", "evf", "mvf"]

EventKind = Literal["mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m"]
"""Mouse event kinds, as the EVF specification names them: ``mv`` move; ``lc``/``lr``,
``rc``/``rr``, ``mc``/``mr`` left, right, middle press/release; ``pf`` a flag placed
before the game started; ``cc`` both buttons pressed; ``l``/``r``/``m`` a press or a
release of that button (the state tells which)."""

MAX_EVENTS = 1_000_000
"""The most mouse events a replay may hold (hours of play; real games have thousands)."""

EVENT_KINDS: tuple[str, ...] = ("mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m")


MODE_STANDARD = 0
"""EVF's game mode 0, standard: the first click is never a mine, the other mines are laid
uniformly (ms-toollib's ``laymine``; the page's and ``play``'s ``safe`` rule)."""
MODE_UPK = 1
"""EVF's mode 1, UPK: a board known before the game (Metasweeper saves a preset board's
game so); no first-click rule applies."""
MODE_WIN7 = 4
"""EVF's mode 4, Win7: the first click opens an empty cell (ms-toollib's ``laymine_op``;
the ``opening`` rule)."""
MODE_CLASSIC_NO_GUESS = 5
"""EVF's mode 5, classic no-guess: a board solvable without a guess from the first click
on, where a lucky guess does not lose (minesolver's no-guess boards)."""
MODE_NO_RULE = 65535
"""EVF's mode 65535, "no rule": mines laid with no rule, so the first click may hit one
(the ``none`` rule)."""

_FIRST_CLICK: dict[int, FirstClick] = {
    MODE_STANDARD: "safe",
    MODE_WIN7: "opening",
    # the no-guess and guessable modes: a board solvable from the first click on (or one
    # that moves a mine away from a click that could be safe) never loses on the first
    **dict.fromkeys(range(5, 11), "safe"),
    MODE_NO_RULE: "none",
}


def first_click_of_mode(mode: int | None) -> FirstClick | None:
    """The first-click rule a game mode implies (EVF's numbers, from its specification),
    or ``None`` where the mode leaves it unknown (UPK, cheat, density, the recursive
    modes, or no mode at all).

    >>> [first_click_of_mode(m) for m in (0, 4, 5, 65535, 1, None)]
    ['safe', 'opening', 'safe', 'none', None, None]
    """
    return None if mode is None else _FIRST_CLICK.get(mode)


@dataclass(frozen=True, slots=True)
class MouseEvent:
    """One mouse event: when (ms), what, where (pixels from the board's top left corner)
    and the cell under it (``None`` off the board), using the file's cell size."""

    time_ms: int
    kind: EventKind
    x: int
    y: int
    cell: Cell | None

    @property
    def time(self) -> float:
        """Seconds, for display."""
        return self.time_ms / 1000


def cell_at(x: int, y: int, width: int, height: int, size: int) -> Cell | None:
    """The cell under pixel ``(x, y)``, or ``None`` off a ``width`` x ``height`` board of
    ``size``-pixel cells.

    >>> cell_at(17, 3, 8, 8, 16), cell_at(128, 3, 8, 8, 16), cell_at(-1, 0, 8, 8, 16)
    ((1, 0), None, None)
    """
    if 0 <= x < width * size and 0 <= y < height * size:
        return x // size, y // size
    return None


@dataclass(frozen=True)
class Replay:
    """A replay file read into a record.

    ``time_ms`` is the game's time as the software counts it (first opening click to the
    end); ``recorded_won`` what the file says of the result when it says it (``None``
    otherwise); ``bbbv_recorded`` the 3BV the file states, if any. ``question_marks``:
    whether the software turned a second right click on a flag into a question mark.
    ``mode``: the game mode the file states (EVF's numbers, :data:`MODE_STANDARD` and the
    others), ``None`` where the format has none; :attr:`first_click` is the first-click
    rule it implies.

    The record holds what the file says, nothing more: :func:`~minesolver.replay.play_events`
    plays its events into actions and clicks, :func:`~minesolver.replay.grade_replay`
    grades them.
    """

    format: Format
    version: str
    software: str
    player: str
    width: int
    height: int
    mines: int
    cell_size: int
    layout: Layout
    events: tuple[MouseEvent, ...] = field(repr=False)
    time_ms: int
    question_marks: bool = False
    recorded_won: bool | None = None
    bbbv_recorded: int | None = None
    mode: int | None = None

    @property
    def first_click(self) -> FirstClick | None:
        """The first-click rule the file states through its mode, or ``None`` (unknown:
        the first click then cannot be graded)."""
        return first_click_of_mode(self.mode)

    @property
    def mine_cells(self) -> list[Cell]:
        """The mines ``(x, y)`` in reading order."""
        return self.layout.cells()

    @property
    def time(self) -> float:
        """The game's time in seconds."""
        return self.time_ms / 1000
