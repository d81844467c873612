"""Grading a replay: every opening action weighed from the position the player saw.

For each action that opens cells, after the first, from the position just before it
with the player's flags *untrusted* (they are the player's marks, not knowledge):

- ``p``: the exact probability that the action hits a mine: the opened cell's mine
  probability, or for a chord the probability that any cell it opens is a mine;
- ``safest``: the lowest mine probability of any unknown cell then;
- ``guess``: ``p > 0``; ``needless``: a guess while a certainly safe cell existed;
- ``best``: for a guess, the move ``best`` would have made there;
- ``win`` and ``best_win``: for a guess by opening one cell where at most 1,000 layouts
  remain (and no cell was certainly safe), the exact chance of winning with that click
  and with the best one, each followed by perfect play (the endgame search, within its
  node budget; left out beyond it).

The first click is judged only by the first-click rule the replay states
(:attr:`~minesolver.replay.record.Replay.first_click`, from its game mode): a protected
click (``safe``, ``opening``) is certainly safe, an unprotected one (``none``) has the
risk mines / cells; where the rule is unknown it is left ungraded. It has no analysis
(nothing is known on the blank board but the rule).

The game's *pluck* is Metasweeper's luck figure: the sum over those actions of
``-log10(1 - p)`` (infinite for a lost game). We compute the product of the ``1 - p``
exactly and take one logarithm of its numerator and denominator.

A chord's ``p`` needs the probability that several cells are all safe: by the chain
rule over the digits each uncertain cell could show, ``P(all safe) = sum_d P(c shows d)
P(rest safe | c shows d)``, each term one incremental analysis; the cost is
``O(9^(k-1))`` analyses for ``k`` uncertain cells (``k`` is 0 or 1 on a chord whose
flags are sure, the usual case). Each position is one exact analysis, sharing the
engine's component cache over the game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from minesolver.analysis import Analysis, analyze, analyze_after
from minesolver.counting import ComponentCount
from minesolver.position import HIDDEN, Cell, InconsistentPosition, Position
from minesolver.replay.actions import Action, Playback, play_events
from minesolver.replay.efficiency import (
    MIN_CLICKS_SECONDS,
    REPORT_WORK,
    REPORT_ZINI_RUNS,
    ReplayEfficiency,
    replay_efficiency,
)
from minesolver.strategy import Move
from minesolver.strategy.best import BestPlayer, Options
from minesolver.strategy.endgame import (
    EndgameSolver,
    SearchBudgetExceeded,
    TooManyLayouts,
    enumerate_layouts,
)

if TYPE_CHECKING:
    from minesolver.replay.record import Replay

__all__ = ["MoveGrade", "ReplayAnalysis", "grade_replay", "probability_all_safe"]


@dataclass(frozen=True, slots=True)
class MoveGrade:
    """One action and, for a graded one (``graded``), its risk and verdict."""

    action: Action
    graded: bool
    p: Fraction | None = None
    safest: Fraction | None = None
    safe_existed: bool = False
    best: Move | None = None
    analysis: Analysis | None = field(default=None, repr=False, compare=False)
    """The exact analysis of the position before the action (flags untrusted)."""
    win: Fraction | None = None
    """For a guess by opening a cell where few layouts remain: the chance of winning
    with this click and perfect play after it (``None`` where not searched)."""
    best_win: Fraction | None = None
    """The chance of winning with the best click there, by the same search."""

    @property
    def guess(self) -> bool:
        """Whether the action could hit a mine."""
        return self.p is not None and self.p > 0

    @property
    def needless(self) -> bool:
        """A guess while a certainly safe cell was there to take."""
        return self.guess and self.safe_existed

    @property
    def verdict(self) -> str:
        """``safe``, ``guess``, ``needless guess`` or ``-`` (not graded)."""
        if not self.graded:
            return "-"
        if not self.guess:
            return "safe"
        return "needless guess" if self.needless else "guess"


@dataclass(frozen=True)
class ReplayAnalysis:
    """A replay graded: each action (``moves``) and the game's figures."""

    replay: Replay
    playback: Playback
    moves: tuple[MoveGrade, ...]
    safe_product: Fraction
    """The exact probability that every graded action was safe (pluck's argument)."""
    efficiency: ReplayEfficiency = field(repr=False)
    """The game graded for efficiency, computed once with the grading: its wasted clicks,
    the board's ZiNi, HZiNi and fewest clicks, the speed figures."""

    @property
    def won(self) -> bool:
        return self.playback.won

    @property
    def pluck(self) -> float:
        """``-log10`` of :attr:`safe_product`; infinite for a lost game."""
        q = self.safe_product
        if self.playback.status == "lost" or q == 0:
            return math.inf
        return math.log10(q.denominator) - math.log10(q.numerator)

    @property
    def bbbv(self) -> int:
        return self.playback.stats.bbbv

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV solved per second: a lost game counts only the 3BV its clicks solved."""
        t = self.replay.time
        solved = self.bbbv if self.won else self.playback.clicks.bbbv_solved
        return solved / t if t > 0 else None

    @property
    def ioe(self) -> float | None:
        """Solved 3BV per click."""
        c = self.playback.clicks
        return c.bbbv_solved / c.total if c.total else None

    @property
    def correctness(self) -> float | None:
        """Effective clicks per click."""
        c = self.playback.clicks
        return c.effective / c.total if c.total else None

    @property
    def throughput(self) -> float | None:
        """Solved 3BV per effective click."""
        c = self.playback.clicks
        return c.bbbv_solved / c.effective if c.effective else None

    @property
    def guesses(self) -> list[MoveGrade]:
        return [m for m in self.moves if m.guess]

    @property
    def needless_guesses(self) -> list[MoveGrade]:
        return [m for m in self.moves if m.needless]

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.playback.warnings


def grade_replay(
    replay: Replay,
    *,
    best: bool = True,
    playback: Playback | None = None,
    clicks_work: int = REPORT_WORK,
    clicks_seconds: float | None = MIN_CLICKS_SECONDS,
    zini_runs: int = REPORT_ZINI_RUNS,
) -> ReplayAnalysis:
    """Grade every action of ``replay`` (see the module docstring); ``best=False`` skips
    what costs most: ``best``'s move and the win chances at each guess. ``playback`` is
    the replay's :func:`~minesolver.replay.actions.play_events`, when the caller has it
    already (else it is played here). The game's efficiency is graded too
    (:func:`~minesolver.replay.efficiency.replay_efficiency`: the board's fewest clicks
    searched with ``clicks_work`` steps of search and ``zini_runs`` random ZiNi runs, within
    the safety deadline ``clicks_seconds``).

    >>> from minesolver.game import Layout
    >>> from minesolver.replay.evf_write import replay_from_moves
    >>> layout = Layout.from_cells(3, 1, [(2, 0)])
    >>> graded = grade_replay(replay_from_moves(layout, [("open", (0, 0), 0)]))
    >>> graded.won, [m.verdict for m in graded.moves]
    (True, ['-'])
    """
    if playback is None:
        playback = play_events(replay)
    cache: dict[object, ComponentCount] = {}
    player, solver = _best_player() if best else (None, None)
    moves: list[MoveGrade] = []
    product = Fraction(1)
    started = False
    for action, view in playback.positions(replay.layout):
        if action.kind not in ("open", "chord"):
            moves.append(MoveGrade(action, graded=False))
            continue
        if not started:
            started = True
            first = _first_grade(action, replay)
            moves.append(first)
            if first.p is not None:
                product *= 1 - first.p
            continue
        grade = _grade(action, view, cache, player, solver)
        moves.append(grade)
        assert grade.p is not None
        product *= 1 - grade.p
    efficiency = replay_efficiency(
        replay, playback, work=clicks_work, seconds=clicks_seconds, zini_runs=zini_runs
    )
    return ReplayAnalysis(replay, playback, tuple(moves), product, efficiency)


def _first_grade(action: Action, replay: Replay) -> MoveGrade:
    """The first click, graded by the replay's first-click rule alone (ungraded when the
    rule is unknown, or the action is no single open): O(1)."""
    rule = replay.first_click
    if rule is None or action.kind != "open":
        return MoveGrade(action, graded=False)
    p = Fraction(replay.mines, replay.width * replay.height) if rule == "none" else Fraction(0)
    return MoveGrade(action, True, p, p, safe_existed=p == 0)


def _best_player() -> tuple[Callable[[Position], Move | None], EndgameSolver]:
    """``best``'s first opening move on a position, and an endgame solver that shares
    ``best``'s own transposition cache (one per game): the win chances of a guess are
    then mostly what ``best``'s search has already valued."""
    # the Python best (best-py): its endgame solver is the one shared here
    player = BestPlayer(Options(endgame_budget=ENDGAME_BUDGET))
    player.reset(random.Random(0))

    def first_opening(view: Position) -> Move | None:
        moves = player.next_moves(view)
        return next((m for m in moves if m.kind != "flag"), moves[0] if moves else None)

    return first_opening, player.endgame


