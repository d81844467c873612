"""Markov chain Monte Carlo for components too big to count: block heat-bath updates.

For the components chosen for sampling (``huge``; by default all of them) the chain's
state is the mine number ``k_b`` of every box. The rest of the position is exact: the
other components' mine-count polynomials (frontier DP) and the interior fold into
one weight ``R[t]`` = ways for everything else to hold the remaining mines when the
sampled components hold ``t`` (under a density the factors are independent and
``R = 1``). The target is therefore exactly the uniform distribution over consistent
layouts (weighted by ``p^m (1-p)^(u-m)`` under a density), total included:
``pi(k) ~ prod C(s_b, k_b) * R[sum k]``.

One move re-draws, from their exact conditional distribution, the mine numbers of a
*block*: up to :data:`WINDOW` boxes in a breadth-first ball around a random box (boxes
sharing a clue are neighbours), every other box fixed; a sweep makes ``2 n / WINDOW``
moves for ``n`` boxes. With the outside fixed, the block is a small component of its own
(each clue touching it owes what the outside leaves): its frontier DP
(:class:`~minesolver.engines.frontier_sampler.ComponentSampler`, in BFS order) gives its layouts
by mine number ``m``; ``m`` is drawn with weight ``layouts[m] * R[base + m]`` and then a
layout with ``m`` mines uniformly (exact ints). A heat-bath move leaves ``pi`` invariant
(detailed balance); overlapping random balls let mines move across the frontier and
between the sampled components and the rest. Irreducibility is not proven for every
position (layouts that differ only over a region larger than a ball cannot reach each
other); compact balls mix far better than windows along the frontier order on 2-D
frontiers (measured: on 15x15 lattices of digits, windows left 38-99 cells beyond 5
errors, balls 0-2). Two chains (:data:`CHAINS`) start from independent random layouts
and share the sweeps; each is burnt in for a fifth of its sweeps, then gives
``BATCHES / CHAINS`` batches. The standard error is the batch-means one over all
:data:`BATCHES` batches, and never less than half the gap between the two chains' means
(chains stuck in different modes then show it); chains stuck in the same mode would still
understate it, so the tests and the benchmark measure the error against exact counts.

Each chain starts from a consistent layout of the whole position (total included) found
by the SAT solver with random preferred phases (:func:`minesolver.engines.sat.random_layout`).
Certain cells are exact: the SAT decider (:mod:`minesolver.engines.sat`) finds them; an
uncertain cell's estimate is kept strictly inside (0, 1), its error at least ``3/N`` for
``N`` recorded sweeps (the "rule of three": a value never seen in ``N`` draws may still
have probability up to about ``3/N``; correlated draws make this optimistic).
The other components and the interior are Rao-Blackwellised: their exact
conditional probabilities given ``t`` are averaged over the ``t`` the chain visits.

With ``seconds``, one sweep is timed and the number of sweeps cut to what fits the time
left (at least ``2 * BATCHES``): the run then depends on the machine's speed, not only on
the seed. Cost: O(sweeps * (n / WINDOW) * DP of a block) (the block DP is exponential only in the
ball's BFS frontier width), plus the exact counts of the components not sampled and one SAT
decision. Seeded.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from fractions import Fraction
from importlib import import_module
from math import sqrt
from types import ModuleType
from typing import TYPE_CHECKING

from minesolver.constraints import Component
from minesolver.counting import combine_density, combine_total, rest_weights
from minesolver.engines.approximate import approximate_analysis
from minesolver.engines.base import EngineError
from minesolver.engines.exact import FrontierEngine
from minesolver.engines.frontier_sampler import ComponentSampler, choose
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Problem

__all__ = ["BATCHES", "CHAINS", "WINDOW", "McmcEngine"]

WINDOW = 20
"""Boxes in a block (a breadth-first ball around a random box)."""
BATCHES = 20
CHAINS = 2
"""Independent chains (random starts), each giving ``BATCHES / CHAINS`` batches."""
FIRST_SECONDS = 1.0
"""Least time the first consistent layout may take under a time limit, however small the
limit: the margin by which a tiny limit may be overrun."""
SAT_SHARE = 0.3
"""Share of a time limit the SAT certain-cell step may use; what it leaves open stays
uncertain."""
PARTIAL_ERROR = 0.1
"""Least error reported when not even 40 full sweeps fit the time limit: the chains made
shorter sweeps and may not have mixed, so their own error estimate is not trusted."""
CACHE = 4096
"""Block DPs kept for reuse (cleared when full)."""
"""Batches for the batch-means standard error."""


def _sat() -> ModuleType:
    """The SAT engine's module (python-sat), or an :class:`EngineError` naming the extra."""
    try:
        return import_module("minesolver.engines.sat")
    except ImportError as exc:
        raise EngineError(
            "mcmc needs python-sat for its start and its certain cells: "
            "pip install 'minesolver[engines]'"
        ) from exc


