"""The position as a 0-1 (box-integer) programme: LP bounds, and certain cells by MILP.

Variables: ``k_b`` in ``0..s_b`` for each box of ``s_b`` interchangeable cells (the same
programme as one 0-1 variable per cell, with the cell symmetry divided out) and, under a
total, ``j`` in ``0..I`` for the ``I`` interior cells. Constraints: each clue
``sum_{b in clue} k_b = v``; the total ``sum k_b + j = M``. Solved with HiGHS through
:func:`scipy.optimize.linprog` / :func:`scipy.optimize.milp`.

**LP bounds and the displayed probabilities.** The exact probability of a cell of box
``b`` is an average of ``k_b / s_b`` over integer solutions, all of which lie in the LP
polytope; so it lies in ``[LPmin(k_b), LPmax(k_b)] / s_b``. The engine reports the
midpoint of that interval as the cell's value and the half-width as its error: a
*rigorous bound*, but the midpoint is **not a probability model** (it knows nothing of how
many layouts sit where; see the benchmark for its error). The total couples components
only through one sum, so the LP is solved per component, its mine sum confined to the
interval the other components' LP sum ranges and the interior leave it (exact for the
LP, since each component's feasible sums form an interval). One LP per open bound;
an LP solution at ``0`` or ``s_b`` settles that bound for every box it touches.

**Certain cells.** A box is certainly safe iff no integer solution has ``k_b >= 1``,
certainly mines iff none has ``k_b <= s_b - 1``. LP bounds settle some questions
(``LPmax < 1``, ``LPmin > s_b - 1``); each remaining one is one MILP maximising or
minimising ``k_b``, whose solution also answers every other question it witnesses
(:mod:`minesolver.engines.certain`). When the LP sum ranges show the total cannot bind
(every combination of component sums leaves the interior between 0 and ``I`` mines), the
MILPs are per component; otherwise over the whole position. ``.safe`` and
``.certain_mines`` are exact; ``layouts`` is ``None`` (not counted). Cost: 2 LPs per
component and per unsettled box bound, plus one MILP (NP-hard, small in practice) per
unsettled question.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import csr_matrix

from minesolver.engines.base import (
    EngineLimitExceeded,
    check_deadline,
    deadline_scope,
    seconds_left,
)
from minesolver.engines.certain import Witness, certain_analysis, frontier_boxes
from minesolver.engines.generic import PositionEngineBase
from minesolver.position import InconsistentPosition
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Component, Problem

__all__ = ["MILP_SECONDS", "IlpEngine"]

_TOL = 1e-6
MILP_SECONDS = 60.0
"""Time limit of one MILP call (HiGHS); beyond it the engine refuses."""


def _rational(value: float) -> Fraction:
    """An LP value as the nearby fraction with a small denominator (vertices are
    rational with small denominators; floats only carry them)."""
    return Fraction(value).limit_denominator(10_000)


class _Block:
    """One component's programme: equality rows over its boxes, plus an optional row
    bounding the sum of all its boxes."""

    def __init__(self, comp: Component) -> None:
        self.sizes = np.array([len(b) for b in comp.boxes], dtype=float)
        n = len(comp.boxes)
        rows: list[int] = []
        cols: list[int] = []
        for r, (boxes, _) in enumerate(comp.constraints):
            rows.extend([r] * len(boxes))
            cols.extend(boxes)
        self.a_eq = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(comp.constraints), n))
        self.b_eq = np.array([v for _, v in comp.constraints], dtype=float)
        self.n = n
        self.sum_range: tuple[float, float] = (-np.inf, np.inf)

    def lp(self, objective: np.ndarray) -> np.ndarray | None:
        """An optimal LP vertex for ``min objective . k`` (``None`` if infeasible)."""
        check_deadline()
        lo, hi = self.sum_range
        kwargs: dict[str, np.ndarray] = {}
        if lo > -np.inf or hi < np.inf:
            kwargs = {
                "A_ub": np.vstack([np.ones(self.n), -np.ones(self.n)]),
                "b_ub": np.array([hi + _TOL, -lo + _TOL]),
            }
        res = linprog(
            objective,
            A_eq=self.a_eq,
            b_eq=self.b_eq,
            bounds=list(zip([0.0] * self.n, self.sizes, strict=True)),
            method="highs",
            **kwargs,
        )
        return np.asarray(res.x) if res.status == 0 else None


class IlpEngine(PositionEngineBase):
    """LP bounds and MILP certain cells through HiGHS (``ilp``)."""

    name = "ilp"

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        """LP bounds and MILP certain cells, in named steps: each component's LP sum range
        and what the total leaves it (:func:`_sum_ranges`, 2 LPs a component), every box's
        LP bounds (:func:`_box_bounds`, at most 2 LPs a box), the certain cells
        (:meth:`_decide`, a MILP per unsettled question) and the rough values of the
        others (:func:`_rough`, O(boxes)). ``limit.seconds`` (or an enclosing deadline) is
        checked before every LP and bounds every MILP: :class:`EngineLimitExceeded` past it."""
        with deadline_scope(None if limit is None else limit.seconds):
            return self._analyze(problem)

    def _analyze(self, problem: Problem) -> Analysis:
        blocks = [_Block(c) for c in problem.components]
        boxes = frontier_boxes(problem)
        total = problem.mines_left if problem.density is None else None
        sum_lo, sum_hi = _sum_ranges(blocks, total, len(problem.interior))
        lp_lo, lp_hi = _box_bounds(blocks)
        witness = self._decide(problem, blocks, boxes, (lp_lo, lp_hi), (sum_lo, sum_hi))
        rough = _rough(problem, boxes, (lp_lo, lp_hi), (sum_lo, sum_hi))
        return certain_analysis(
            problem, [*boxes, problem.interior], witness, rough, engine=self.name
        )

    def _decide(
        self,
        problem: Problem,
        blocks: Sequence[_Block],
        boxes: Sequence[tuple[int, ...]],
        bounds: tuple[list[float], list[float]],
        sums: tuple[float, float],
    ) -> Witness:
        """Which boxes (and the interior) can hold a mine and a non-mine: questions the LP
        bounds settle are not asked; the others by MILP, per component when the total
        cannot bind, else over the whole position. What neither bound nor MILP showed
        possible is impossible: certain."""
        lp_lo, lp_hi = bounds
        sum_lo, sum_hi = sums
        interior = len(problem.interior)
        total = problem.mines_left if problem.density is None else None
        sizes = [len(b) for b in boxes] + [interior]
        witness = Witness(sizes)
        settled: set[tuple[int, bool]] = set()  # questions the LP bounds answer "no"
        for b, s in enumerate(sizes[:-1]):
            if lp_hi[b] < 1 - _TOL:
                settled.add((b, True))
            if lp_lo[b] > s - 1 + _TOL:
                settled.add((b, False))
        if total is None:  # under a density the interior keeps its prior: never certain
            witness.can_mine[-1] = witness.can_free[-1] = True
        binding = total is not None and (sum_hi > total + _TOL or sum_lo < total - interior - _TOL)
        if binding:
            assert total is not None
            self._decide_whole(problem, blocks, witness, settled, total, interior)
        else:
            self._decide_blocks(blocks, witness, settled, total, interior)
        return witness

    @staticmethod
    def _ask(
        c: np.ndarray, a: csr_matrix, lo: np.ndarray, hi: np.ndarray, upper: np.ndarray
    ) -> np.ndarray | None:
        """An optimal integer solution of ``min c.x`` s.t. ``lo <= a x <= hi``,
        ``0 <= x <= upper`` (``None`` if infeasible); within the current deadline."""
        check_deadline()
        left = seconds_left()
        res = milp(
            c,
            constraints=LinearConstraint(a, lo, hi),
            integrality=np.ones(len(c)),
            bounds=Bounds(np.zeros(len(c)), upper),
            options={"time_limit": MILP_SECONDS if left is None else min(MILP_SECONDS, left)},
        )
        check_deadline()
        if res.status == 1:  # stopped by the time limit: the question stays open
            raise EngineLimitExceeded(
                f"ilp: a MILP over {len(c)} variables took more than {MILP_SECONDS} s"
            )
        return None if res.x is None else np.rint(res.x).astype(int)

    def _decide_blocks(
        self,
        blocks: Sequence[_Block],
        witness: Witness,
        settled: set[tuple[int, bool]],
        total: int | None,
        interior: int,
    ) -> None:
        """Per-component MILPs (the total cannot bind); then the interior's questions
        from each component's integer sum range."""
        offset = 0
        sum_min = sum_max = 0
        for blk in blocks:
            questions = [
                (b, m)
                for b, m in witness.open_questions()
                if offset <= b < offset + blk.n and (b, m) not in settled
            ]
            ks = self._ask(np.zeros(blk.n), blk.a_eq, blk.b_eq, blk.b_eq, blk.sizes)
            if ks is None:
                raise InconsistentPosition("no mine layout satisfies the digits (MILP)")
            _mark(witness, offset, ks, blk.sizes)
            for b, mine in questions:
                if witness.answered(b, mine):
                    continue
                c = np.zeros(blk.n)
                c[b - offset] = -1.0 if mine else 1.0
                ks = self._ask(c, blk.a_eq, blk.b_eq, blk.b_eq, blk.sizes)
                if ks is not None:
                    _mark(witness, offset, ks, blk.sizes)
            if total is not None and interior:
                for sign in (1.0, -1.0):
                    ks = self._ask(np.full(blk.n, sign), blk.a_eq, blk.b_eq, blk.b_eq, blk.sizes)
                    assert ks is not None
                    if sign > 0:
                        sum_min += int(ks.sum())
                    else:
                        sum_max += int(ks.sum())
            offset += blk.n
        if total is not None and interior:
            witness.can_mine[-1] = sum_min <= total - 1
            witness.can_free[-1] = sum_max >= total - interior + 1

    def _decide_whole(
        self,
        problem: Problem,
        blocks: Sequence[_Block],
        witness: Witness,
        settled: set[tuple[int, bool]],
        total: int,
        interior: int,
    ) -> None:
        """MILPs over the whole position, total included (it may bind)."""
        n = sum(blk.n for blk in blocks) + 1  # the last variable is the interior count j
        rows: list[int] = []
        cols: list[int] = []
        values: list[float] = []
        r = 0
        offset = 0
        for comp, blk in zip(problem.components, blocks, strict=True):
            for boxes, v in comp.constraints:
                rows.extend([r] * len(boxes))
                cols.extend(offset + b for b in boxes)
                values.append(v)
                r += 1
            offset += blk.n
        rows.extend([r] * n)
        cols.extend(range(n))
        values.append(total)
        a = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(r + 1, n))
        bound = np.array(values, dtype=float)
        upper = np.concatenate([*(blk.sizes for blk in blocks), [float(interior)]])
        ks = self._ask(np.zeros(n), a, bound, bound, upper)
        if ks is None:
            raise InconsistentPosition("no mine layout satisfies the digits and the total (MILP)")
        _mark(witness, 0, ks, upper)
        for b, mine in witness.open_questions():
            if witness.answered(b, mine) or (b, mine) in settled:
                continue
            c = np.zeros(n)
            c[b] = -1.0 if mine else 1.0
            ks = self._ask(c, a, bound, bound, upper)
            if ks is not None:
                _mark(witness, 0, ks, upper)


