"""A played game graded for efficiency: the clicks it wasted, how far it stayed from the
fewest clicks the board needs, and the speed figures players quote.

**Wasted clicks.** Each counted click (:attr:`Playback.log
<minesolver.replay.actions.Playback.log>`) is wasted when, in the game as played:

- ``nothing``: it changed nothing on the board: a left click on an open cell, on a flag or
  off the board, a right click on an open cell or off the board, a chord that opened
  nothing;
- ``unused_flag``: it placed a flag that no chord used (no chord that opened something
  had it among its neighbours while it stood);
- ``unflag``: a right click that took a flag or a question mark away;
- ``one_cell_chord``: a chord that opened a single cell, which one left click on that cell
  opens as well (a flag used by such a chord still counts as used: the chord, not the
  flag, is the click too many).

A click that ends the game on a mine is not wasted: it is a loss.

**Efficiency.** The player's efficiency is the 3BV solved per click (IOE); the best
possible is the board's 3BV over its fewest clicks (:func:`minesolver.game.min_clicks`,
on a short work budget, :data:`REPORT_WORK` steps of search, so a report stays fast and is the
same on every machine: past it the fewest clicks found and a proved lower bound, so the best
efficiency lies between the two ratios; :data:`MIN_CLICKS_SECONDS` is only a safety
deadline, and an answer it cut says so). ZiNi and HZiNi (:func:`minesolver.game.zini`,
:func:`~minesolver.game.hzini`) are the greedy estimates players know.

**Speed figures** (as ms-toollib computes them; ``t`` the game's time in seconds, ``S``
the 3BV solved, ``B`` the board's 3BV):

- 3BV/s ``S / t``;
- RQP ``t² / S`` (lower is better);
- IOS ``log S / log t`` (higher is better; ms-toollib does not compute it);
- STNB ``C · S / t^1.7 · sqrt(S / B)`` with ``C`` = 36 on beginner (8x8/10), 162 on
  intermediate (16x16/40) and 435 on expert (30x16/99); undefined on other boards;
- ZiNi/s, ZNE and ZNT, the ZiNi counterparts of 3BV/s, IOE and throughput: ZiNi over the
  time, the clicks and the effective clicks; for won games only (ZiNi is a figure of the
  whole board).

Cost: the wasted clicks replay the actions once, O(clicks + cells opened); the figures
are O(1) but for ZiNi and HZiNi (O(cells log cells) each: milliseconds on expert, about
a second on 256x256) and the fewest clicks (a MaxSAT search bounded by ``work``, after a
set-up: the ZiNi family's sequences, O(runs * cells log cells), about half a second on
expert at :data:`REPORT_ZINI_RUNS`, and the programme, O(cells)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from minesolver.game import Game, MinClicks, hzini, min_clicks, zini
from minesolver.position import neighbour_table
from minesolver.replay.actions import ActionKind, Click, Playback, apply

if TYPE_CHECKING:
    from minesolver.replay.record import Replay

__all__ = [
    "MIN_CLICKS_SECONDS",
    "REPORT_WORK",
    "REPORT_ZINI_RUNS",
    "STNB_CONSTANTS",
    "WASTE_KINDS",
    "ReplayEfficiency",
    "WasteKind",
    "WastedClick",
    "ios",
    "replay_efficiency",
    "rqp",
    "stnb",
    "wasted_clicks",
]

WasteKind = Literal["nothing", "unused_flag", "unflag", "one_cell_chord"]

WASTE_KINDS: tuple[WasteKind, ...] = ("nothing", "unused_flag", "unflag", "one_cell_chord")
"""The reasons a click is wasted, in the order reports list them."""

REPORT_WORK = 6_000
"""The work (steps of search) a replay report gives the proof of the board's fewest clicks:
under a second on an expert board, the same answer on every machine."""

REPORT_ZINI_RUNS = 100
"""The random ZiNi runs (as many as ms-toollib's ``cal_rzini`` makes, and as many around
the best of them, and 240 more for the work) a replay report starts from
(:func:`~minesolver.game.min_clicks`'s ``zini_runs``): about half a second on expert."""

MIN_CLICKS_SECONDS = 60.0
"""The safety deadline of a replay report's fewest clicks, in seconds: never reached at
:data:`REPORT_WORK` on the standard levels but on a machine far slower or busier than
usual; an answer it cut says so (``min_clicks.cut``)."""

STNB_CONSTANTS: dict[tuple[int, int, int], float] = {
    (8, 8, 10): 36.0,
    (16, 16, 40): 162.0,
    (30, 16, 99): 435.0,
}
"""STNB's constant per standard board ``(width, height, mines)``, as ms-toollib sets it."""


@dataclass(frozen=True, slots=True)
class WastedClick:
    """A click the game did not need, and why (:data:`WASTE_KINDS`)."""

    click: Click
    why: WasteKind


def wasted_clicks(replay: Replay, playback: Playback) -> tuple[WastedClick, ...]:
    """The wasted clicks of ``playback`` (``replay`` played), in the order made (see the
    module docstring). O(clicks + cells opened).

    >>> from minesolver.game import Layout
    >>> from minesolver.replay import play_events
    >>> from minesolver.replay.evf_write import replay_from_moves
    >>> layout = Layout.from_cells(5, 1, [(2, 0)])  # 0 1 * 1 0
    >>> moves = [("open", (0, 0), 0), ("open", (1, 0), 9), ("open", (4, 0), 20)]
    >>> r = replay_from_moves(layout, moves)
    >>> [(w.click.number, w.why) for w in wasted_clicks(r, play_events(r))]
    [(1, 'nothing')]
    """
    table = neighbour_table(replay.width, replay.height)
    width = replay.width
    game = Game.from_layout(replay.layout)
    opened: set[int] = set()
    flags: dict[int, int] = {}  # cell index -> the action that flagged it
    used: set[int] = set()  # flag actions a chord used
    one_cell: set[int] = set()  # chord actions that opened one cell
    for action in playback.actions:
        i = action.cell[1] * width + action.cell[0]
        if action.kind == "flag":
            flags[i] = action.index
        elif action.kind in ("unflag", "question"):
            flags.pop(i, None)
        elif action.kind == "chord":
            around = table[i]
            used.update(flags[j] for j in around if j in flags)
            targets = [j for j in around if j not in opened and j not in flags]
            if len(targets) == 1:
                one_cell.add(action.index)
        for x, y in apply(game, action):
            opened.add(y * width + x)
            flags.pop(y * width + x, None)
        if game.exploded is not None:  # the losing click is a loss, not a wasted click
            one_cell.discard(action.index)
    kinds = {a.index: a.kind for a in playback.actions}
    out: list[WastedClick] = []
    for click in playback.log:
        why = _why(click, kinds, used, one_cell)
        if why is not None:
            out.append(WastedClick(click, why))
    return tuple(out)


def _why(
    click: Click, kinds: dict[int, ActionKind], used: set[int], one_cell: set[int]
) -> WasteKind | None:
    if click.action is None:
        return "nothing"
    kind = kinds[click.action]
    if kind == "flag" and click.action not in used:
        return "unused_flag"
    if kind in ("unflag", "question", "unquestion"):
        return "unflag"
    if kind == "chord" and click.action in one_cell:
        return "one_cell_chord"
    return None


def rqp(seconds: float, solved: int) -> float | None:
    """RQP, ``t² / S``: the time over the 3BV/s (``None`` before any 3BV is solved).

    >>> rqp(10.0, 25)
    4.0
    """
    return seconds * seconds / solved if solved > 0 else None


def ios(seconds: float, solved: int) -> float | None:
    """IOS, ``log S / log t`` (``None`` where undefined: no 3BV solved, or a time of at
    most one second, where the logarithm is zero or negative).

    >>> round(ios(10.0, 100), 6)
    2.0
    """
    if solved <= 0 or seconds <= 1:
        return None
    return math.log(solved) / math.log(seconds)


def stnb(
    width: int, height: int, mines: int, seconds: float, solved: int, bbbv: int
) -> float | None:
    """STNB, ``C · S / t^1.7 · sqrt(S / B)`` with ms-toollib's constant of the level
    (:data:`STNB_CONSTANTS`); ``None`` on a board that is not a standard level, with no
    time or nothing solved.

    >>> round(stnb(8, 8, 10, 1.0, 4, 4), 6)
    144.0
    """
    c = STNB_CONSTANTS.get((width, height, mines))
    if c is None or seconds <= 0 or solved <= 0 or bbbv <= 0:
        return None
    return c * solved / math.pow(seconds, 1.7) * math.sqrt(solved / bbbv)


@dataclass(frozen=True)
class ReplayEfficiency:
    """A played game's efficiency and speed (see the module docstring).

    ``clicks`` counts every click (cl); ``effective`` the effective ones (ce);
    ``min_clicks`` the board's fewest clicks found within the budget, with its proved
    lower bound; ``wasted`` the wasted clicks in order.
    """

    won: bool
    seconds: float
    bbbv: int
    bbbv_solved: int
    clicks: int
    effective: int
    zini: int
    hzini: int
    min_clicks: MinClicks
    wasted: tuple[WastedClick, ...]
    width: int
    height: int
    mines: int

    @property
    def efficiency(self) -> float | None:
        """The player's efficiency: 3BV solved per click (IOE)."""
        return self.bbbv_solved / self.clicks if self.clicks else None

    @property
    def best_efficiency(self) -> float | None:
        """The board's 3BV over its fewest clicks found: the best efficiency proved
        reachable (the best possible when :attr:`optimal`)."""
        n = self.min_clicks.count
        return self.bbbv / n if n else None

    @property
    def best_efficiency_bound(self) -> float | None:
        """The board's 3BV over the proved lower bound of its clicks: no play is more
        efficient (equal to :attr:`best_efficiency` when :attr:`optimal`)."""
        n = self.min_clicks.lower_bound
        return self.bbbv / n if n else None

    @property
    def optimal(self) -> bool:
        """Whether the fewest clicks are proved."""
        return self.min_clicks.optimal

    @property
    def efficiency_lost(self) -> float | None:
        """The best efficiency found less the player's: at least this much was lost
        (exactly this much when :attr:`optimal`)."""
        best, mine = self.best_efficiency, self.efficiency
        return None if best is None or mine is None else best - mine

    @property
    def zini_efficiency(self) -> float | None:
        """The board's 3BV over its ZiNi: the efficiency of ZiNi's greedy play."""
        return self.bbbv / self.zini if self.zini else None

    @property
    def extra_clicks(self) -> int | None:
        """Clicks beyond the fewest found, for a won game (``None`` otherwise)."""
        return self.clicks - self.min_clicks.count if self.won else None

    def wasted_by_kind(self) -> dict[WasteKind, int]:
        """The number of wasted clicks of each kind (:data:`WASTE_KINDS`, every kind)."""
        counts = dict.fromkeys(WASTE_KINDS, 0)
        for w in self.wasted:
            counts[w.why] += 1
        return counts

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV solved per second."""
        return self.bbbv_solved / self.seconds if self.seconds > 0 else None

    @property
    def rqp(self) -> float | None:
        """RQP (:func:`rqp`)."""
        return rqp(self.seconds, self.bbbv_solved)

    @property
    def ios(self) -> float | None:
        """IOS (:func:`ios`)."""
        return ios(self.seconds, self.bbbv_solved)

    @property
    def stnb(self) -> float | None:
        """STNB (:func:`stnb`)."""
        return stnb(self.width, self.height, self.mines, self.seconds, self.bbbv_solved, self.bbbv)

    @property
    def zini_per_second(self) -> float | None:
        """ZiNi per second, for a won game."""
        return self.zini / self.seconds if self.won and self.seconds > 0 else None

    @property
    def zne(self) -> float | None:
        """ZNE, ZiNi per click, for a won game."""
        return self.zini / self.clicks if self.won and self.clicks else None

    @property
    def znt(self) -> float | None:
        """ZNT, ZiNi per effective click, for a won game."""
        return self.zini / self.effective if self.won and self.effective else None


def replay_efficiency(
    replay: Replay,
    playback: Playback,
    *,
    work: int = REPORT_WORK,
    seconds: float | None = MIN_CLICKS_SECONDS,
    zini_runs: int = REPORT_ZINI_RUNS,
) -> ReplayEfficiency:
    """``replay`` (played as ``playback``) graded for efficiency, the board's fewest
    clicks searched with ``work`` steps and ``zini_runs`` random ZiNi runs
    (:func:`~minesolver.game.min_clicks`; ``seconds`` its safety deadline).

    >>> from minesolver.game import Layout
    >>> from minesolver.replay import play_events
    >>> from minesolver.replay.evf_write import replay_from_moves
    >>> layout = Layout.from_cells(5, 1, [(2, 0)])
    >>> r = replay_from_moves(layout, [("open", (0, 0), 0), ("open", (4, 0), 1000)])
    >>> e = replay_efficiency(r, play_events(r))
    >>> e.min_clicks.count, e.optimal, e.efficiency, e.efficiency_lost, e.wasted
    (2, True, 1.0, 0.0, ())
    """
    c = playback.clicks
    won = playback.won
    return ReplayEfficiency(
        won=won,
        seconds=replay.time,
        bbbv=playback.stats.bbbv,
        bbbv_solved=playback.stats.bbbv if won else c.bbbv_solved,
        clicks=c.total,
        effective=c.effective,
        zini=zini(replay.layout),
        hzini=hzini(replay.layout),
        min_clicks=min_clicks(replay.layout, work=work, seconds=seconds, zini_runs=zini_runs),
        wasted=wasted_clicks(replay, playback),
        width=replay.width,
        height=replay.height,
        mines=replay.mines,
    )
