"""Loopy belief propagation on the factor graph of the boxes (approximate).

Variables are boxes: box ``b`` of ``s`` cells holds ``k`` mines, ``k`` in ``0..s``, with the
prior ``C(s, k) rho^k (1 - rho)^(s - k)`` (each cell a mine independently with ``rho``);
factors are the clues, ``[sum of its boxes' k == v]``. Sum-product messages, normalised
floats, damped by one half, sent in parallel until the largest change is below ``1e-10``
or :data:`MAX_ITERATIONS` sweeps. A clue's messages to all its boxes come from prefix and
suffix convolutions of the incoming ones: O(d * L^2) per clue of ``d`` boxes.

How the total is handled (the bias to know): BP works with independent cells, i.e. a
*density*. Under a density ``p`` (``--density``) the prior is ``rho = p`` and BP is exact on
components whose factor graph is a tree; loops (two clues sharing two boxes, the usual
case on a real frontier) make it approximate. Under a total ``M`` the prior is
``rho = M' / U'`` (mines left over unknown cells left after the forced cells), the
grand-canonical stand-in for the fixed total, and the interior gets whatever the frontier
leaves: ``(M' - sum of frontier expectations) / I`` (clamped). Both the loops and this
density stand-in bias the result; the benchmark measures them apart
(``benchmarks/results/engines.md``): on 40 mid-game expert positions the mean error is
0.0055 against the exact answer under the total and 0.0053 under the matching density
(BP's own model), worst 0.67 in both, so the loops make almost all of it. The worst
case is a loop that freezes onto one layout (a row of seven cells under the digits
``1 2 2 2 1``: exact 1/2 for two cells, BP 0 and 1).

Consistency is checked as every engine checks it: a position no layout explains raises
:class:`InconsistentPosition`. Arc consistency (below) refuses a digit no neighbourhood
can satisfy and, with the mine-number range it leaves, a total the frontier and the
interior cannot hold (the exact path's message); then one consistent layout of the
whole position is asked of the SAT solver (:func:`minesolver.engines.sat.random_layout`,
within its conflict limit), which catches what arc consistency cannot see, an odd cycle
of digits, say. So ``bp`` refuses exactly what the exact engine refuses.

Certain cells are exact: a box value survives only if generalized arc consistency (run
on exact Booleans, the zero pattern of BP) keeps it, which is sound; every other value is
kept strictly inside (0, 1). The per-cell error reported is the trivial bound
``max(p, 1 - p)``: BP has no error estimate of its own.
Cost: O(iterations * sum over clues of d * L^2); ``layouts`` is ``None`` (not counted).
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from minesolver.counting import convolve, total_mismatch
from minesolver.engines.approximate import approximate_analysis
from minesolver.engines.base import check_deadline, deadline_scope, seconds_left
from minesolver.engines.generic import PositionEngineBase
from minesolver.engines.sat import random_layout
from minesolver.position import InconsistentPosition
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Component, Problem

__all__ = [
    "MAX_ITERATIONS",
    "BeliefPropagationEngine",
    "arc_consistent_supports",
    "check_consistent",
]

MAX_ITERATIONS = 200
"""Most parallel message sweeps per component."""

_EPS = 1e-9


def arc_consistent_supports(component: Component) -> list[set[int]]:
    """For each box, the mine numbers generalized arc consistency keeps (exact, sound:
    a value removed here is used by no consistent layout). Raises
    :class:`InconsistentPosition` when a box loses every value."""
    supports = [set(range(len(b) + 1)) for b in component.boxes]
    changed = True
    while changed:
        check_deadline()
        changed = False
        for boxes, v in component.constraints:
            # reachable sums of the other boxes, from prefix/suffix sum sets.
            n = len(boxes)
            prefix = [{0}]
            for b in boxes:
                prefix.append({x + k for x in prefix[-1] for k in supports[b] if x + k <= v})
            suffix = [{0}] * (n + 1)
            for i in range(n - 1, -1, -1):
                suffix[i] = {x + k for x in suffix[i + 1] for k in supports[boxes[i]] if x + k <= v}
            for i, b in enumerate(boxes):
                rest = {x + y for x in prefix[i] for y in suffix[i + 1] if x + y <= v}
                keep = {k for k in supports[b] if v - k in rest}
                if keep != supports[b]:
                    if not keep:
                        raise InconsistentPosition(
                            "no mine layout satisfies the digits (arc consistency)"
                        )
                    supports[b] = keep
                    changed = True
    return supports


def check_consistent(
    problem: Problem, supports: list[list[set[int]]], deadline: float | None = None
) -> None:
    """Raise :class:`InconsistentPosition` when no layout explains ``problem``.

    ``supports`` are the components' arc-consistent box values. The total must lie
    between the fewest mines they allow and the most plus the interior (O(boxes)); then
    the SAT solver must find one layout of the digits and the total (one bounded solver
    call; :class:`EngineLimitExceeded` past its conflict limit or ``deadline``, a
    ``time.perf_counter()`` value).
    """
    left = problem.mines_left
    if left is not None and problem.density is None:
        lo = sum(min(s) for comp in supports for s in comp)
        hi = sum(max(s) for comp in supports for s in comp)
        interior = len(problem.interior)
        if not lo <= left <= hi + interior:
            raise InconsistentPosition(
                total_mismatch(problem.position.mines, left, lo, hi, interior)
            )
    if not problem.components:
        return
    random_layout(problem, random.Random(0), deadline)


class BeliefPropagationEngine(PositionEngineBase):
    """Approximate probabilities by loopy belief propagation (``bp``)."""

    name = "bp"

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        """Beliefs after the sweeps (fewer when the deadline of ``limit.seconds``, or an
        enclosing one, passes first: the errors are the bound ``max(p, 1 - p)`` anyway);
        :class:`EngineLimitExceeded` when the consistency check does not end in time."""
        with deadline_scope(None if limit is None else limit.seconds) as deadline:
            return self._analyze(problem, deadline)

    def _analyze(self, problem: Problem, deadline: float | None) -> Analysis:
        interior = len(problem.interior)
        frontier_cells = sum(c.size for c in problem.components)
        if problem.density is not None:
            rho = float(problem.density)
        else:
            assert problem.mines_left is not None
            cells = frontier_cells + interior
            rho = problem.mines_left / cells if cells else 0.5
            rho = min(max(rho, _EPS), 1 - _EPS)
        probs: dict[int, Fraction] = {}
        all_supports = [arc_consistent_supports(comp) for comp in problem.components]
        check_consistent(problem, all_supports, deadline)
        expected = 0.0
        for comp, supports in zip(problem.components, all_supports, strict=True):
            for box, mean, support in zip(
                comp.boxes, self._beliefs(comp, rho, supports), supports, strict=True
            ):
                s = len(box)
                expected += mean * s
                if support == {0}:
                    p = Fraction(0)
                elif support == {s}:
                    p = Fraction(1)
                else:
                    p = Fraction(min(max(mean, _EPS), 1 - _EPS)).limit_denominator(10**12)
                probs.update(dict.fromkeys(box, p))
        if interior:
            if problem.density is not None:
                p_int = problem.density
            else:
                assert problem.mines_left is not None
                left = (problem.mines_left - expected) / interior
                p_int = Fraction(min(max(left, _EPS), 1 - _EPS)).limit_denominator(10**12)
            probs.update(dict.fromkeys(problem.interior, p_int))
        errors = {i: float(max(p, 1 - p)) if 0 < p < 1 else 0.0 for i, p in probs.items()}
        if problem.density is not None:
            errors.update(dict.fromkeys(problem.interior, 0.0))
        return approximate_analysis(problem, probs, errors, engine=self.name)

    @staticmethod
    def _beliefs(comp: Component, rho: float, supports: list[set[int]]) -> list[float]:
        """Each box's expected share of mines ``E[k] / s`` under loopy BP."""
        sizes = [len(b) for b in comp.boxes]
        prior = [
            [
                comb(s, k) * rho**k * (1 - rho) ** (s - k) if k in supports[b] else 0.0
                for k in range(s + 1)
            ]
            for b, s in enumerate(sizes)
        ]
        prior = [[x / sum(p) for x in p] for p in prior]
        clues = comp.constraints
        # f2v[c][i]: message from clue c to its i-th box.
        f2v = [[[1.0 / (sizes[b] + 1)] * (sizes[b] + 1) for b in boxes] for boxes, _ in clues]
        at: list[list[tuple[int, int]]] = [[] for _ in sizes]
        for c, (boxes, _) in enumerate(clues):
            for i, b in enumerate(boxes):
                at[b].append((c, i))
        for sweep in range(MAX_ITERATIONS):
            if sweep and seconds_left() == 0.0:
                break  # the deadline: the beliefs so far
            # variable -> clue messages.
            v2f: list[list[list[float]]] = []
            for c, (boxes, _) in enumerate(clues):
                row = []
                for b in boxes:
                    msg = list(prior[b])
                    for c2, i2 in at[b]:
                        if c2 != c:
                            msg = [x * y for x, y in zip(msg, f2v[c2][i2], strict=True)]
                    total = sum(msg)
                    row.append([x / total for x in msg] if total > 0 else msg)
                v2f.append(row)
            delta = 0.0
            for c, (boxes, v) in enumerate(clues):
                n = len(boxes)
                prefix = [[1.0]]
                for i in range(n):
                    prefix.append(convolve(prefix[-1], v2f[c][i])[: v + 1])
                suffix = [[1.0]] * (n + 1)
                for i in range(n - 1, -1, -1):
                    suffix[i] = convolve(suffix[i + 1], v2f[c][i])[: v + 1]
                for i, b in enumerate(boxes):
                    rest = convolve(prefix[i], suffix[i + 1])
                    msg = [
                        rest[v - k] if 0 <= v - k < len(rest) else 0.0 for k in range(sizes[b] + 1)
                    ]
                    total = sum(msg)
                    if total > 0:
                        msg = [x / total for x in msg]
                    old = f2v[c][i]
                    new = [0.5 * x + 0.5 * y for x, y in zip(old, msg, strict=True)]
                    delta = max(delta, max(abs(x - y) for x, y in zip(old, new, strict=True)))
                    f2v[c][i] = new
            if delta < 1e-10:
                break
        means = []
        for b, s in enumerate(sizes):
            belief = list(prior[b])
            for c, i in at[b]:
                belief = [x * y for x, y in zip(belief, f2v[c][i], strict=True)]
            total = sum(belief)
            means.append(
                sum(k * x for k, x in enumerate(belief)) / (s * total) if total > 0 else 0.5
            )
        return means
