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
   forward tables of a frontier DP (:class:`ComponentSampler`);
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
from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction
from itertools import accumulate
from math import comb, sqrt
from typing import TYPE_CHECKING

from minesolver.constraints import Component
from minesolver.counting import (
    ComponentCount,
    Poly,
    RestWeights,
    poly_add_shifted,
    rest_weights,
)
from minesolver.engines.base import EngineLimitExceeded
from minesolver.engines.exact import FrontierEngine, box_order
from minesolver.position import InconsistentPosition
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Problem

__all__ = [
    "ComponentSampler",
    "FrontierPlan",
    "SamplingEngine",
    "choose",
    "dry_run_ops",
    "interval_mask",
]

State = tuple[int, ...]

MAX_OPS = 5e7
"""Largest estimated frontier-DP work (:func:`dry_run_ops`) the exact-weight sampler
accepts per component: about 15 s of counting."""


def choose(weights: Sequence[int], rng: random.Random) -> int:
    """An index drawn with probability ``weights[i] / sum(weights)`` (exact ints)."""
    r = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    raise AssertionError("unreachable: r < sum(weights)")


class FrontierPlan:
    """A box order and, per step, how the clues' residues move: the frontier DP's
    transitions without its values (shared by :class:`ComponentSampler` and the budget's
    dry run in :mod:`minesolver.budget`).

    The state before step ``i`` is the tuple of mines still owed by each clue *open* there
    (a box before ``i`` and one at or after it), in clue order. Building is
    O(n + sum of clue sizes) plus the open lists. ``order`` replaces the default box order
    (:func:`~minesolver.engines.exact.box_order`, which needs a connected component).
    """

    def __init__(self, component: Component, order: list[int] | None = None) -> None:
        order = box_order(component) if order is None else order
        self.order = order
        self.sizes = sizes = [len(component.boxes[b]) for b in order]
        n = len(order)
        pos = {b: i for i, b in enumerate(order)}
        self.values = [v for _, v in component.constraints]
        self.members = [frozenset(pos[b] for b in boxes) for boxes, _ in component.constraints]
        first = [min(m) for m in self.members]
        last = [max(m) for m in self.members]
        opens_at: list[list[int]] = [[] for _ in range(n + 1)]
        closes_at: list[list[int]] = [[] for _ in range(n)]
        for c in range(len(self.values)):
            if first[c] < last[c]:
                opens_at[first[c] + 1].append(c)
            closes_at[last[c]].append(c)
        self.opened: list[list[int]] = [[]]
        current: set[int] = set()
        for i in range(1, n + 1):
            current.update(opens_at[i])
            current.difference_update(closes_at[i - 1])
            self.opened.append(sorted(current))
        # per step: for each clue closing at the box, (source slot or -1, value, in box);
        # for each clue open after it, (source slot or -1, value, in box, cap after).
        self.steps: list[tuple[list[tuple[int, int, bool]], list[tuple[int, int, bool, int]]]] = []
        for i in range(n):
            src = {c: j for j, c in enumerate(self.opened[i])}
            closes = [(src.get(c, -1), self.values[c], i in self.members[c]) for c in closes_at[i]]
            carries = [
                (
                    src.get(c, -1),
                    self.values[c],
                    i in self.members[c],
                    sum(sizes[p] for p in self.members[c] if p > i),
                )
                for c in self.opened[i + 1]
            ]
            self.steps.append((closes, carries))

    def successors(self, i: int, key: State) -> list[tuple[int, State]]:
        """``(k, next state)`` for each mine number ``k`` of box ``i`` that neither
        over-fills a clue nor leaves one unfillable. O(sizes * open clues)."""
        closes, carries = self.steps[i]
        out: list[tuple[int, State]] = []
        for k in range(self.sizes[i] + 1):
            ok = True
            for j, v, inside in closes:
                if (key[j] if j >= 0 else v) - (k if inside else 0) != 0:
                    ok = False
                    break
            if not ok:
                continue
            nxt = []
            for j, v, inside, cap in carries:
                r = (key[j] if j >= 0 else v) - (k if inside else 0)
                if r < 0 or r > cap:
                    ok = False
                    break
                nxt.append(r)
            if ok:
                out.append((k, tuple(nxt)))
        return out


