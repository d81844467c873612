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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import TYPE_CHECKING

from minesolver.counting import (
    ComponentCount,
    Poly,
    rest_weights,
)
from minesolver.engines.approximate import approximate_analysis
from minesolver.engines.base import EngineLimitExceeded, deadline_scope, seconds_left
from minesolver.engines.exact_py import ExactPyEngine
from minesolver.engines.frontier import dry_run_ops
from minesolver.engines.frontier_sampler import ComponentSampler, choose
from minesolver.engines.generic import PositionEngineBase
from minesolver.errors import plural
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


class SamplingEngine(PositionEngineBase):
    """I.i.d. Monte Carlo with exact weights and a standard error per cell (``sampling``)."""

    name = "sampling"

    def __init__(self, samples: int = 1000, seed: int = 0) -> None:
        if samples < 2:
            raise ValueError(f"sampling needs at least 2 samples, got {samples}")
        self.samples = samples
        self.seed = seed

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        """I.i.d. draws of the position's layouts, summarised per cell, in named steps:
        count and build a sampler for every component (:func:`_count`, the exact engine's
        cost), the joint law of the components' mine numbers (:func:`_joint_weights`,
        the combination's suffix tables), the draws (:func:`_draw`,
        O(samples * (boxes + components * range))) and the estimates with their errors
        (:func:`_box_estimates`, :func:`_interior_estimate`, O(boxes + components))."""
        if limit is not None and (limit.samples is not None or limit.seed is not None):
            return SamplingEngine(
                samples=limit.samples or self.samples,
                seed=self.seed if limit.seed is None else limit.seed,
            ).analyze_problem(problem, None if limit.seconds is None else Limit(limit.seconds))
        with deadline_scope(None if limit is None else limit.seconds):
            return self._analyze(problem)

    def _analyze(self, problem: Problem) -> Analysis:
        rng = random.Random(self.seed)
        counts, samplers = _count(problem)
        total = problem.mines_left if problem.density is None else None
        weights_of = _joint_weights(problem, counts, total)
        sums = _draw(counts, samplers, weights_of, total, self.samples, rng)
        feasible = _feasible(counts, len(problem.interior), total)
        probs, errors = _box_estimates(problem, counts, feasible, sums)
        if problem.interior:
            mean, err = _interior_estimate(problem, counts, total, sums)
            probs.update(dict.fromkeys(problem.interior, mean))
            errors.update(dict.fromkeys(problem.interior, err))
        return approximate_analysis(problem, probs, errors, engine=self.name)


@dataclass(slots=True)
class _Sums:
    """What the draws add up: per component and box, the sum of its mine numbers and of
    their squares; the same for the interior; and the number of draws."""

    k: list[list[int]]
    k2: list[list[int]]
    samples: int
    interior: int = 0
    interior2: int = 0


_Weights = Callable[[int, int], list[int]]
"""Weights of component ``c``'s mine numbers given the mines ``used`` before it."""


def _count(problem: Problem) -> tuple[list[ComponentCount], list[ComponentSampler]]:
    """Each component's exact counts and its sampler (identical components share one DP).
    Refuses, before counting, a component whose estimated count exceeds :data:`MAX_OPS`;
    raises :class:`InconsistentPosition` for a component with no layout. Cost: a dry run
    and two frontier DPs per distinct component."""
    comps = problem.components
    for comp in comps:  # never start a count that would not end
        if dry_run_ops(comp, MAX_OPS) == float("inf"):
            raise EngineLimitExceeded(
                f"sampling: a component of {len(comp.boxes)} boxes needs more than "
                f"{MAX_OPS:.0e} operations to count; use mcmc or analyze(budget=...)"
            )
    shared: dict[object, ComponentSampler] = {}
    samplers = [
        shared.get(c.key()) or shared.setdefault(c.key(), ComponentSampler(c)) for c in comps
    ]
    exact = ExactPyEngine()
    counts = [exact.count(c) for c in comps]
    for comp, count in zip(comps, counts, strict=True):
        if not count.layouts:
            x, y = problem.position.coords(comp.origins[0])
            raise InconsistentPosition(f"no mine layout satisfies the digits around ({x}, {y})")
    return counts, samplers


