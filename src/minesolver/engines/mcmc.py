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
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import TYPE_CHECKING

from minesolver.constraints import Component
from minesolver.counting import ComponentCount, combine_density, combine_total, rest_weights
from minesolver.engines.approximate import approximate_analysis
from minesolver.engines.exact import FrontierEngine
from minesolver.engines.frontier_sampler import ComponentSampler, choose
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Problem
    from minesolver.engines.certain import Witness

__all__ = ["BATCHES", "CHAINS", "WINDOW", "McmcEngine"]

WINDOW = 20
"""Boxes in a block (a breadth-first ball around a random box)."""
BATCHES = 20
"""Batches for the batch-means standard error."""
CHAINS = 2
"""Independent chains (random starts), each giving ``BATCHES / CHAINS`` batches."""
FIRST_SECONDS = 1.0
"""Least time the first consistent layout may take under a time limit, however small the
limit: the margin by which a tiny limit may be overrun."""
SAT_SHARE = 0.3
"""Share of a time limit the SAT certain-cell step may use; what it leaves open stays
uncertain."""
PARTIAL_ERROR = 0.1
"""Least error reported when not even 40 full sweeps fit the time limit, divided by the
share of a full sweep the shorter ones made (at most 0.5): the chains may not have mixed,
so their own error estimate is not trusted."""
CACHE = 4096
"""Block DPs kept for reuse (cleared when full)."""


class _Chain:
    """The sampled components as one flat list of boxes, their clues and their blocks."""

    def __init__(self, comps: Sequence[Component]) -> None:
        self.components = comps
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
        """The chains' estimates, in named steps: the SAT step's certain cells and chain
        starts (:func:`minesolver.engines.sat.decide`), the exact counts of the components
        not sampled and the target's weight column (:meth:`_Run.build`), the sweeps
        fitted to a time limit (:meth:`_Run.fit`), the recorded batches
        (:meth:`_Run.record`), and the estimates of the sampled boxes and of the rest
        (:class:`_Estimates`). Cost: see the module docstring."""
        if limit is not None and limit != Limit():
            return McmcEngine(
                sweeps=limit.samples or self.sweeps,
                seed=self.seed if limit.seed is None else limit.seed,
                huge=self.huge,
                seconds=limit.seconds or self.seconds,
            ).analyze_problem(problem)
        # python-sat, imported on first use: the exact path of ``auto`` never pays for it
        from minesolver.engines.sat import decide

        started = time.perf_counter()
        rng = random.Random(self.seed)
        # exact certain cells (raises if none); under a time limit, at most a share of it
        share = None if self.seconds is None else max(self.seconds * SAT_SHARE, 1e-3)
        first = None if self.seconds is None else max(self.seconds, FIRST_SECONDS)
        witness, boxes, layouts = decide(problem, share, first)
        comps = problem.components
        chosen = set(range(len(comps))) if self.huge is None else set(self.huge)
        sampled = [comps[c] for c in sorted(chosen)]
        others = [comps[c] for c in range(len(comps)) if c not in chosen]
        exact = FrontierEngine()
        counts = [exact.count(comp) for comp in others]
        run = _Run.build(problem, sampled, counts, rng)
        # whole consistent layouts (total included), so the rest can complete them: the
        # first and the last the SAT step found (they differ where they can).
        chains = [run.start(layouts[c % len(layouts)]) for c in range(CHAINS)]
        sweeps, share = self.sweeps, 1.0
        if self.seconds is not None:
            sweeps, share = run.fit(chains, self.sweeps, started + self.seconds)
        batches = run.record(chains, sweeps)
        out = _Estimates(_known(problem, boxes, witness), batches.per_batch, share)
        out.sampled(sampled, run.chain.sizes, batches.k)
        out.rest(problem, others, counts, batches)
        return approximate_analysis(problem, out.probs, out.errors, engine=self.name)


def _known(
    problem: Problem, boxes: Sequence[tuple[int, ...]], witness: Witness
) -> tuple[set[int], set[int]]:
    """The cells the SAT step proved safe and those it proved mines (the interior is the
    witness's last box). O(unknown cells)."""
    known_safe: set[int] = set()
    known_mines: set[int] = set()
    for b, box in enumerate([*boxes, problem.interior]):
        if box and not witness.can_mine[b]:
            known_safe.update(box)
        elif box and not witness.can_free[b]:
            known_mines.update(box)
    return known_safe, known_mines


@dataclass(slots=True)
class _Batches:
    """What the chains recorded, per batch: the sum of each sampled box's mine number over
    its sweeps, and how often each sampled mine total ``t`` was visited."""

    k: list[list[int]]
    t: list[dict[int, int]]
    per_batch: int