class ComponentSampler:
    """Uniform layouts of one component with a given mine number.

    A forward frontier DP over the boxes (:class:`FrontierPlan`; value: mine-count
    polynomial of the partial layouts) keeps, per step, each state's predecessors;
    drawing walks back from the final state choosing a predecessor with weight
    ``forward[prev][t - k] * C(s, k)``. Build O(n * S * s * L), draw O(n * edges).
    """

    def __init__(self, component: Component, order: list[int] | None = None) -> None:
        plan = FrontierPlan(component, order)
        self.order = plan.order
        self.sizes = plan.sizes
        self.forward: list[dict[State, Poly]] = [{(): [1]}]
        self.preds: list[dict[State, list[tuple[State, int]]]] = []
        for i, s in enumerate(self.sizes):
            nxt: dict[State, Poly] = {}
            preds: dict[State, list[tuple[State, int]]] = {}
            for key, poly in self.forward[i].items():
                for k, key2 in plan.successors(i, key):
                    acc = nxt.get(key2)
                    if acc is None:
                        acc = nxt[key2] = []
                        preds[key2] = []
                    poly_add_shifted(acc, poly, k, comb(s, k))
                    preds[key2].append((key, k))
            self.forward.append(nxt)
            self.preds.append(preds)
        self.layouts: Poly = self.forward[-1].get((), [])
        # cumulative predecessor weights by (step, state, mines left), built on demand.
        self._memo: dict[tuple[int, State, int], list[int]] = {}

    def draw(self, mines: int, rng: random.Random) -> dict[int, int]:
        """Mine number of each box (by the component's box index) of a uniformly random
        layout with ``mines`` mines."""
        state: State = ()
        t = mines
        out: dict[int, int] = {}
        memo = self._memo
        for i in range(len(self.order) - 1, -1, -1):
            options = self.preds[i][state]
            hit = memo.get((i, state, t))
            if hit is None:
                s = self.sizes[i]
                fwd = self.forward[i]
                cumulative = list(
                    accumulate(
                        fwd[prev][t - k] * comb(s, k) if 0 <= t - k < len(fwd[prev]) else 0
                        for prev, k in options
                    )
                )
                hit = memo[(i, state, t)] = cumulative
            state, k = options[bisect_right(hit, rng.randrange(hit[-1]))]
            out[self.order[i]] = k
            t -= k
        return out


def dry_run_ops(component: Component, limit: float) -> float:
    """Estimated operations of the exact count of ``component``: the frontier DP's
    transitions weighted by the polynomial length, or ``inf`` once above ``limit``.
    Cost: at most about ``limit / L`` tuple operations, plus building the plan (the box
    order, O(n^2) for ``n`` boxes), which is skipped when even the least possible work,
    one transition per step (``sum of (i + 1)`` over the ``n`` steps), is above ``limit``."""
    n = len(component.boxes)
    if n * (n + 3) / 2 > limit:
        return float("inf")
    plan = FrontierPlan(component)
    states: set[State] = {()}
    ops = 0.0
    placed = 0
    for i, s in enumerate(plan.sizes):
        nxt: set[State] = set()
        transitions = 0
        for key in states:
            for _, key2 in plan.successors(i, key):
                nxt.add(key2)
                transitions += 1
        placed += s
        ops += transitions * (placed + 1)
        if ops > limit:
            return float("inf")
        states = nxt
    return ops


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

        probs: dict[int, Fraction] = dict.fromkeys(problem.forced_safe, Fraction(0))
        probs.update(dict.fromkeys(problem.forced_mines, Fraction(1)))
        errors: dict[int, float] = dict.fromkeys(probs, 0.0)
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
        w = problem.position.width
        return Analysis.from_indices(
            problem,
            None,
            probs,
            engine=self.name,
            exact=False,
            errors={(i % w, i // w): e for i, e in errors.items()},
        )

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