class _Chain:
    """The sampled components as one flat list of boxes, their clues and their blocks."""

    def __init__(self, comps: Sequence[Component]) -> None:
        self.sizes: list[int] = []
        self.clues: list[tuple[list[int], int]] = []
        for comp in comps:
            base = len(self.sizes)
            self.sizes.extend(len(b) for b in comp.boxes)
            self.clues.extend(([base + b for b in boxes], v) for boxes, v in comp.constraints)
        self.clues_of: list[list[int]] = [[] for _ in self.sizes]
        for c, (boxes, _) in enumerate(self.clues):
            for b in boxes:
                self.clues_of[b].append(c)
        self._cache: dict[
            tuple[frozenset[int], tuple[int, ...]], tuple[ComponentSampler, list[int]]
        ] = {}
        self.near: list[list[int]] = [
            sorted({o for c in cs for o in self.clues[c][0] if o != b})
            for b, cs in enumerate(self.clues_of)
        ]

    def ball(self, center: int, size: int) -> list[int]:
        """Up to ``size`` boxes around ``center`` in breadth-first order (boxes sharing a
        clue are adjacent): a compact block, whose DP width is its BFS frontier."""
        seen = {center}
        out = [center]
        i = 0
        while i < len(out) and len(out) < size:
            for o in self.near[out[i]]:
                if o not in seen and len(out) < size:
                    seen.add(o)
                    out.append(o)
            i += 1
        return out

    def conditional(self, block: list[int], ks: list[int]) -> tuple[ComponentSampler, list[int]]:
        """The block as a component of its own, every other box fixed at ``ks``: its
        boxes, and each clue touching it with what the block must hold; sampled exactly
        by a frontier DP (:class:`~minesolver.engines.frontier_sampler.ComponentSampler`).
        Returns the sampler and the block's boxes in the sampler's box order. The DP
        depends only on the block's boxes and what its clues owe, so it is cached on
        that (a component no larger than a block is then counted once)."""
        inside = set(block)
        touching = sorted({c for b in block for c in self.clues_of[b]})
        needs = tuple(
            self.clues[c][1] - sum(ks[b] for b in self.clues[c][0] if b not in inside)
            for c in touching
        )
        key = (frozenset(inside), needs)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        local = {b: i for i, b in enumerate(block)}
        constraints = tuple(
            (tuple(local[b] for b in self.clues[c][0] if b in local), need)
            for c, need in zip(touching, needs, strict=True)
        )
        sub = Component(
            boxes=tuple(tuple(range(self.sizes[b])) for b in block),
            constraints=constraints,
            origins=tuple(touching),
        )
        if len(self._cache) >= CACHE:
            self._cache.clear()
        out = self._cache[key] = (ComponentSampler(sub, list(range(len(block)))), block)
        return out


