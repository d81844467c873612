"""``auto``: exact where the count fits a time limit, sampled (and marked so) where not.

:class:`AutoEngine` decides per component, before counting, whether the exact frontier DP
fits the time limit. The estimate is a *dry run* of the DP
(:func:`~minesolver.engines.frontier.dry_run_ops`): the same states and transitions with
no polynomials, so it costs about ``1/L`` of the real count (``L`` the polynomial length)
and it stops as soon as the estimate exceeds what is left. The estimated work, ``sum over
steps of transitions * L`` big-integer operations, is turned into seconds with
:data:`SECONDS_PER_OP` (measured on this project's benchmark positions; a slower machine
makes the estimate optimistic by its slowdown).

Components are taken cheapest first; those that would overrun the limit are handed to the
block-MCMC engine (:mod:`minesolver.engines.mcmc`), with every other component still
counted exactly and the interior exact given the sampled mine number; the chain and its
SAT start get the time left (at least 40 sweeps, so a tiny limit still gives an answer
with honest errors, a little late). The result is then ``exact=False`` with a standard
error per cell, and its ``engine`` says ``"exact+mcmc"``: a fallback is never silent.
When everything fits, the result is the exact analysis itself. With no time limit
(``seconds=None``) it is the exact engine.

>>> from minesolver import Position, analyze
>>> from minesolver.result import Limit
>>> analyze(Position.from_text("3x1x1\\n1HH"), engine="auto", limit=Limit(seconds=1)).exact
True
"""

from __future__ import annotations

import time
from dataclasses import replace

from minesolver.constraints import Problem
from minesolver.engines.base import EngineLimitExceeded
from minesolver.engines.component import analyze_components
from minesolver.engines.frontier import dry_run_ops
from minesolver.engines.mcmc import McmcEngine
from minesolver.engines.native import NativeEngine
from minesolver.result import Analysis, Limit, MineCountUnknown

__all__ = ["SECONDS_PER_OP", "AutoEngine", "check_exact_fits", "sampled_components"]

SECONDS_PER_OP = 3e-7
"""Seconds per estimated big-integer operation of the frontier DP (forward and backward
passes together), measured by ``benchmarks/bench_engines.py --calibrate``."""


def sampled_components(problem: Problem, seconds: float) -> frozenset[int]:
    """Indices of the components whose exact count would not fit in ``seconds`` (after
    the cheaper ones): cheapest first, identical components costed once.

    Cost: one dry run per distinct component, each stopped once it exceeds the budget.
    """
    budget_ops = seconds / SECONDS_PER_OP
    costs: dict[object, float] = {}
    order: list[tuple[float, int]] = []
    for j, comp in enumerate(problem.components):
        key = comp.key()
        if key not in costs:
            costs[key] = dry_run_ops(comp, budget_ops)
            order.append((costs[key], j))
        else:
            order.append((0.0, j))
    used = 0.0
    out: set[int] = set()
    for cost, j in sorted(order):
        if used + cost > budget_ops:
            out.add(j)
        else:
            used += cost
    return frozenset(out)


def check_exact_fits(problem: Problem, seconds: float) -> None:
    """Raise :class:`EngineLimitExceeded` when the exact count of ``problem`` is estimated
    to take more than ``seconds`` (the ``exact`` engine under a time limit)."""
    over = sampled_components(problem, seconds)
    if over:
        boxes = max(len(problem.components[j].boxes) for j in over)
        raise EngineLimitExceeded(
            f"the exact count would take more than the limit of {seconds:g} s (a component "
            f"of {boxes} boxes); use engine 'auto' for an approximate answer with its error"
        )


class AutoEngine:
    """Exact within a time limit, else exact where it fits and MCMC for the rest (``auto``).

    ``seconds=None`` means no limit (always exact); ``sweeps`` and ``seed`` configure the
    fallback chain. A :class:`~minesolver.result.Limit` passed per call overrides them
    (``samples`` sets the sweeps).
    """

    name = "auto"

    def __init__(self, seconds: float | None = 10.0, sweeps: int = 400, seed: int = 0) -> None:
        Limit(seconds=seconds, samples=sweeps, seed=seed)  # the same checks as a Limit
        self.seconds = seconds
        self.sweeps = sweeps
        self.seed = seed

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        """Exact analysis when the exact count fits the time limit, else exact for what
        fits and block MCMC for the rest (``exact=False``, ``engine="exact+mcmc"``)."""
        seconds, sweeps, seed = self.seconds, self.sweeps, self.seed
        if limit is not None:
            seconds = limit.seconds if limit.seconds is not None else seconds
            sweeps = limit.samples if limit.samples is not None else sweeps
            seed = limit.seed if limit.seed is not None else seed
        if problem.mines_left is None and problem.density is None:
            raise MineCountUnknown("the total number of mines is unknown: give it or a density")
        started = time.perf_counter()
        huge = sampled_components(problem, seconds) if seconds is not None else frozenset()
        if not huge:
            return replace(analyze_components(problem, NativeEngine()), source=self)
        assert seconds is not None
        left = max(seconds - (time.perf_counter() - started), 0.0)
        chain = McmcEngine(sweeps=sweeps, seed=seed, huge=huge, seconds=left)
        result = chain.analyze_problem(problem)
        return Analysis(
            position=result.position,
            probabilities=result.probabilities,
            layouts=None,
            safe=result.safe,
            certain_mines=result.certain_mines,
            engine="exact+mcmc",
            exact=False,
            errors=result.errors,
            problem=problem,
            source=self,
        )
