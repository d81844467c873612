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

from minesolver.game import Layout
from minesolver.position import Cell

__all__ = ["EVENT_KINDS", "MAX_EVENTS", "EventKind", "Format", "MouseEvent", "Replay", "cell_at"]

Format = Literal["avf", "rmv", "evf", "mvf"]

EventKind = Literal["mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m"]
"""Mouse event kinds, as the EVF specification names them: ``mv`` move; ``lc``/``lr``,
``rc``/``rr``, ``mc``/``mr`` left, right, middle press/release; ``pf`` a flag placed
before the game started; ``cc`` both buttons pressed; ``l``/``r``/``m`` a press or a
release of that button (the state tells which)."""

MAX_EVENTS = 1_000_000
"""The most mouse events a replay may hold (hours of play; real games have thousands)."""

EVENT_KINDS: tuple[str, ...] = ("mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m")


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

    @property
    def mine_cells(self) -> list[Cell]:
        """The mines ``(x, y)`` in reading order."""
        return self.layout.cells()

    @property
    def time(self) -> float:
        """The game's time in seconds."""
        return self.time_ms / 1000
