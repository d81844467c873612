"""Exact where it fits a time budget, sampled (and marked so) where it does not.

:func:`analyze_within` decides per component, before counting, whether the exact
frontier DP fits the budget. The estimate is a *dry run* of the DP
(:class:`~minesolver.engines.sampling.FrontierPlan`): the same states and transitions
with no polynomials, so it costs about ``1/L`` of the real count (``L`` the polynomial
length) and it stops as soon as the estimate exceeds what is left of the budget. The
estimated work, ``sum over steps of transitions * L`` big-integer operations, is turned
into seconds with :data:`SECONDS_PER_OP` (measured on this project's benchmark
positions; a slower machine makes the estimate optimistic by its slowdown).

Components are taken cheapest first; those that would overrun the budget are handed to
the block-MCMC engine (:mod:`minesolver.engines.mcmc`), with every other component
still counted exactly and the interior exact given the sampled mine number; the chain
gets the time left (at most ``sweeps`` sweeps, at least 40, so a tiny budget still gives
an answer with honest errors, a little late). The result is then ``exact=False`` with a
standard error per cell, and ``engine`` says ``"exact+mcmc"``: a fallback is never
silent. When everything fits, the result is the exact analysis itself.
"""

from __future__ import annotations

import time
from fractions import Fraction

from minesolver.analysis import Analysis, analyze_problem
from minesolver.constraints import Problem, build
from minesolver.engines.exact import FrontierEngine
from minesolver.engines.mcmc import McmcEngine
from minesolver.engines.sampling import dry_run_ops
from minesolver.position import Position

__all__ = ["SECONDS_PER_OP", "analyze_within", "dry_run_ops", "sampled_components"]

SECONDS_PER_OP = 3e-7
"""Seconds per estimated big-integer operation of the frontier DP (forward and backward
passes together), measured by ``benchmarks/bench_engines.py --calibrate``."""


def sampled_components(problem: Problem, seconds: float) -> frozenset[int]:
    """Indices of the components whose exact count would not fit in ``seconds`` (after
    the cheaper ones): cheapest first, identical components costed once."""
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


def analyze_within(
    position: Position,
    seconds: float,
    *,
    density: Fraction | None = None,
    trust_flags: bool = True,
    sweeps: int = 400,
    seed: int = 0,
) -> Analysis:
    """Exact analysis when the exact count fits ``seconds``, else exact for what fits and
    block MCMC for the rest (``exact=False``, ``engine="exact+mcmc"``, errors per cell)."""
    problem = build(position, trust_flags=trust_flags, density=density)
    return analyze_problem_within(problem, seconds, sweeps=sweeps, seed=seed)


def analyze_problem_within(
    problem: Problem, seconds: float, *, sweeps: int = 400, seed: int = 0
) -> Analysis:
    """:func:`analyze_within` on a reduced position (the hook for ``analyze(budget=)``)."""
    if not seconds > 0:
        raise ValueError(f"budget must be a positive number of seconds, got {seconds}")
    if problem.mines_left is None and problem.density is None:
        from minesolver.analysis import MineCountUnknown

        raise MineCountUnknown("the total number of mines is unknown: give it or a density")
    started = time.perf_counter()
    huge = sampled_components(problem, seconds)
    if not huge:
        return analyze_problem(problem, FrontierEngine())
    left = max(seconds - (time.perf_counter() - started), 0.0)
    result = McmcEngine(sweeps=sweeps, seed=seed, huge=huge, seconds=left).analyze_problem(problem)
    return Analysis(
        position=result.position,
        probabilities=result.probabilities,
        layouts=0,
        safe=result.safe,
        mines=result.mines,
        engine="exact+mcmc",
        exact=False,
        errors=result.errors,
    )
