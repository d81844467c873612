"""Certain cells by SAT with native cardinality constraints (python-sat's Minicard).

One Boolean per frontier cell; each clue ``sum(cells) == v`` is two native cardinality
constraints, ``AtMost(cells, v)`` and ``AtMost(not cells, n - v)`` (an AtLeast); the
total says the frontier holds between ``M - I`` and ``M`` mines (``I`` interior cells,
which are interchangeable and need no variables). Cells of a box are interchangeable, so
they are ordered (``x_{i+1} -> x_i``, symmetry breaking): the box can hold a mine iff its
first cell can, a non-mine iff its last cell can.

The decision is incremental on one solver: a first model witnesses, for every box, the
values it shows (see :mod:`minesolver.engines.certain`); each box still unanswered is
asked once under an assumption (``first cell true`` or ``last cell false``); UNSAT makes
it certain, SAT gives a new model that answers many other questions at once. The interior
questions (can it hold a mine: the frontier holds at most ``M - 1``; a non-mine: at least
``M - I + 1``) use cardinality constraints guarded by a selector literal, switched on by
assumption. Under a density there is no total and the interior is never certain.

Cost: one SAT call per certain box plus the calls whose model answers new questions;
each call is NP-hard in theory, fast in practice on Minesweeper frontiers (thousands of
cells in well under a second). Probabilities of uncertain cells are only the
Laplace-smoothed share of mines among the models seen: not a probability model, error
bound ``max(p, 1 - p)``. ``layouts`` is ``None`` (not counted).
"""

from __future__ import annotations

import random
import threading
import time
from itertools import count, pairwise
from typing import TYPE_CHECKING

from pysat.solvers import Minicard

from minesolver.engines.base import EngineLimitExceeded, check_deadline, seconds_left
from minesolver.engines.certain import Witness, certain_analysis, frontier_boxes
from minesolver.engines.generic import PositionEngineBase
from minesolver.position import InconsistentPosition
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Problem

__all__ = ["MAX_CONFLICTS", "SatEngine", "random_layout"]

MAX_CONFLICTS = 10_000_000
"""Conflicts allowed per SAT call before the engine refuses."""


class SatEngine(PositionEngineBase):
    """Certain safe cells and mines from a cardinality SAT solver (``sat``).

    With a time limit (``seconds``, or a :class:`~minesolver.result.Limit` per call) the
    questions still open when it runs out are left undecided: those cells are reported
    uncertain, never certain without proof. The first layout must be found within
    ``first_seconds`` (by default the same limit), else :class:`EngineLimitExceeded`.
    """

    name = "sat"

    def __init__(self, seconds: float | None = None, first_seconds: float | None = None) -> None:
        Limit(seconds=seconds)  # the same checks as a Limit
        Limit(seconds=first_seconds)
        self.seconds = seconds
        self.first_seconds = first_seconds

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        seconds = limit.seconds if limit is not None and limit.seconds else self.seconds
        witness, boxes, _ = decide(problem, seconds, self.first_seconds or seconds)
        return _analysis(problem, boxes, witness)


def decide(
    problem: Problem, seconds: float | None = None, first_seconds: float | None = None
) -> tuple[Witness, list[tuple[int, ...]], list[set[int]]]:
    """What decides the certain cells of ``problem`` (see :class:`SatEngine`): the
    witness over the frontier boxes followed by the interior, those boxes, and the
    frontier mines of
    the first and the last consistent layout the solver found (two starts for a Markov
    chain: the last one answers a different question than the first, so they differ
    whenever the position has more than one layout).

    Cost: one SAT call per box and side that no layout seen so far has answered (at most
    two per box, usually far fewer: each model answers many questions at once). An
    enclosing deadline (:func:`~minesolver.engines.base.deadline_scope`) bounds both
    limits, and the encoding checks it too.
    """
    left = seconds_left()
    if left is not None:
        seconds = left if seconds is None else min(seconds, left)
        first_seconds = left if first_seconds is None else min(first_seconds, left)
    now = time.perf_counter()
    deadline = None if seconds is None else now + seconds
    first_deadline = None if first_seconds is None else now + first_seconds
    boxes = frontier_boxes(problem)
    interior = len(problem.interior)
    new_var = count(1)
    solver, var = _encode(problem, new_var)
    try:
        left = problem.mines_left
        total = left is not None and problem.density is None
        guards: dict[bool, int] | None = None  # added when first needed: they slow
        # the solver down (a first layout on a large board took seconds instead of 0.4)
        sizes = [len(b) for b in boxes] + [interior]
        witness = Witness(sizes)
        layouts: list[set[int]] = []

        def record(model: list[int]) -> None:
            true = {v for v in model if v > 0}
            mines = {c for c, v in var.items() if v in true}
            layouts[1:] = [mines]
            ks = [sum(1 for c in box if c in mines) for box in boxes]
            if total:
                assert left is not None
                ks.append(left - sum(ks))
            else:
                ks.append(0)  # under a density the interior keeps its prior (below)
            witness.record(ks)

        if not _first(solver, first_deadline):
            raise InconsistentPosition(
                "no mine layout satisfies the digits and the total (SAT solver)"
            )
        record(solver.get_model() or [])
        layouts.insert(0, layouts[0])
        if interior and not total:  # under a density the interior is free
            witness.can_mine[-1] = witness.can_free[-1] = True
        nb = len(boxes)
        for b, want_mine in witness.open_questions():
            if witness.answered(b, want_mine):
                continue
            if b == nb:
                if guards is None:
                    guards = _interior_guards(solver, list(var.values()), problem, new_var)
                guard = guards.get(want_mine)
                assumptions = [] if guard is None else [guard]
            else:
                box = boxes[b]
                assumptions = [var[box[0]]] if want_mine else [-var[box[-1]]]
            found = _solve(solver, assumptions, deadline)
            if found is None:  # out of time: what is still open stays undecided
                witness.give_up()
                break
            if found:
                record(solver.get_model() or [])
        return witness, boxes, layouts[:2]
    finally:
        solver.delete()