def _sum_ranges(blocks: Sequence[_Block], total: int | None, interior: int) -> tuple[float, float]:
    """Each component's LP range of its mine sum; under a total, each block's
    ``sum_range`` is then confined to what the total leaves it given the others' ranges
    and the interior. Returns the least and the most the frontier can hold (LP). Raises
    :class:`InconsistentPosition` when the digits or the total admit no LP solution.
    2 LPs per component."""
    ranges = []
    for blk in blocks:
        lo = blk.lp(np.ones(blk.n))
        hi = blk.lp(-np.ones(blk.n))
        if lo is None or hi is None:
            raise InconsistentPosition("no mine layout satisfies the digits (LP)")
        ranges.append((float(lo.sum()), float(hi.sum())))
    sum_lo = sum(r[0] for r in ranges)
    sum_hi = sum(r[1] for r in ranges)
    if total is not None:
        if sum_lo > total + _TOL or sum_hi < total - interior - _TOL:
            raise InconsistentPosition(
                f"the digits need between {sum_lo:g} and {sum_hi:g} mines (LP bounds) "
                f"but {total} remain with {interior} interior cells"
            )
        for blk, (lo_c, hi_c) in zip(blocks, ranges, strict=True):
            blk.sum_range = (
                max(lo_c, total - interior - (sum_hi - hi_c)),
                min(hi_c, total - (sum_lo - lo_c)),
            )
    return sum_lo, sum_hi