class McmcEngine:
    """Block heat-bath MCMC over every constraint and the total (``mcmc``)."""

    name = "mcmc"

    def __init__(
        self,
        sweeps: int = 400,
        seed: int = 0,
        huge: frozenset[int] | None = None,
        seconds: float | None = None,
    ) -> None:
        if sweeps < 2 * BATCHES:
            raise ValueError(f"mcmc needs at least {2 * BATCHES} sweeps, got {sweeps}")
        self.sweeps = sweeps
        self.seed = seed
        self.huge = huge
        self.seconds = seconds

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        if limit is not None and limit != Limit():
            return McmcEngine(
                sweeps=limit.samples or self.sweeps,
                seed=self.seed if limit.seed is None else limit.seed,
                huge=self.huge,
                seconds=limit.seconds or self.seconds,
            ).analyze_problem(problem)
        sat = _sat()
        started = time.perf_counter()
        rng = random.Random(self.seed)
        # exact certain cells (raises if none); under a time limit, at most a share of it
        share = None if self.seconds is None else max(self.seconds * SAT_SHARE, 1e-3)
        first = None if self.seconds is None else max(self.seconds, FIRST_SECONDS)
        witness, boxes, layouts = sat.decide(problem, share, first)
        known_safe: set[int] = set()
        known_mines: set[int] = set()
        for b, box in enumerate([*boxes, problem.interior]):
            if box and not witness.can_mine[b]:
                known_safe.update(box)
            elif box and not witness.can_free[b]:
                known_mines.update(box)
        comps = problem.components
        chosen = set(range(len(comps))) if self.huge is None else set(self.huge)
        sampled = [comps[c] for c in sorted(chosen)]
        others = [c for c in range(len(comps)) if c not in chosen]
        exact = FrontierEngine()
        counts = [exact.count(comps[c]) for c in others]
        interior = len(problem.interior)
        chain = _Chain(sampled)
        nbox = len(chain.sizes)
        cells = sum(chain.sizes)
        total = problem.mines_left if problem.density is None else None

        # R[t] and per-box weights.
        if total is not None:
            # weight_t[t]: ways for the counted components and the interior to hold what
            # t sampled mines leave of the total.
            polys = [c.layouts for c in counts]
            rest = rest_weights(polys, interior, total, before=cells, scaled=False)
            weight_t = rest.tables[0] if rest is not None else []
            dens = None
        else:
            assert problem.density is not None
            weight_t = [1] * (cells + 1)
            dens = (problem.density.numerator, problem.density.denominator)

        def start(c: int) -> tuple[list[int], int]:
            # a whole consistent layout (total included), so the rest can complete it:
            # the first and the last the SAT step found (they differ where they can).
            mines = layouts[c % len(layouts)]
            ks = [sum(1 for cell in box if cell in mines) for comp in sampled for box in comp.boxes]
            t = sum(ks)
            assert weight_t[t] > 0
            return ks, t

        moves = -(-2 * nbox // WINDOW)  # a sweep re-draws each box about twice

        def sweep(ks: list[int], t: int) -> int:
            for _ in range(moves):
                t = self._move(
                    chain, chain.ball(rng.randrange(nbox), WINDOW), ks, t, weight_t, dens, rng
                )
            return t

        chains = [start(c) for c in range(CHAINS)]
        sweeps = self.sweeps
        partial = False
        if self.seconds is not None:  # time some moves, then fit the sweeps to the time left
            before = time.perf_counter()
            probe = min(moves, 8)
            ks0, t0 = chains[0]
            for _ in range(probe):
                t0 = self._move(
                    chain, chain.ball(rng.randrange(nbox), WINDOW), ks0, t0, weight_t, dens, rng
                )
            chains[0] = (ks0, t0)
            per_sweep = max(time.perf_counter() - before, 1e-9) * moves / probe
            left = self.seconds - (time.perf_counter() - started)
            fit = int(left / per_sweep)
            if fit < 2 * BATCHES:  # not even the fewest full sweeps: shorter ones
                partial = True
                moves = max(1, int(moves * max(left, 0.0) / (2 * BATCHES * per_sweep)))
            sweeps = min(sweeps, max(2 * BATCHES, fit))
        # each chain: a burn-in of a fifth of its sweeps, then its share of the batches.
        own = sweeps // CHAINS
        burn = own // 5
        per_chain = BATCHES // CHAINS
        per_batch = max(1, (own - burn) // per_chain)
        batch_k = [[0] * nbox for _ in range(BATCHES)]
        batch_t: list[dict[int, int]] = [{} for _ in range(BATCHES)]
        for c, (ks, t) in enumerate(chains):
            for n in range(burn + per_batch * per_chain):
                t = sweep(ks, t)
                if n >= burn:
                    batch = c * per_chain + (n - burn) // per_batch
                    acc = batch_k[batch]
                    for b in range(nbox):
                        acc[b] += ks[b]
                    batch_t[batch][t] = batch_t[batch].get(t, 0) + 1

        probs: dict[int, Fraction] = {}
        errors: dict[int, float] = {}
        floor = Fraction(1, 2 * per_batch * BATCHES)
        least = PARTIAL_ERROR if partial else 0.0
        b = 0
        for comp in sampled:
            for box in comp.boxes:
                s = chain.sizes[b]
                batch_means = [acc[b] / (s * per_batch) for acc in batch_k]
                exact_mean = Fraction(sum(acc[b] for acc in batch_k), s * per_batch * BATCHES)
                self._store(
                    probs,
                    errors,
                    box,
                    batch_means,
                    floor,
                    known_safe,
                    known_mines,
                    least,
                    exact_mean,
                )
                b += 1
        # the rest: exact conditional probabilities given t, mixed by the chain's t.
        cond: dict[int, tuple[list[list[Fraction]], Fraction]] = {}
        for hist in batch_t:
            for tt in hist:
                if tt in cond:
                    continue
                if total is not None:
                    res = combine_total(counts, interior, total - tt)
                    assert res is not None
                    layouts, box_w, int_w = res
                    cond[tt] = (
                        [[Fraction(x, layouts) for x in row] for row in box_w],
                        Fraction(int_w, layouts),
                    )
                else:
                    assert problem.density is not None
                    sizes = [comps[c].size for c in others]
                    dres = combine_density(counts, sizes, problem.density)
                    assert dres is not None
                    cond[tt] = (dres[1], problem.density)
        for j, c in enumerate(others):
            for bi, box in enumerate(comps[c].boxes):
                means = [
                    sum(
                        (Fraction(n, per_batch) * cond[tt][0][j][bi] for tt, n in hist.items()),
                        Fraction(0),
                    )
                    for hist in batch_t
                ]
                self._store(probs, errors, box, means, floor, known_safe, known_mines, least)
        if interior and problem.density is not None:  # independent cells: the prior
            probs.update(dict.fromkeys(problem.interior, problem.density))
            errors.update(dict.fromkeys(problem.interior, 0.0))
        elif interior:
            means = [
                sum((Fraction(n, per_batch) * cond[tt][1] for tt, n in hist.items()), Fraction(0))
                for hist in batch_t
            ]
            self._store(
                probs, errors, problem.interior, means, floor, known_safe, known_mines, least
            )
        return approximate_analysis(problem, probs, errors, engine=self.name)

    @staticmethod
    def _store(
        probs: dict[int, Fraction],
        errors: dict[int, float],
        cells: Sequence[int],
        means: Sequence[Fraction | float],
        floor: Fraction,
        known_safe: set[int],
        known_mines: set[int],
        least: float = 0.0,
        mean: Fraction | None = None,
    ) -> None:
        """Batch means -> estimate and standard error (at least half the gap between the
        chains' means, at least 3/N, at least ``least``); certain cells from SAT, exact.
        ``mean``: the exact mean of ``means``, when the caller has it cheaper."""
        first = cells[0]
        if first in known_safe or first in known_mines:
            p, err = Fraction(int(first in known_mines)), 0.0
        else:
            if mean is None:  # the means are exact (Fractions) when no mean is given
                mean = sum((Fraction(m) for m in means), Fraction(0)) / len(means)
            p = mean
            fm, fp = [float(m) for m in means], float(p)  # errors in floats: cheap
            var = sum((m - fp) ** 2 for m in fm) / (len(means) - 1)
            half = len(means) // CHAINS
            gap = abs(sum(fm[:half]) - sum(fm[half : 2 * half])) / half
            err = max(sqrt(var / len(means)), gap / 2, float(6 * floor), least)  # 3/N: rule of 3
            p = min(max(p, floor), 1 - floor)
        probs.update(dict.fromkeys(cells, p))
        errors.update(dict.fromkeys(cells, err))

    @staticmethod
    def _move(
        chain: _Chain,
        block: list[int],
        ks: list[int],
        t: int,
        weight_t: list[int],
        dens: tuple[int, int] | None,
        rng: random.Random,
    ) -> int:
        """Re-draw the block's mine numbers from their exact conditional law; the new
        ``t``. The block's layouts with ``m`` mines weigh ``R[base + m]`` each under a
        total; under a density ``p = a/b`` they weigh ``a^m (b-a)^(cells-m)`` (one factor
        per ``m``)."""
        sampler, block = chain.conditional(block, ks)
        base = t - sum(ks[b] for b in block)
        cells = sum(chain.sizes[b] for b in block)
        layouts = sampler.layouts
        weights = [
            v
            * weight_t[base + m]
            * (1 if dens is None else dens[0] ** m * (dens[1] - dens[0]) ** (cells - m))
            if v and base + m < len(weight_t)
            else 0
            for m, v in enumerate(layouts)
        ]
        m = choose(weights, rng)  # the current block assignment has positive weight
        for b, k in sampler.draw(m, rng).items():
            ks[block[b]] = k
        return base + m