def _grade(
    action: Action,
    view: Position,
    cache: MutableMapping[object, ComponentCount],
    player: Callable[[Position], Move | None] | None,
    solver: EndgameSolver | None,
) -> MoveGrade:
    analysis = analyze(view, trust_flags=False, cache=cache)
    probs = analysis.probabilities
    if action.kind == "open":
        p = probs[action.cell]
    else:
        p = 1 - probability_all_safe(analysis, _chord_cells(view, action.cell), cache)
    safest = min(probs.values())
    best = None
    plain = view.without_flags()
    if p > 0 and player is not None:
        best = player(plain)
    win = best_win = None
    if p > 0 and solver is not None and action.kind == "open" and not analysis.safe:
        win, best_win = _win_chances(plain, action.cell, analysis, solver)
    return MoveGrade(action, True, p, safest, bool(analysis.safe), best, analysis, win, best_win)


ENDGAME_LAYOUTS = 1000
"""The most layouts for which a guess's win chance is searched exactly."""
ENDGAME_BUDGET = 20_000
"""Node expansions of that search, beyond which the chances are left out."""


def _win_chances(
    plain: Position, cell: Cell, analysis: Analysis, solver: EndgameSolver
) -> tuple[Fraction | None, Fraction | None]:
    """The chance of winning after opening ``cell``, and after the best cell, both with
    perfect play after (the endgame search of :mod:`minesolver.strategy.endgame`), when
    at most :data:`ENDGAME_LAYOUTS` layouts remain and the search fits its budget.
    ``plain`` is the position without the player's flags and no certainly safe cell."""
    if analysis.layouts is None or analysis.layouts > ENDGAME_LAYOUTS:
        return None, None
    try:
        layouts = enumerate_layouts(plain, ENDGAME_LAYOUTS)
        _, best_wins, total = solver.best_move(plain, layouts)
        wins = solver.move_wins(plain, layouts, cell)
    except (SearchBudgetExceeded, TooManyLayouts, ValueError):
        return None, None
    return Fraction(wins, total), Fraction(best_wins, total)