def _box_bounds(blocks: Sequence[_Block]) -> tuple[list[float], list[float]]:
    """LP min and max of every box's mine number, over all blocks in order. An LP vertex
    at a bound settles that bound for every box it touches, so fewer than 2 LPs per box
    are solved."""
    lp_lo: list[float] = []
    lp_hi: list[float] = []
    for blk in blocks:
        lo_b = [np.nan] * blk.n
        hi_b = [np.nan] * blk.n
        for b in range(blk.n):
            for sign, store in ((1.0, lo_b), (-1.0, hi_b)):
                if not np.isnan(store[b]):
                    continue
                objective = np.zeros(blk.n)
                objective[b] = sign
                x = blk.lp(objective)
                if x is None:
                    raise InconsistentPosition("no mine layout satisfies the digits (LP)")
                store[b] = float(x[b])
                for o in range(blk.n):  # vertices at a bound settle other boxes
                    if x[o] < _TOL:
                        lo_b[o] = 0.0
                    if x[o] > blk.sizes[o] - _TOL:
                        hi_b[o] = float(blk.sizes[o])
        lp_lo.extend(lo_b)
        lp_hi.extend(hi_b)
    return lp_lo, lp_hi


def _rough(
    problem: Problem,
    boxes: Sequence[tuple[int, ...]],
    bounds: tuple[list[float], list[float]],
    sums: tuple[float, float],
) -> dict[int, tuple[Fraction, float]]:
    """The displayed value of every box that is not certain, and of the interior: the
    midpoint of its LP interval and the half-width as the error (a bound, not a
    probability model); under a density the interior keeps its prior. O(boxes)."""
    lp_lo, lp_hi = bounds
    total = problem.mines_left if problem.density is None else None
    interior = len(problem.interior)
    rough: dict[int, tuple[Fraction, float]] = {}
    for b, box in enumerate(boxes):
        s = len(box)
        lo_f, hi_f = _rational(lp_lo[b]), _rational(lp_hi[b])
        rough[b] = ((lo_f + hi_f) / (2 * s), float((hi_f - lo_f) / (2 * s)))
    if total is None:
        assert problem.density is not None
        rough[len(boxes)] = (problem.density, 0.0)
    elif interior:
        j_lo = max(Fraction(0), total - _rational(sums[1]))
        j_hi = min(Fraction(interior), total - _rational(sums[0]))
        rough[len(boxes)] = (
            (j_lo + j_hi) / (2 * interior),
            float((j_hi - j_lo) / (2 * interior)),
        )
    return rough


def _mark(witness: Witness, offset: int, ks: np.ndarray, sizes: np.ndarray) -> None:
    """Record the questions an integer solution answers for boxes ``offset..``."""
    for i, (k, s) in enumerate(zip(ks, sizes, strict=True)):
        if k >= 1:
            witness.can_mine[offset + i] = True
        if k <= s - 1:
            witness.can_free[offset + i] = True
