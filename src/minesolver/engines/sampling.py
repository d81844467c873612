"""Monte Carlo over consistent layouts with the right weights: i.i.d. exact sampling.

A uniformly random consistent layout (every layout with exactly the total equally
likely; under a density, each weighted by ``p^m (1-p)^(u-m)``) is drawn in three exact
steps, all in Python ints (no float weight ever overflows or rounds):

1. the mine number of every component, from the joint weights
   ``prod_c L_c[k_c] * C(I, M - sum k_c)`` (``L_c`` the component's mine-count polynomial
   from the exact engine, ``I`` interior cells), drawn one component after another with
   the suffix weights of :func:`minesolver.counting.rest_weights` (the tables the exact
   combination uses);
2. the mine number of every box of a component given its mine number ``k``, uniformly
   among the component's layouts with ``k`` mines, by backward sampling through the
   forward tables of a frontier DP
   (:class:`~minesolver.engines.frontier_sampler.ComponentSampler`);
3. which cells of a box hold its mines (uniform; only its count matters below).

Estimates are Rao-Blackwellised: a sample contributes ``k_b / s_b`` to each cell of box
``b`` (``j / I`` to each interior cell), which is unbiased and no noisier than the 0/1
indicator. Each cell gets the sample mean and its standard error ``sd / sqrt(N)``.
Certain cells are exact (from the supports of the exact counts); a cell that is not
certain but was never seen as a mine (or always) is reported as ``1/(2N)`` (or
``1 - 1/(2N)``), so the estimate never claims certainty, and every uncertain cell's error
is at least ``1/N`` (a share that never varied has zero sample variance but is not exact).

Cost: the exact counts, plus per component one frontier DP (the exact engine's cost),
plus O(samples * (n_boxes + components * range)) to draw (the cumulative predecessor
weights of each visited (step, state, mines left) are computed once and bisected).
Seeded: the same seed gives the same samples.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from math import sqrt
from typing import TYPE_CHECKING

from minesolver.counting import (
    ComponentCount,
    Poly,
    RestWeights,
    rest_weights,
)
from minesolver.engines.approximate import approximate_analysis
from minesolver.engines.base import EngineLimitExceeded
from minesolver.engines.exact import FrontierEngine
from minesolver.engines.frontier_sampler import ComponentSampler, choose, dry_run_ops
from minesolver.position import InconsistentPosition
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Problem

__all__ = ["MAX_OPS", "SamplingEngine", "interval_mask"]

MAX_OPS = 5e7
"""Largest estimated frontier-DP work (:func:`dry_run_ops`) the exact-weight sampler
accepts per component: about 15 s of counting."""


def interval_mask(mask: int, low: int, high: int) -> bool:
    """Whether the bit set ``mask`` has a bit in ``low..high``."""
    if high < 0 or high < low:
        return False
    low = max(low, 0)
    return (mask >> low) & ((1 << (high - low + 1)) - 1) != 0


def _support(poly: Poly) -> int:
    return sum(1 << m for m, v in enumerate(poly) if v)


def _sumset(a: int, b: int) -> int:
    """``{x + y : x in a, y in b}`` for bit sets."""
    out = 0
    while b:
        low = b & -b
        out |= a << (low.bit_length() - 1)
        b ^= low
    return out


class SamplingEngine:
    """I.i.d. Monte Carlo with exact weights and a standard error per cell (``sampling``)."""

    name = "sampling"

    def __init__(self, samples: int = 1000, seed: int = 0) -> None:
        if samples < 2:
            raise ValueError(f"sampling needs at least 2 samples, got {samples}")
        self.samples = samples
        self.seed = seed

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        if limit is not None and (limit.samples is not None or limit.seed is not None):
            return SamplingEngine(
                samples=limit.samples or self.samples,
                seed=self.seed if limit.seed is None else limit.seed,
            ).analyze_problem(problem)

        rng = random.Random(self.seed)
        comps = problem.components
        for comp in comps:  # never start a count that would not end
            if dry_run_ops(comp, MAX_OPS) == float("inf"):
                raise EngineLimitExceeded(
                    f"sampling: a component of {len(comp.boxes)} boxes needs more than "
                    f"{MAX_OPS:.0e} operations to count; use mcmc or analyze(budget=...)"
                )
        shared: dict[object, ComponentSampler] = {}  # identical components share one DP
        samplers = [
            shared.get(c.key()) or shared.setdefault(c.key(), ComponentSampler(c)) for c in comps
        ]
        exact = FrontierEngine()
        counts = [exact.count(c) for c in comps]
        for comp, count in zip(comps, counts, strict=True):
            if not count.layouts:
                x, y = problem.position.coords(comp.origins[0])
                raise InconsistentPosition(f"no mine layout satisfies the digits around ({x}, {y})")
        interior = len(problem.interior)
        n = len(comps)
        total = problem.mines_left if problem.density is None else None
        feasible = self._feasible(counts, interior, total)

        # joint weights of the components' mine numbers.
        rest: RestWeights | None = None
        if total is not None:
            rest = rest_weights([c.layouts for c in counts], interior, total, scaled=False)
            if rest is None or not rest.tables[0] or rest.tables[0][0] == 0:
                raise InconsistentPosition(
                    f"the total of {problem.position.mines} mines is inconsistent with the digits"
                )
        else:
            assert problem.density is not None
            p, q = problem.density.numerator, problem.density.denominator
            dens_weights = [
                [v * p**k * (q - p) ** (comp.size - k) for k, v in enumerate(count.layouts)]
                for comp, count in zip(comps, counts, strict=True)
            ]

        sizes = [[len(b) for b in comp.boxes] for comp in comps]
        sum_k = [[0] * len(s) for s in sizes]
        sum_k2 = [[0] * len(s) for s in sizes]
        int_sum = int_sum2 = 0
        big_n = self.samples
        for _ in range(big_n):
            used = 0
            for c in range(n):
                if rest is not None:
                    weights = rest.draw_weights(c, counts[c].layouts, used)
                else:
                    weights = dens_weights[c]
                k_c = choose(weights, rng)
                used += k_c
                for b, k in samplers[c].draw(k_c, rng).items():
                    sum_k[c][b] += k
                    sum_k2[c][b] += k * k
            if total is not None:
                j = total - used
                int_sum += j
                int_sum2 += j * j

        probs: dict[int, Fraction] = {}
        errors: dict[int, float] = {}
        floor = Fraction(1, 2 * big_n)
        for c, comp in enumerate(comps):
            layouts = counts[c].layouts
            for b, box in enumerate(comp.boxes):
                s = sizes[c][b]
                mean = Fraction(sum_k[c][b], s * big_n)
                var = (Fraction(sum_k2[c][b], s * s) - big_n * mean * mean) / (big_n - 1)
                err = sqrt(max(float(var), 0.0) / big_n)
                certain = _certain(counts[c].box_mines[b], layouts, feasible[c])
                if certain is not None:
                    mean, err = certain, 0.0
                else:
                    mean, err = _uncertain(mean, err, floor)
                probs.update(dict.fromkeys(box, mean))
                errors.update(dict.fromkeys(box, err))
        if interior:
            if total is None:
                assert problem.density is not None
                mean, err = problem.density, 0.0
            else:
                mean = Fraction(int_sum, interior * big_n)
                var = (Fraction(int_sum2, interior**2) - big_n * mean * mean) / (big_n - 1)
                err = sqrt(max(float(var), 0.0) / big_n)
                possible = _all_support(counts)
                lo_j = total - interior
                can_mine = interval_mask(possible, lo_j, total - 1)
                can_free = interval_mask(possible, lo_j + 1, total)
                if not can_mine:
                    mean, err = Fraction(0), 0.0
                elif not can_free:
                    mean, err = Fraction(1), 0.0
                else:
                    mean, err = _uncertain(mean, err, floor)
            probs.update(dict.fromkeys(problem.interior, mean))
            errors.update(dict.fromkeys(problem.interior, err))
        return approximate_analysis(problem, probs, errors, engine=self.name)

    @staticmethod
    def _feasible(counts: Sequence[ComponentCount], interior: int, total: int | None) -> list[int]:
        """Per component, the bit set of its mine numbers that some consistent layout of
        the whole position uses (the others and the interior can complete it)."""
        supports = [_support(c.layouts) for c in counts]
        if total is None:
            return supports
        n = len(supports)
        prefix = [1] * (n + 1)
        for c in range(n):
            prefix[c + 1] = _sumset(prefix[c], supports[c])
        suffix = [1] * (n + 1)
        for c in range(n - 1, -1, -1):
            suffix[c] = _sumset(suffix[c + 1], supports[c])
        out = []
        for c in range(n):
            rest = _sumset(prefix[c], suffix[c + 1])
            mask = 0
            for k in range(supports[c].bit_length()):
                if supports[c] >> k & 1 and interval_mask(rest, total - interior - k, total - k):
                    mask |= 1 << k
            out.append(mask)
        return out


def _certain(marginal: Poly, layouts: Poly, feasible: int) -> Fraction | None:
    """0 or 1 when a box is empty (full) in every layout of its component with a
    feasible mine number (``marginal``: the exact per-box counts), else ``None``."""
    ks = [k for k in range(len(layouts)) if feasible >> k & 1]
    if all(k >= len(marginal) or marginal[k] == 0 for k in ks):
        return Fraction(0)
    if all(k < len(marginal) and marginal[k] == layouts[k] for k in ks):
        return Fraction(1)
    return None


def _all_support(counts: Sequence[ComponentCount]) -> int:
    """Bit set of the frontier mine totals the components can hold together."""
    out = 1
    for c in counts:
        out = _sumset(out, _support(c.layouts))
    return out


def _uncertain(mean: Fraction, err: float, floor: Fraction) -> tuple[Fraction, float]:
    """Keep a non-certain estimate strictly inside (0, 1), and its error at least
    ``2 * floor = 1/N``: a box whose share never varied over ``N`` samples (zero sample
    variance) is not certain, and a rarer value than about ``1/N`` may simply not have
    shown up (the "rule of three" bounds it by ``3/N`` at 95 %)."""
    if mean <= 0:
        mean = floor
    elif mean >= 1:
        mean = 1 - floor
    return mean, max(err, float(2 * floor))
