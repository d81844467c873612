"""Mouse events to game actions, by the rules the clones share, and the clicks counted.

The clones read the mouse the same way (this is the state machine ms-toollib uses to
count Metasweeper's statistics, which we follow so the counts agree):

- a left press then release opens the hidden cell under the *release* (moving while
  pressed moves the target); a release off the board, or on an open cell, does nothing
  but still counts as a left click;
- a right press flags a hidden cell or unflags a flag (with question marks on, a flag
  becomes a question mark and a question mark hidden again); on an open cell it does
  nothing and counts as a right click;
- both buttons down then one released, or the middle button released, chord the digit
  under the pointer: when its flagged neighbours number the digit, its other hidden
  neighbours are opened (a double click, counted whether or not it opens anything); a
  right press that only began a chord is not counted as a right click;
- before the game starts (the first left release on a hidden cell) flags may be placed
  (``pf`` events, or right clicks); taking the last of them away starts the count
  afresh.

Each action is pushed (:meth:`Game.push <minesolver.game.Game.push>`) into our own
:class:`~minesolver.game.Game` built from the replay's layout, which is the board the
machine reads, and timed by the replay's own event times (the game's ``clock``): the
result is the rules' result. *Effective* clicks (``ce``) are the opening clicks, the
effective chords and the first flag on each mine; ``bbbv_solved`` counts the 3BV the
clicks solved.

Cost: O(events + cells opened); each chord or opening click also walks the opening it
touches (O(its size)).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Literal

from minesolver.game import Game, Layout, Move, MoveKind
from minesolver.game.efficiency import BoardStats, board_stats
from minesolver.position import FLAG, HIDDEN, Cell, Position, neighbour_table

if TYPE_CHECKING:
    from minesolver.replay.record import MouseEvent, Replay

__all__ = [
    "Action",
    "ActionKind",
    "Button",
    "Click",
    "Clicks",
    "Playback",
    "apply",
    "play_events",
]

ActionKind = Literal["open", "flag", "unflag", "question", "unquestion", "chord"]
"""``question``: a flag turned into a question mark; ``unquestion``: the mark removed."""

Button = Literal["left", "right", "double"]
"""The kind of a counted click: a left or right click, or a double click (a chord)."""


class _Mouse(Enum):
    UP_UP = 0  # no button down (left state, right state)
    UP_DOWN = 1  # right down
    UP_DOWN_NOT_FLAG = 2  # right down on an open cell or off the board
    DOWN_UP = 3  # left down
    CHORDING = 4  # both down
    CHORDING_NOT_FLAG = 5  # both down, the right pressed first where it could not flag
    DOWN_UP_AFTER_CHORDING = 6  # left still down after the right was released


class _Phase(Enum):
    READY = 0
    PREFLAGGING = 1
    PLAYING = 2
    OVER = 3


@dataclass(frozen=True, slots=True)
class Action:
    """One change the player made: ``kind`` on ``cell`` at ``time_ms`` (event ``event``);
    ``effective`` says whether it counted as an effective click."""

    index: int
    event: int
    time_ms: int
    kind: ActionKind
    cell: Cell
    effective: bool

    @property
    def time(self) -> float:
        """Seconds from the start of the recording."""
        return self.time_ms / 1000


@dataclass(frozen=True, slots=True)
class Click:
    """One counted click, in the order counted: its number (from 0), ``button``, the event
    that made it (index and time), the cell under the pointer (``None`` off the board) and
    the index of the action it made (``None`` when it changed nothing on the board)."""

    number: int
    button: Button
    event: int
    time_ms: int
    cell: Cell | None
    action: int | None

    @property
    def time(self) -> float:
        """Seconds from the start of the recording."""
        return self.time_ms / 1000


@dataclass(slots=True)
class Clicks:
    """Click counts as Metasweeper shows them."""

    left: int = 0
    right: int = 0
    double: int = 0
    lce: int = 0
    rce: int = 0
    dce: int = 0
    flags: int = 0
    bbbv_solved: int = 0

    @property
    def total(self) -> int:
        """``cl``: every left, right and double click."""
        return self.left + self.right + self.double

    @property
    def effective(self) -> int:
        """``ce``: the effective clicks."""
        return self.lce + self.rce + self.dce


@dataclass(frozen=True)
class Playback:
    """The replay played out: its actions, clicks, result and any disagreement with what
    the file says (``warnings``; empty when the replay and our rules agree)."""

    actions: tuple[Action, ...]
    clicks: Clicks
    stats: BoardStats
    status: Literal["playing", "won", "lost"]
    exploded: Cell | None
    final: Position
    warnings: tuple[str, ...]
    log: tuple[Click, ...] = ()
    """Every counted click in order: as many of each button as :attr:`clicks` counts."""

    @property
    def won(self) -> bool:
        return self.status == "won"

    def positions(self, layout: Layout) -> Iterator[tuple[Action, Position]]:
        """Each action with the position the player saw just before it (their flags
        included), by replaying the actions through a new game on ``layout`` (each move
        timed at its action's time). Cost: O(cells) per action."""
        clock = _EventClock()
        game = Game.from_layout(layout, clock=clock)
        for action in self.actions:
            yield action, game.view()
            clock.seconds = action.time
            apply(game, action)


class _EventClock:
    """A replay's clock for its game: the time of the event being played, in seconds."""

    __slots__ = ("seconds",)

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return self.seconds


_MOVES: dict[ActionKind, MoveKind | None] = {
    "open": "open",
    "flag": "flag",
    "unflag": "unflag",
    "question": "unflag",  # the game knows no question marks: the flag goes
    "unquestion": None,  # a question mark taken away: the game's cell stays hidden
    "chord": "chord",
}


def apply(game: Game, action: Action) -> tuple[Cell, ...]:
    """Make ``action`` in ``game`` through :meth:`Game.push <minesolver.game.Game.push>`
    (an ``unquestion`` changes nothing the game knows and is not pushed); returns the
    cells it opened. The machine only makes actions the game accepts: an open on a
    hidden cell, a chord on an open digit, nothing after the end."""
    kind = _MOVES[action.kind]
    if kind is None:
        return ()
    return game.push(Move(kind, action.cell)).opened


def play_events(replay: Replay) -> Playback:
    """Play ``replay``'s mouse events through the rules and our game."""
    return _play(replay).result()


def _play(replay: Replay) -> _Machine:
    """The machine after every event of ``replay``: its game holds the moves pushed, each
    timed at its event."""
    machine = _Machine(replay)
    for i, event in enumerate(replay.events):
        if event.kind != "mv":
            machine.step(i, event)
    return machine


class _Machine:
    """The mouse and game state while the events are played."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self.clock = _EventClock()
        self.game = Game.from_layout(replay.layout, clock=self.clock)
        self.stats = board_stats(replay.layout)
        self.table = neighbour_table(replay.width, replay.height)
        self.width = replay.width
        self.question: set[int] = set()
        self.flagged_once: set[int] = set()
        self.clicks = Clicks()
        self.mouse = _Mouse.UP_UP
        self.phase = _Phase.READY
        self.preflags = 0
        self.middle = False
        self.actions: list[Action] = []
        self.log: list[_Logged] = []  # the clicks counted so far
        self.cells = list(self.game.view().cells)
        self.event = (0, 0)  # index and time of the event being played

    # -- the board as the machine reads it ----------------------------------------------

    def _value(self, i: int) -> int:
        """ms-toollib's cell codes: a digit when open, 10 hidden, 11 flag, 12 question."""
        v = self.cells[i]
        if v == FLAG:
            return 11
        if v == HIDDEN:
            return 12 if i in self.question else 10
        return v

    def _record(self, kind: ActionKind, i: int, effective: bool) -> None:
        index, time_ms = self.event
        cell = (i % self.width, i // self.width)
        action = Action(len(self.actions), index, time_ms, kind, cell, effective)
        self.actions.append(action)
        if self.log and self.log[-1].event == index and self.log[-1].action is None:
            self.log[-1].action = action.index
        for x, y in apply(self.game, action):
            j = y * self.width + x
            self.cells[j] = self.stats.digits[j]
            self.question.discard(j)
        if kind == "flag":
            self.cells[i] = FLAG
        elif kind in ("unflag", "question"):
            self.cells[i] = HIDDEN
        if kind == "question":
            self.question.add(i)
        elif kind == "unquestion":
            self.question.discard(i)
        if self.game.over:
            self.phase = _Phase.OVER

    # -- clicks ---------------------------------------------------------------------------

    def _count(self, button: Button, i: int | None) -> None:
        """Count one click of ``button`` on cell index ``i`` and log it."""
        if button == "left":
            self.clicks.left += 1
        elif button == "right":
            self.clicks.right += 1
        else:
            self.clicks.double += 1
        index, time_ms = self.event
        cell = None if i is None else (i % self.width, i // self.width)
        self.log.append(_Logged(button, index, time_ms, cell))

    def _uncount_right(self) -> None:
        """A right press that only began a chord: not a right click after all."""
        self.clicks.right -= 1
        for k in range(len(self.log) - 1, -1, -1):
            if self.log[k].button == "right":
                del self.log[k]
                break

    def left_click(self, i: int) -> None:
        self._count("left", i)
        if self._value(i) not in (10, 12):
            return
        digit = self.stats.digits[i]
        if digit > 0:
            self.clicks.bbbv_solved += i in self.stats.island_cells
        elif digit == 0:
            self.clicks.bbbv_solved += self._opening_complete(i, set())
        self.clicks.lce += digit >= 0
        self._record("open", i, digit >= 0)

    def right_click(self, i: int) -> None:
        self._count("right", i)
        value = self._value(i)
        if value < 10:
            return
        if value == 10:
            self.clicks.flags += 1
            first = self.stats.digits[i] < 0 and i not in self.flagged_once
            if self.stats.digits[i] < 0:
                self.flagged_once.add(i)
            self.clicks.rce += first
            self._record("flag", i, first)
        elif value == 11:
            self.clicks.flags -= 1
            self._record("question" if self.replay.question_marks else "unflag", i, False)
        else:
            self._record("unquestion", i, False)

    def chord(self, i: int) -> None:
        self._count("double", i)
        digit = self._value(i)
        if digit >= 8:
            return
        around = self.table[i]
        flags = sum(self._value(j) == 11 for j in around)
        hidden = [j for j in around if self._value(j) in (10, 12)]
        if flags != digit or not hidden:
            return
        islands = sum(j in self.stats.island_cells for j in hidden)
        self.clicks.dce += 1
        self.clicks.bbbv_solved += islands + self._openings_around(i)
        self._record("chord", i, True)

    def _openings_around(self, i: int) -> int:
        """Openings a chord on ``i`` will open completely (not blocked by a flag)."""
        seen: set[int] = set()
        count = 0
        for j in (i, *self.table[i]):
            if self._value(j) == 10 and self.stats.digits[j] == 0 and j not in seen:
                count += self._opening_complete(j, seen)
        return count

    def _opening_complete(self, start: int, seen: set[int]) -> bool:
        """Whether no flag lies on the zeros of the opening of ``start``; marks them."""
        stack = [start]
        while stack:
            i = stack.pop()
            if self.stats.digits[i] != 0:
                continue
            if self._value(i) == 11:
                return False
            seen.add(i)
            stack.extend(j for j in self.table[i] if j not in seen)
        return True

    # -- the mouse -------------------------------------------------------------------------

    def step(self, index: int, event: MouseEvent) -> None:
        """Play one press or release (moves change nothing)."""
        self.event = (index, event.time_ms)
        self.clock.seconds = event.time
        cell = event.cell
        i = None if cell is None else cell[1] * self.width + cell[0]
        if self.phase is _Phase.OVER:
            return
        if self.phase is _Phase.READY:
            self._ready(event.kind, i)
            return
        if self.phase is _Phase.PREFLAGGING and self._preflagging(event.kind, i):
            return
        self._playing(event.kind, i)

    def _ready(self, kind: str, i: int | None) -> None:
        m = self.mouse
        if kind == "lc":
            if m is _Mouse.UP_UP:
                self.mouse = _Mouse.DOWN_UP
                if i is not None:
                    self.phase = _Phase.PREFLAGGING
            elif m is _Mouse.UP_DOWN:
                self.mouse = _Mouse.CHORDING
            elif m is _Mouse.UP_DOWN_NOT_FLAG:
                self.mouse = _Mouse.CHORDING_NOT_FLAG
        elif kind == "pf" and i is not None and self._value(i) == 10:
            self.preflags += 1
            self.phase = _Phase.PREFLAGGING
            self.right_click(i)
        elif kind == "rc":
            if m is _Mouse.UP_UP:
                self.mouse = _Mouse.UP_DOWN
                if i is not None:
                    self.preflags = 1
                    self.phase = _Phase.PREFLAGGING
                    self.right_click(i)
            elif m is _Mouse.DOWN_UP_AFTER_CHORDING:
                self.mouse = _Mouse.CHORDING
        elif kind == "lr":
            if m in (_Mouse.CHORDING, _Mouse.CHORDING_NOT_FLAG):
                self.mouse = _Mouse.UP_DOWN
            elif m in (_Mouse.DOWN_UP_AFTER_CHORDING, _Mouse.DOWN_UP):
                self.mouse = _Mouse.UP_UP
        elif kind == "rr":
            if m is _Mouse.UP_DOWN:
                self.mouse = _Mouse.UP_UP
            elif m is _Mouse.CHORDING:
                self.mouse = _Mouse.DOWN_UP_AFTER_CHORDING
        elif kind == "cc":
            self.mouse = _both_pressed(m)

    def _preflagging(self, kind: str, i: int | None) -> bool:
        """Before the first opening click, with flags placed; True when the event is
        handled here, False when it goes on to the playing rules."""
        m = self.mouse
        if kind in ("lc", "rr", "mv", "mc", "mr"):
            return False
        if kind == "lr":
            if m is not _Mouse.DOWN_UP:
                return False
            if i is None:
                self.mouse = _Mouse.UP_UP
                if self.preflags == 0:
                    self.phase = _Phase.READY
                    self._restart_count()
                else:
                    self._count("left", None)
            elif self._value(i) == 10:
                self.phase = _Phase.PLAYING
                self.mouse = _Mouse.UP_UP
                self.left_click(i)
            else:
                self._count("left", i)
            return True
        if kind == "pf":
            if i is not None and self._value(i) == 10:
                self.preflags += 1
                self.right_click(i)
            return True
        if kind == "rc":
            return self._preflag_right(m, i)
        if kind == "cc":
            if m is _Mouse.DOWN_UP and i is not None and self.preflags == 0:
                self.phase = _Phase.READY
            self.mouse = _both_pressed(m)
            return True
        return True

    def _preflag_right(self, m: _Mouse, i: int | None) -> bool:
        if m is _Mouse.UP_UP:
            if i is None:
                self.mouse = _Mouse.UP_DOWN_NOT_FLAG
                self._count("right", None)
                return False
            self.mouse = _Mouse.UP_DOWN
            if self._value(i) == 10:
                self.preflags += 1
            else:
                self.preflags -= 1
                if self.preflags == 0:
                    self.phase = _Phase.READY
                    self._restart_count()
                    self._record("unflag", i, False)
                    return True
            self.right_click(i)
            return True
        if m is _Mouse.DOWN_UP:
            self.mouse = _Mouse.CHORDING
            if i is not None and self.preflags == 0:
                self.phase = _Phase.READY
        elif m is _Mouse.DOWN_UP_AFTER_CHORDING:
            self.mouse = _Mouse.CHORDING
        return False

    def _restart_count(self) -> None:
        """Every flag taken away before the start: the clicks so far do not count."""
        c = self.clicks
        c.flags = c.double = c.left = c.right = 0
        self.flagged_once.clear()
        self.log.clear()

    def _playing(self, kind: str, i: int | None) -> None:
        m = self.mouse
        if kind == "lc":
            self.mouse = _PRESS_LEFT.get(m, m)
        elif kind == "lr":
            self._release_left(m, i)
        elif kind == "l":
            if m in (_Mouse.UP_UP, _Mouse.UP_DOWN, _Mouse.UP_DOWN_NOT_FLAG):
                self.mouse = _PRESS_LEFT[m]
            elif m is _Mouse.DOWN_UP:
                self.mouse = _Mouse.UP_UP
                if i is not None:
                    self.left_click(i)
            else:
                self._release_left(m, i)
        elif kind == "rc":
            self._press_right(m, i)
        elif kind == "rr":
            self._release_right(m, i)
        elif kind == "r":
            if m in (_Mouse.UP_UP, _Mouse.DOWN_UP, _Mouse.DOWN_UP_AFTER_CHORDING):
                self._press_right(m, i)
            else:
                self._release_right(m, i)
        elif kind in ("mc", "mr", "m"):
            self.middle = kind == "mc" or (kind == "m" and not self.middle)
            if not self.middle and kind != "mc" and i is not None:
                self.chord(i)
        elif kind == "cc":
            self.mouse = _both_pressed(m)

    def _release_left(self, m: _Mouse, i: int | None) -> None:
        if m is _Mouse.DOWN_UP:
            self.mouse = _Mouse.UP_UP
            if i is None:
                self._count("left", None)
            else:
                self.left_click(i)
        elif m in (_Mouse.CHORDING, _Mouse.CHORDING_NOT_FLAG):
            self._end_chord(m, i, _Mouse.UP_DOWN)
        elif m is _Mouse.DOWN_UP_AFTER_CHORDING:
            self.mouse = _Mouse.UP_UP

    def _end_chord(self, m: _Mouse, i: int | None, then: _Mouse) -> None:
        """One button of two released: chord (a right press that only began the chord is
        not a right click)."""
        self.mouse = then
        if m is _Mouse.CHORDING_NOT_FLAG:
            self._uncount_right()
        if i is not None:
            self.chord(i)

    def _press_right(self, m: _Mouse, i: int | None) -> None:
        if m is _Mouse.UP_UP:
            if i is None:
                self.mouse = _Mouse.UP_DOWN_NOT_FLAG
                self._count("right", None)
                return
            opened = self._value(i) < 10
            self.mouse = _Mouse.UP_DOWN_NOT_FLAG if opened else _Mouse.UP_DOWN
            self.right_click(i)
        elif m in (_Mouse.DOWN_UP, _Mouse.DOWN_UP_AFTER_CHORDING):
            self.mouse = _Mouse.CHORDING

    def _release_right(self, m: _Mouse, i: int | None) -> None:
        if m in (_Mouse.UP_DOWN, _Mouse.UP_DOWN_NOT_FLAG):
            self.mouse = _Mouse.UP_UP
        elif m in (_Mouse.CHORDING, _Mouse.CHORDING_NOT_FLAG):
            self._end_chord(m, i, _Mouse.DOWN_UP_AFTER_CHORDING)

    # -- the end --------------------------------------------------------------------------

    def result(self) -> Playback:
        game = self.game
        warnings = []
        recorded = self.replay.recorded_won
        if recorded is not None and recorded != (game.outcome.status == "won"):
            said = "won" if recorded else "not won"
            warnings.append(
                f"the file says the game was {said}; replayed, it is {game.outcome.status.value}"
            )
        stated = self.replay.bbbv_recorded
        if stated is not None and stated not in (0, self.stats.bbbv):
            warnings.append(f"the file states a 3BV of {stated}; the board's is {self.stats.bbbv}")
        return Playback(
            actions=tuple(self.actions),
            clicks=self.clicks,
            stats=self.stats,
            status=game.outcome.status.value,
            exploded=game.exploded,
            final=game.view(),
            warnings=tuple(warnings),
            log=tuple(
                Click(n, c.button, c.event, c.time_ms, c.cell, c.action)
                for n, c in enumerate(self.log)
            ),
        )


@dataclass(slots=True)
class _Logged:
    """A click while the events are played (its action is attached when it makes one)."""

    button: Button
    event: int
    time_ms: int
    cell: Cell | None
    action: int | None = None


_PRESS_LEFT = {
    _Mouse.UP_UP: _Mouse.DOWN_UP,
    _Mouse.UP_DOWN: _Mouse.CHORDING,
    _Mouse.UP_DOWN_NOT_FLAG: _Mouse.CHORDING_NOT_FLAG,
}


def _both_pressed(m: _Mouse) -> _Mouse:
    """The state after a ``cc`` event (both buttons now down)."""
    if m in (_Mouse.UP_DOWN_NOT_FLAG, _Mouse.CHORDING_NOT_FLAG):
        return _Mouse.CHORDING_NOT_FLAG
    return _Mouse.CHORDING