def _interior_guards(
    solver: Minicard, frontier: list[int], problem: Problem, new_var: count[int]
) -> dict[bool, int]:
    """Selectors for the interior's two questions under a total: assuming ``guards[True]``
    leaves the interior room for a mine, ``guards[False]`` for a safe cell."""
    left = problem.mines_left
    interior = len(problem.interior)
    if left is None or problem.density is not None or not interior:
        return {}
    return {
        # interior can hold a mine: frontier <= left - 1.
        True: _guarded(solver, frontier, left - 1, new_var),
        # interior can hold a non-mine: not-frontier <= F - (left - I + 1).
        False: _guarded(
            solver, [-v for v in frontier], len(frontier) - (left - interior + 1), new_var
        ),
    }


def _analysis(problem: Problem, boxes: list[tuple[int, ...]], witness: Witness) -> Analysis:
    """The decided witness as an analysis, with rough frequencies for uncertain cells."""
    rough = {
        b: (witness.frequency(b), float(max(witness.frequency(b), 1 - witness.frequency(b))))
        for b in range(len(boxes) + 1)
    }
    if problem.density is not None:  # interior cells: the prior, exactly
        rough[len(boxes)] = (problem.density, 0.0)
    return certain_analysis(problem, [*boxes, problem.interior], witness, rough, engine="sat")


def _guarded(solver: Minicard, lits: list[int], bound: int, new_var: count[int]) -> int:
    """A selector ``a`` such that assuming ``a`` enforces ``sum(lits) <= bound``.

    ``t`` padding literals, each forced true by ``a``, join the constraint
    ``sum(lits) + sum(pad) <= bound + t``; with ``a`` false they may stay false and
    the constraint is void (``t = len(lits) - bound``). Returns ``a``.
    """
    a = next(new_var)
    if bound < 0:
        solver.add_clause([-a])
        return a
    pad = [next(new_var) for _ in range(max(0, len(lits) - bound))]
    for p in pad:
        solver.add_clause([-a, p])
    solver.add_atmost(lits + pad, bound + len(pad))
    return a


def _solve(solver: Minicard, assumptions: list[int], deadline: float | None = None) -> bool | None:
    """One SAT call within :data:`MAX_CONFLICTS` conflicts (:class:`EngineLimitExceeded`
    past them: never a hang) and before ``deadline`` (``time.perf_counter()``): ``None``
    when the deadline came first (the solver is interrupted by a timer)."""
    solver.conf_budget(MAX_CONFLICTS)
    if deadline is None:
        result = solver.solve_limited(assumptions=assumptions)
    else:
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        timer = threading.Timer(left, solver.interrupt)
        timer.start()
        try:
            result = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
            solver.clear_interrupt()
        if result is None and time.perf_counter() >= deadline:
            return None
    if result is None:
        raise EngineLimitExceeded(f"sat: one decision needed more than {MAX_CONFLICTS} conflicts")
    return bool(result)


def _first(solver: Minicard, deadline: float | None) -> bool:
    """Whether a first layout exists; :class:`EngineLimitExceeded` when none is found
    before ``deadline``."""
    found = _solve(solver, [], deadline)
    if found is None:
        raise EngineLimitExceeded(
            "no consistent layout found within the time limit (SAT solver): allow more time"
        )
    return found


def _encode(problem: Problem, new_var: count[int]) -> tuple[Minicard, dict[int, int]]:
    """A solver holding the clues, the box symmetry breaking and the total (the frontier
    holds between ``M - I`` and ``M`` mines); and each frontier cell's variable."""
    boxes = frontier_boxes(problem)
    var = {cell: next(new_var) for box in boxes for cell in box}
    frontier = list(var.values())
    solver = Minicard()
    try:
        for comp in problem.components:
            for e, (box_ids, value) in enumerate(comp.constraints):
                if e % 1024 == 1023:
                    check_deadline()
                lits = [var[c] for b in box_ids for c in comp.boxes[b]]
                solver.add_atmost(lits, value)
                solver.add_atmost([-v for v in lits], len(lits) - value)
    except EngineLimitExceeded:
        solver.delete()
        raise
    for box in boxes:
        for a, b in pairwise(box):
            solver.add_clause([-var[b], var[a]])
    left = problem.mines_left
    if left is not None and problem.density is None:
        interior = len(problem.interior)
        solver.add_atmost(frontier, left)
        if left - interior > 0:
            solver.add_atmost([-v for v in frontier], len(frontier) - (left - interior))
    return solver, var


def random_layout(problem: Problem, rng: random.Random, deadline: float | None = None) -> set[int]:
    """The frontier mines of one consistent layout (the total included), found by the SAT
    solver with random preferred phases, so that calls with different draws tend to land
    in different layouts (not uniformly: a start for a Markov chain, not a sample).
    Raises :class:`InconsistentPosition` when there is none, and
    :class:`EngineLimitExceeded` when none is found before ``deadline``."""
    solver, var = _encode(problem, count(1))
    try:
        solver.set_phases([v if rng.random() < 0.5 else -v for v in var.values()])
        if not _first(solver, deadline):
            raise InconsistentPosition("no mine layout satisfies the digits and the total")
        true = {v for v in solver.get_model() or [] if v > 0}
        return {cell for cell, v in var.items() if v in true}
    finally:
        solver.delete()