@dataclass(slots=True)
class _Run:
    """The chain's target and its moves: the sampled boxes (:class:`_Chain`), the weight
    ``R[t]`` of everything else (``weight_t``), the density as ``(a, b)`` for ``p = a/b``
    (``None`` under a total), the moves of one sweep, and the random source."""

    chain: _Chain
    weight_t: list[int]
    dens: tuple[int, int] | None
    moves: int
    rng: random.Random

    @classmethod
    def build(
        cls,
        problem: Problem,
        sampled: Sequence[Component],
        counts: Sequence[ComponentCount],
        rng: random.Random,
    ) -> _Run:
        """Under a total, ``weight_t[t]`` is the number of ways for the counted components
        and the interior to hold what ``t`` sampled mines leave of it (the suffix table of
        :func:`~minesolver.counting.rest_weights`, unscaled); under a density every ``t``
        weighs 1 and the density weighs each block. Cost: that of the suffix table."""
        chain = _Chain(sampled)
        cells = sum(chain.sizes)
        total = problem.mines_left if problem.density is None else None
        dens = None
        if total is not None:
            polys = [c.layouts for c in counts]
            rest = rest_weights(polys, len(problem.interior), total, before=cells, scaled=False)
            weight_t = rest.tables[0] if rest is not None else []
        else:
            assert problem.density is not None
            weight_t = [1] * (cells + 1)
            dens = (problem.density.numerator, problem.density.denominator)
        moves = -(-2 * len(chain.sizes) // WINDOW)  # a sweep re-draws each box about twice
        return cls(chain, weight_t, dens, moves, rng)

    def start(self, mines: set[int]) -> tuple[list[int], int]:
        """A chain's state from a consistent layout's frontier mines: each sampled box's
        mine number, and their total ``t``. O(sampled cells)."""
        ks = [
            sum(1 for cell in box if cell in mines)
            for comp in self.chain.components
            for box in comp.boxes
        ]
        t = sum(ks)
        assert self.weight_t[t] > 0
        return ks, t

    def move(self, ks: list[int], t: int) -> int:
        """One heat-bath move of a ball around a random box (:func:`_move`); the new ``t``."""
        chain = self.chain
        block = chain.ball(self.rng.randrange(len(chain.sizes)), WINDOW)
        return _move(chain, block, ks, t, self.weight_t, self.dens, self.rng)

    def sweep(self, ks: list[int], t: int) -> int:
        """:attr:`moves` moves; the new ``t``."""
        for _ in range(self.moves):
            t = self.move(ks, t)
        return t

    def fit(
        self, chains: list[tuple[list[int], int]], sweeps: int, deadline: float
    ) -> tuple[int, float]:
        """Time a few moves of the first chain, then fit the sweeps to the time left before
        ``deadline`` (``time.perf_counter()``): the sweeps, and the share of a full sweep
        each one makes (below 1 when even the fewest full sweeps do not fit: then they are
        made shorter). O(8 moves)."""
        before = time.perf_counter()
        probe = min(self.moves, 8)
        ks0, t0 = chains[0]
        for _ in range(probe):
            t0 = self.move(ks0, t0)
        chains[0] = (ks0, t0)
        per_sweep = max(time.perf_counter() - before, 1e-9) * self.moves / probe
        left = deadline - time.perf_counter()
        fit = int(left / per_sweep)
        share = 1.0
        if fit < 2 * BATCHES:  # not even the fewest full sweeps: shorter ones
            full = self.moves
            self.moves = max(1, int(full * max(left, 0.0) / (2 * BATCHES * per_sweep)))
            share = min(self.moves / full, 1.0 - 1e-9)
        return min(sweeps, max(2 * BATCHES, fit)), share

    def record(self, chains: Sequence[tuple[list[int], int]], sweeps: int) -> _Batches:
        """Run the chains: each is burnt in for a fifth of its share of the sweeps, then
        gives ``BATCHES / CHAINS`` batches. O(sweeps * moves * block DP)."""
        nbox = len(self.chain.sizes)
        own = sweeps // CHAINS
        burn = own // 5
        per_chain = BATCHES // CHAINS
        per_batch = max(1, (own - burn) // per_chain)
        out = _Batches(
            [[0] * nbox for _ in range(BATCHES)], [{} for _ in range(BATCHES)], per_batch
        )
        for c, (ks, t) in enumerate(chains):
            for n in range(burn + per_batch * per_chain):
                t = self.sweep(ks, t)
                if n >= burn:
                    batch = c * per_chain + (n - burn) // per_batch
                    acc = out.k[batch]
                    for b in range(nbox):
                        acc[b] += ks[b]
                    out.t[batch][t] = out.t[batch].get(t, 0) + 1
        return out


class _Estimates:
    """The estimates and errors by cell, from batch means (:meth:`store`)."""

    def __init__(self, known: tuple[set[int], set[int]], per_batch: int, share: float) -> None:
        self.probs: dict[int, Fraction] = {}
        self.errors: dict[int, float] = {}
        self.known_safe, self.known_mines = known
        self.per_batch = per_batch
        self.floor = Fraction(1, 2 * per_batch * BATCHES)
        # shorter sweeps than full ones: the chains may not have mixed, so the error is
        # at least PARTIAL_ERROR, more the less of a sweep each made (0.5: no information)
        self.least = 0.0 if share >= 1 else min(0.5, PARTIAL_ERROR / share)

    def sampled(
        self, sampled: Sequence[Component], sizes: Sequence[int], batch_k: Sequence[list[int]]
    ) -> None:
        """The sampled boxes: the mean share of mines per batch. O(boxes * BATCHES)."""
        b = 0
        per_batch = self.per_batch
        for comp in sampled:
            for box in comp.boxes:
                s = sizes[b]
                batch_means = [acc[b] / (s * per_batch) for acc in batch_k]
                exact_mean = Fraction(sum(acc[b] for acc in batch_k), s * per_batch * BATCHES)
                self.store(box, batch_means, exact_mean)
                b += 1

    def rest(
        self,
        problem: Problem,
        others: Sequence[Component],
        counts: Sequence[ComponentCount],
        batches: _Batches,
    ) -> None:
        """The counted components and the interior, Rao-Blackwellised: their exact
        conditional probabilities given the sampled total ``t`` (:func:`_conditionals`),
        mixed per batch by the ``t`` the chain visited. O(distinct t * combination +
        boxes * BATCHES * distinct t)."""
        cond = _conditionals(problem, others, counts, batches.t)
        per_batch = self.per_batch
        for j, comp in enumerate(others):
            for bi, box in enumerate(comp.boxes):
                means = [
                    sum(
                        (Fraction(n, per_batch) * cond[tt][0][j][bi] for tt, n in hist.items()),
                        Fraction(0),
                    )
                    for hist in batches.t
                ]
                self.store(box, means)
        if problem.interior and problem.density is not None:  # independent cells: the prior
            self.probs.update(dict.fromkeys(problem.interior, problem.density))
            self.errors.update(dict.fromkeys(problem.interior, 0.0))
        elif problem.interior:
            means = [
                sum((Fraction(n, per_batch) * cond[tt][1] for tt, n in hist.items()), Fraction(0))
                for hist in batches.t
            ]
            self.store(problem.interior, means)

    def store(
        self,
        cells: Sequence[int],
        means: Sequence[Fraction | float],
        mean: Fraction | None = None,
    ) -> None:
        """Batch means -> estimate and standard error (at least half the gap between the
        chains' means, at least 3/N, at least ``least``); certain cells from SAT, exact.
        ``mean``: the exact mean of ``means``, when the caller has it cheaper."""
        first = cells[0]
        floor = self.floor
        if first in self.known_safe or first in self.known_mines:
            p, err = Fraction(int(first in self.known_mines)), 0.0
        else:
            if mean is None:  # the means are exact (Fractions) when no mean is given
                mean = sum((Fraction(m) for m in means), Fraction(0)) / len(means)
            p = mean
            fm, fp = [float(m) for m in means], float(p)  # errors in floats: cheap
            var = sum((m - fp) ** 2 for m in fm) / (len(means) - 1)
            half = len(means) // CHAINS
            gap = abs(sum(fm[:half]) - sum(fm[half : 2 * half])) / half
            err = max(sqrt(var / len(means)), gap / 2, float(6 * floor), self.least)  # 3/N
            p = min(max(p, floor), 1 - floor)
        self.probs.update(dict.fromkeys(cells, p))
        self.errors.update(dict.fromkeys(cells, err))


def _conditionals(
    problem: Problem,
    others: Sequence[Component],
    counts: Sequence[ComponentCount],
    batch_t: Sequence[dict[int, int]],
) -> dict[int, tuple[list[list[Fraction]], Fraction]]:
    """For each sampled total ``t`` visited, the exact probabilities of the counted
    components' boxes and of an interior cell given ``t`` (under a density they do not
    depend on ``t``). One combination per distinct ``t``."""
    total = problem.mines_left if problem.density is None else None
    interior = len(problem.interior)
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
                sizes = [comp.size for comp in others]
                dres = combine_density(counts, sizes, problem.density)
                assert dres is not None
                cond[tt] = (dres[1], problem.density)
    return cond


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
    per ``m``). Cost: the block's frontier DP (cached) and one draw."""
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
