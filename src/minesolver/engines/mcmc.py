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
and share the sweeps, one sweep of each in turn; each is burnt in for a fifth of its
sweeps, then records its sweeps in between ``BATCHES / CHAINS`` and ``BATCHES`` batches of
equal size (slots merged in pairs when full, so a run stopped at any point still cuts
into equal batches). The standard error is the batch-means one over all the batches,
and never less than half the gap between the two chains' means
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

With ``seconds`` (or under an enclosing deadline,
:func:`~minesolver.engines.base.deadline_scope`) the limit is a deadline: the SAT step gets
:data:`SAT_SHARE` of it for the certain cells and the rest for a first layout; one sweep
is timed and the number of sweeps cut to what fits the time left (shorter sweeps when not
even ``2 * BATCHES`` fit); and the chains check the deadline at every move and stop there
with what they have recorded, their error then at least :data:`PARTIAL_ERROR` divided by
the share of ``2 * BATCHES`` full sweeps they made (up to 0.5). The run then depends on
the machine's speed, not only on the seed. Cost: O(sweeps * (n / WINDOW) * DP of a block)
(the block DP is exponential only in the ball's BFS frontier width), plus the exact counts
of the components not sampled and one SAT decision. Seeded.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import TYPE_CHECKING

from minesolver.constraints import Component
from minesolver.counting import ComponentCount, combine_density, combine_total, rest_weights
from minesolver.engines.approximate import approximate_analysis
from minesolver.engines.base import EngineLimitExceeded, deadline_scope
from minesolver.engines.exact import ExactEngine
from minesolver.engines.frontier_sampler import ComponentSampler, choose
from minesolver.engines.generic import PositionEngineBase
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
SAT_SHARE = 0.3
"""Share of a time limit the SAT certain-cell step may use; what it leaves open stays
uncertain."""
PARTIAL_ERROR = 0.1
"""Least error reported when the chains made fewer than ``2 * BATCHES`` full sweeps
before the deadline, divided by the share of them they made (at most 0.5): the chains may
not have mixed, so their own error estimate is not trusted."""
ESTIMATE_SHARE = 0.1
"""Share of the time left after the SAT step kept for the estimates after the chains."""
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


class McmcEngine(PositionEngineBase):
    """Block heat-bath MCMC over every constraint and the total (``mcmc``)."""

    name = "mcmc"

    def __init__(
        self,
        sweeps: int = 400,
        seed: int = 0,
        huge: frozenset[int] | None = None,
        seconds: float | None = None,
        counts: Mapping[object, ComponentCount] | None = None,
    ) -> None:
        if sweeps < 2 * BATCHES:
            raise ValueError(f"mcmc needs at least {2 * BATCHES} sweeps, got {sweeps}")
        self.sweeps = sweeps
        self.seed = seed
        self.huge = huge
        self.seconds = seconds
        self.counts = counts

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        """The chains' estimates, in named steps: the SAT step's certain cells and chain
        starts (:func:`minesolver.engines.sat.decide`), the exact counts of the components
        not sampled (``counts``, by :meth:`~minesolver.constraints.Component.key`, those
        already made) and the target's weight column (:meth:`_Run.build`), the sweeps
        fitted to a time limit (:meth:`_Run.fit`), the recorded batches
        (:meth:`_Run.record`), and the estimates of the sampled boxes and of the rest
        (:class:`_Estimates`). Under a time limit (``seconds``, ``limit.seconds`` or an
        enclosing deadline) :class:`EngineLimitExceeded` when not even a first consistent
        layout is found in time. Cost: see the module docstring."""
        if limit is not None and limit != Limit():
            return McmcEngine(
                sweeps=limit.samples or self.sweeps,
                seed=self.seed if limit.seed is None else limit.seed,
                huge=self.huge,
                seconds=limit.seconds or self.seconds,
                counts=self.counts,
            ).analyze_problem(problem)
        with deadline_scope(self.seconds) as deadline:
            return self._analyze(problem, deadline)

    def _analyze(self, problem: Problem, deadline: float | None) -> Analysis:
        # python-sat, imported on first use: the exact path of ``auto`` never pays for it
        from minesolver.engines.sat import decide

        rng = random.Random(self.seed)
        # exact certain cells (raises if none); under a deadline, a share of the time left
        # for the certain cells, and until the deadline for a first layout
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.0)
        share = None if left is None else max(left * SAT_SHARE, 1e-3)
        witness, boxes, layouts = decide(problem, share, left)
        comps = problem.components
        chosen = set(range(len(comps))) if self.huge is None else set(self.huge)
        sampled = [comps[c] for c in sorted(chosen)]
        others = [comps[c] for c in range(len(comps)) if c not in chosen]
        known = self.counts or {}
        exact = ExactEngine()
        counts = [known.get(comp.key()) or exact.count(comp) for comp in others]
        run = _Run.build(problem, sampled, counts, rng)
        # whole consistent layouts (total included), so the rest can complete them: the
        # first and the last the SAT step found (they differ where they can).
        chains = [run.start(layouts[c % len(layouts)]) for c in range(CHAINS)]
        sweeps, stop = self.sweeps, None
        if deadline is not None:
            now = time.perf_counter()
            stop = now + max(deadline - now, 0.0) * (1 - ESTIMATE_SHARE)
            sweeps = run.fit(chains, self.sweeps, stop)
        batches = run.record(chains, sweeps, stop)
        out = _Estimates(_known(problem, boxes, witness), batches)
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
    its sweeps, and how often each sampled mine total ``t`` was visited; ``per_batch``
    sweeps each (the batches of the first chain, then those of the second). ``full``:
    how many full sweeps the moves made add up to, all chains together (burn-in
    included), the measure of a run stopped early."""

    k: list[list[int]]
    t: list[dict[int, int]]
    per_batch: int
    full: float


class _Slots:
    """One chain's recorded sweeps in at most ``2 * count`` slots of ``size`` sweeps each,
    the last one filling; when all are full, neighbours are merged in pairs and ``size``
    doubles. Whenever the chain stops, its full slots are equal batches (at least
    ``count`` of them once it has made ``count`` sweeps). O(boxes) a sweep, O(count *
    boxes) memory."""

    __slots__ = ("cap", "full", "k", "n", "size", "t")

    def __init__(self, nbox: int, count: int) -> None:
        self.cap = 2 * count
        self.size = 1
        self.full: list[tuple[list[int], dict[int, int]]] = []
        self.k = [0] * nbox
        self.t: dict[int, int] = {}
        self.n = 0

    def add(self, ks: list[int], t: int) -> None:
        """Record one sweep's state."""
        self.k = [a + b for a, b in zip(self.k, ks, strict=True)]
        self.t[t] = self.t.get(t, 0) + 1
        self.n += 1
        if self.n < self.size:
            return
        self.full.append((self.k, self.t))
        self.k, self.t, self.n = [0] * len(self.k), {}, 0
        if len(self.full) == self.cap:
            pairs = zip(self.full[::2], self.full[1::2], strict=True)
            self.full = [
                ([a + b for a, b in zip(ka, kb, strict=True)], _merged(ta, tb))
                for (ka, ta), (kb, tb) in pairs
            ]
            self.size *= 2