def _joint_weights(
    problem: Problem, counts: Sequence[ComponentCount], total: int | None
) -> _Weights:
    """The law of the components' mine numbers, drawn one after another: under a total
    the suffix tables of :func:`~minesolver.counting.rest_weights` (unscaled: the draws
    for a seed stay as they were); under a density each component on its own,
    ``L[k] p^k (1-p)^(size-k)``. Raises :class:`InconsistentPosition` when the total
    fits no layout. Cost: that of the suffix tables, or O(sum of polynomial lengths)."""
    if total is not None:
        polys = [c.layouts for c in counts]
        rest = rest_weights(polys, len(problem.interior), total, scaled=False)
        if rest is None or not rest.tables[0] or rest.tables[0][0] == 0:
            raise InconsistentPosition(
                f"the total of {plural(problem.position.mines or 0, 'mine')} does not fit the "
                "digits"
            )
        return lambda c, used: rest.draw_weights(c, polys[c], used)
    assert problem.density is not None
    p, q = problem.density.numerator, problem.density.denominator
    dens_weights = [
        [v * p**k * (q - p) ** (comp.size - k) for k, v in enumerate(count.layouts)]
        for comp, count in zip(problem.components, counts, strict=True)
    ]
    return lambda c, used: dens_weights[c]


def _draw(
    counts: Sequence[ComponentCount],
    samplers: Sequence[ComponentSampler],
    weights_of: _Weights,
    total: int | None,
    samples: int,
    rng: random.Random,
) -> _Sums:
    """``samples`` i.i.d. layouts: per draw, each component's mine number from
    ``weights_of``, then its boxes' mine numbers from its sampler; the interior holds what
    the total leaves. O(samples * (boxes + components * range)). Under a deadline the
    draws stop there, with what they have (at least 2; :class:`EngineLimitExceeded` when
    not even those were made): their number, in the sums, makes the errors."""
    sums = _Sums([[0] * len(c.box_mines) for c in counts], [], samples)
    sums.k2 = [[0] * len(row) for row in sums.k]
    n = len(counts)
    timed = seconds_left() is not None
    for i in range(samples):
        if timed and seconds_left() == 0.0:
            if i < 2:
                raise EngineLimitExceeded(
                    "sampling: the time limit passed before two layouts were drawn"
                )
            sums.samples = i
            break
        used = 0
        for c in range(n):
            k_c = choose(weights_of(c, used), rng)
            used += k_c
            sum_k, sum_k2 = sums.k[c], sums.k2[c]
            for b, k in samplers[c].draw(k_c, rng).items():
                sum_k[b] += k
                sum_k2[b] += k * k
        if total is not None:
            j = total - used
            sums.interior += j
            sums.interior2 += j * j
    return sums


def _mean_error(total: int, squares: int, size: int, n: int) -> tuple[Fraction, float]:
    """Sample mean of a share ``x / size`` over ``n`` draws from the sums of ``x`` and
    ``x^2``, and its standard error. O(1) big-number operations."""
    mean = Fraction(total, size * n)
    var = (Fraction(squares, size * size) - n * mean * mean) / (n - 1)
    return mean, sqrt(max(float(var), 0.0) / n)


def _box_estimates(
    problem: Problem, counts: Sequence[ComponentCount], feasible: Sequence[int], sums: _Sums
) -> tuple[dict[int, Fraction], dict[int, float]]:
    """Each box's estimate and error by cell: exact 0 or 1 when its exact counts show it
    certain over the feasible mine numbers, else the Rao-Blackwellised mean kept inside
    (0, 1) (:func:`_uncertain`). O(boxes * range)."""
    probs: dict[int, Fraction] = {}
    errors: dict[int, float] = {}
    floor = Fraction(1, 2 * sums.samples)
    for c, comp in enumerate(problem.components):
        layouts = counts[c].layouts
        for b, box in enumerate(comp.boxes):
            mean, err = _mean_error(sums.k[c][b], sums.k2[c][b], len(box), sums.samples)
            certain = _certain(counts[c].box_mines[b], layouts, feasible[c])
            if certain is not None:
                mean, err = certain, 0.0
            else:
                mean, err = _uncertain(mean, err, floor)
            probs.update(dict.fromkeys(box, mean))
            errors.update(dict.fromkeys(box, err))
    return probs, errors


def _interior_estimate(
    problem: Problem, counts: Sequence[ComponentCount], total: int | None, sums: _Sums
) -> tuple[Fraction, float]:
    """The interior cells' estimate and error: the prior under a density; under a total,
    exact 0 or 1 when no frontier mine total leaves it room for a mine (a safe cell),
    else the mean kept inside (0, 1). O(components * range) bit operations."""
    if total is None:
        assert problem.density is not None
        return problem.density, 0.0
    interior = len(problem.interior)
    mean, err = _mean_error(sums.interior, sums.interior2, interior, sums.samples)
    possible = _all_support(counts)
    lo_j = total - interior
    if not interval_mask(possible, lo_j, total - 1):
        return Fraction(0), 0.0
    if not interval_mask(possible, lo_j + 1, total):
        return Fraction(1), 0.0
    return _uncertain(mean, err, Fraction(1, 2 * sums.samples))


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