def _chord_cells(view: Position, cell: Cell) -> list[Cell]:
    """The cells a chord on ``cell`` opens: its hidden, unflagged neighbours."""
    return [c for c in view.neighbours(cell) if view[c] == HIDDEN]


def probability_all_safe(
    analysis: Analysis,
    cells: list[Cell],
    cache: MutableMapping[object, ComponentCount] | None = None,
) -> Fraction:
    """The exact probability that every cell of ``cells`` (unknown in ``analysis``) is
    safe, by the chain rule over the digits each could show (see the module docstring).

    >>> from minesolver.position import Position
    >>> a = analyze(Position.from_text("3x1x1\\nH1H"))
    >>> probability_all_safe(a, [(0, 0), (2, 0)])
    Fraction(0, 1)
    """
    unsure = [c for c in cells if analysis.probabilities[c] != 0]
    if not unsure:
        return Fraction(1)
    first, rest = unsure[0], unsure[1:]
    if not rest:
        return 1 - analysis.probabilities[first]
    if analysis.layouts is None:
        raise ValueError("the chance that several cells are all safe needs an exact count")
    total = Fraction(0)
    for digit in range(9):
        try:
            child = analyze_after(analysis, first, digit, cache=cache)
        except InconsistentPosition:
            continue
        weight = Fraction(child.layouts or 0, analysis.layouts)
        total += weight * probability_all_safe(child, rest, cache)
    return total