def _merged(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out = dict(a)
    for t, n in b.items():
        out[t] = out.get(t, 0) + n
    return out


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
    full_moves: int = 1

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
        return cls(chain, weight_t, dens, moves, rng, moves)

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

    def sweep(self, ks: list[int], t: int, stop: float | None = None) -> tuple[int, int]:
        """:attr:`moves` moves, fewer when ``stop`` (a ``time.perf_counter()`` value)
        passes first, or the enclosing deadline during a move (whose block DP checks it:
        the move is then not made, and the state stays a consistent one); the new ``t``
        and the moves made."""
        if stop is None:
            for _ in range(self.moves):
                t = self.move(ks, t)
            return t, self.moves
        for done in range(self.moves):
            if time.perf_counter() >= stop:
                return t, done
            try:
                t = self.move(ks, t)
            except EngineLimitExceeded:
                return t, done
        return t, self.moves

    def fit(self, chains: list[tuple[list[int], int]], sweeps: int, deadline: float) -> int:
        """Time a few moves of the first chain, then fit the sweeps to the time left before
        ``deadline`` (``time.perf_counter()``): the sweeps; when even the fewest full
        sweeps do not fit, :attr:`moves` is cut so that that many shorter ones do (the
        deadline still stops the chains where the timing was wrong). O(8 moves)."""
        before = time.perf_counter()
        probe = min(self.moves, 8)
        ks0, t0 = chains[0]
        for _ in range(probe):
            if time.perf_counter() >= deadline:
                break
            try:
                t0 = self.move(ks0, t0)
            except EngineLimitExceeded:  # the deadline, inside a block's DP
                break
        chains[0] = (ks0, t0)
        per_sweep = max(time.perf_counter() - before, 1e-9) * self.moves / probe
        left = deadline - time.perf_counter()
        fit = int(left / per_sweep)
        if fit < 2 * BATCHES:  # not even the fewest full sweeps: shorter ones
            self.moves = max(1, int(self.moves * max(left, 0.0) / (2 * BATCHES * per_sweep)))
        return min(sweeps, max(2 * BATCHES, fit))

    def record(
        self, chains: Sequence[tuple[list[int], int]], sweeps: int, stop: float | None = None
    ) -> _Batches:
        """Run the chains side by side, one sweep of each in turn: each is burnt in for a
        fifth of its share of the sweeps, then records its sweeps (:class:`_Slots`);
        ``stop`` (a ``time.perf_counter()`` value) ends them early, with what they
        recorded (each chain's current state when nothing yet). O(sweeps * moves * block
        DP)."""
        nbox = len(self.chain.sizes)
        own = sweeps // CHAINS
        burn = own // 5
        per_chain = BATCHES // CHAINS
        planned = burn + max(1, (own - burn) // per_chain) * per_chain
        slots = [_Slots(nbox, per_chain) for _ in chains]
        states = [(list(ks), t) for ks, t in chains]
        made = 0
        stopped = False
        for n in range(planned):
            for c, (ks, t) in enumerate(states):
                t, done = self.sweep(ks, t, stop)
                made += done
                states[c] = (ks, t)
                if done < self.moves:
                    stopped = True
                    break
            if stopped:  # a pass cut short is recorded by no chain: the slots stay in step
                break
            if n >= burn:
                for c, (ks, t) in enumerate(states):
                    slots[c].add(ks, t)
        # a chain with no box to move (nothing on the frontier) has made all it can
        full = made / self.full_moves if self.full_moves else 1.0
        m = min(len(s.full) for s in slots)
        if m == 0:  # stopped before a slot filled: each chain's state, once
            return _Batches([list(ks) for ks, _ in states], [{t: 1} for _, t in states], 1, full)
        batches = [b for s in slots for b in s.full[:m]]
        size = slots[0].size
        assert all(s.size == size for s in slots)
        return _Batches([k for k, _ in batches], [t for _, t in batches], size, full)


class _Estimates:
    """The estimates and errors by cell, from batch means (:meth:`store`)."""

    def __init__(self, known: tuple[set[int], set[int]], batches: _Batches) -> None:
        self.probs: dict[int, Fraction] = {}
        self.errors: dict[int, float] = {}
        self.known_safe, self.known_mines = known
        self.per_batch = per_batch = batches.per_batch
        self.batches = len(batches.k)
        self.floor = Fraction(1, 2 * per_batch * self.batches)
        # fewer full sweeps than the fewest asked for (shorter ones, or a deadline): the
        # chains may not have mixed, so the error is at least PARTIAL_ERROR, more the
        # fewer sweeps they made (0.5: no information)
        least = 2 * BATCHES
        self.least = (
            0.0
            if batches.full >= least
            else min(0.5, PARTIAL_ERROR * least / max(batches.full, 1e-9))
        )

    def sampled(
        self, sampled: Sequence[Component], sizes: Sequence[int], batch_k: Sequence[list[int]]
    ) -> None:
        """The sampled boxes: the mean share of mines per batch. O(boxes * batches)."""
        b = 0
        per_batch = self.per_batch
        for comp in sampled:
            for box in comp.boxes:
                s = sizes[b]
                batch_means = [acc[b] / (s * per_batch) for acc in batch_k]
                exact_mean = Fraction(sum(acc[b] for acc in batch_k), s * per_batch * self.batches)
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
            # never more than the distance to the farther end (a handful of draws, cut
            # short by a deadline, would otherwise state errors above 1)
            err = min(err, float(max(p, 1 - p)))
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
