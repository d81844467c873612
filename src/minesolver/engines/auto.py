"""``auto``: exact where the count fits a time limit, sampled (and marked so) where not.

Under a time limit the limit is a deadline (:func:`~minesolver.engines.base.deadline_scope`),
not an estimate. :meth:`AutoEngine.analyze` (what :func:`~minesolver.analysis.analyze`
calls) first runs the whole native exact analysis under the deadline of the exact phase
(:data:`EXACT_SHARE` of the limit): when it finishes, that is the answer, and the position
was never reduced in Python. When it does not, the position is reduced (under the
deadline) and the distinct components are counted natively again, smallest first, for a
moment (:data:`RECOUNT_SHARE` of the time left: the small ones count in microseconds, the
one that did not finish stops again); :meth:`AutoEngine.analyze_problem` (a reduced
problem, or a density) counts them so for the exact phase itself. A count that passes its
deadline stops inside the native loops, and that component and every larger one are
sampled instead.

Otherwise the components that did not fit are handed to the block-MCMC engine
(:mod:`minesolver.engines.mcmc`), with every other component still counted exactly (the
counts just made) and the interior exact given the sampled mine number. The chain, its
SAT step and its first consistent layout get the time left and stop at the deadline with
what they have: the result is then ``exact=False`` with a standard error per cell that
says how little the chains ran, and its ``engine`` says ``"exact+mcmc"``: a fallback is
never silent. When not even a first consistent layout is found before the deadline, the
answer is :class:`~minesolver.engines.EngineLimitExceeded`. With no time limit
(``seconds=None``) it is the exact engine.

Cost: at most the limit for the exact phase and the chain together, plus what follows the
deadline checks (the estimates: O(unknown cells + distinct mine totals * combination)).
:func:`sampled_components` (a dry run of the Python frontier programme) estimates the
same split before any count; the Python engines under a time limit use it.

>>> from minesolver import Position, analyze
>>> from minesolver.result import Limit
>>> analyze(Position.from_text("3x1x1\\n1HH"), engine="auto", limit=Limit(seconds=1)).exact
True
"""

from __future__ import annotations

import time
from collections.abc import MutableMapping
from dataclasses import replace
from fractions import Fraction

from minesolver.constraints import Problem, build
from minesolver.counting import ComponentCount
from minesolver.engines.base import (
    EngineLimitExceeded,
    check_deadline,
    deadline_scope,
    seconds_left,
)
from minesolver.engines.component import analyze_components
from minesolver.engines.exact import ExactEngine
from minesolver.engines.frontier import SECONDS_PER_OP, check_exact_fits, sampled_components
from minesolver.engines.generic import PositionEngineBase
from minesolver.position import InconsistentPosition, Position
from minesolver.result import Analysis, Limit, MineCountUnknown

__all__ = [
    "EXACT_SHARE",
    "SECONDS_PER_OP",
    "AutoEngine",
    "check_exact_fits",
    "sampled_components",
]

EXACT_SHARE = 0.5
"""Share of a time limit the exact counts may use before the rest is sampled: the chain
gets at least the other half."""
RECOUNT_SHARE = 0.1
"""Share of the time left after a whole native analysis did not finish, for counting the
components again (smallest first: the small ones count in microseconds, the one that did
not finish stops again) before the chain."""


class AutoEngine(PositionEngineBase):
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

    def _settings(self, limit: Limit | None) -> tuple[float | None, int, int]:
        seconds, sweeps, seed = self.seconds, self.sweeps, self.seed
        if limit is not None:
            seconds = limit.seconds if limit.seconds is not None else seconds
            sweeps = limit.samples if limit.samples is not None else sweeps
            seed = limit.seed if limit.seed is not None else seed
        return seconds, sweeps, seed

    def analyze(
        self,
        position: Position,
        *,
        limit: Limit | None = None,
        density: Fraction | None = None,
        trust_flags: bool = True,
        cache: MutableMapping[object, ComponentCount] | None = None,
    ) -> Analysis:
        """The analysis of a position whose total is known (what
        :func:`~minesolver.analysis.analyze` calls): first the whole native analysis in one
        call under the exact phase's deadline (:data:`EXACT_SHARE` of the limit), so that
        what fits is answered without reducing the position in Python; when it does not
        finish, the position is reduced (under the deadline), its components counted again
        smallest first for a moment (:data:`RECOUNT_SHARE` of the time left) and the rest
        sampled, as :meth:`analyze_problem` does. ``cache`` serves the exact path. Under a
        ``density`` (or with no total), the reduced position goes to
        :meth:`analyze_problem`."""
        if density is not None or position.mines is None:
            return super().analyze(
                position, limit=limit, density=density, trust_flags=trust_flags, cache=cache
            )
        seconds, sweeps, seed = self._settings(limit)
        native = ExactEngine()
        if seconds is None:
            return self._owned(native.analyze(position, trust_flags=trust_flags, cache=cache))
        with deadline_scope(seconds) as deadline:
            assert deadline is not None
            try:
                with deadline_scope(EXACT_SHARE * max(deadline - time.perf_counter(), 0.0)):
                    exact = native.analyze(position, trust_flags=trust_flags, cache=cache)
                return self._owned(exact)
            except EngineLimitExceeded:  # the exact phase's deadline, or the memory cap
                pass
            problem = build(position, trust_flags=trust_flags, check=check_deadline)
            return self._fallback(problem, RECOUNT_SHARE, sweeps, seed)

    def _owned(self, result: Analysis) -> Analysis:
        """``result`` (a fresh analysis of ours) marked as this engine's, so that what-ifs
        use it again; set in place: :func:`dataclasses.replace` would build the lazy
        problem of a native analysis."""
        object.__setattr__(result, "source", self)
        return result

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        """Exact analysis when every component's count finishes within the exact phase,
        else exact for what finished and block MCMC for the rest (``exact=False``,
        ``engine="exact+mcmc"``), all before the deadline."""
        seconds, sweeps, seed = self._settings(limit)
        if problem.mines_left is None and problem.density is None:
            raise MineCountUnknown("the total number of mines is unknown: give it or a density")
        if seconds is None:
            return replace(analyze_components(problem, ExactEngine()), source=self)
        with deadline_scope(seconds):
            return self._fallback(problem, EXACT_SHARE, sweeps, seed)

    def _fallback(self, problem: Problem, share: float, sweeps: int, seed: int) -> Analysis:
        """Under the current deadline: count the components natively for ``share`` of
        the time left (smallest first), then the exact analysis if every one was counted,
        else the chain for the others (:class:`~minesolver.engines.mcmc.McmcEngine`)."""
        native = ExactEngine()
        left = seconds_left()
        assert left is not None
        with deadline_scope(share * left):
            counts, huge = _count_what_fits(problem, native)
        if not huge:
            return replace(analyze_components(problem, native, counts), source=self)
        # the chain's module, loaded on the first fallback: the exact path never pays
        from minesolver.engines.mcmc import McmcEngine

        chain = McmcEngine(sweeps=sweeps, seed=seed, huge=huge, counts=counts)
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


def _count_what_fits(
    problem: Problem, engine: ExactEngine
) -> tuple[dict[object, ComponentCount], frozenset[int]]:
    """The counts of the distinct components that finish before the current deadline,
    smallest first (by boxes), and the indices of the components left to sample: those
    whose count passed the deadline or the memory cap, and every larger one not tried.
    Raises :class:`InconsistentPosition` for a counted component with no layout."""
    comps = problem.components
    counts: dict[object, ComponentCount] = {}
    failed: set[object] = set()
    out_of_time = False
    huge: set[int] = set()
    for j in sorted(range(len(comps)), key=lambda j: len(comps[j].boxes)):
        comp = comps[j]
        key = comp.key()
        if key in counts:
            continue
        if out_of_time or key in failed:
            huge.add(j)
            continue
        try:
            count = engine.count(comp)
        except EngineLimitExceeded:  # the deadline, or the native memory cap
            failed.add(key)
            huge.add(j)
            out_of_time = seconds_left() == 0.0
            continue
        if not count.layouts:
            x, y = problem.position.coords(comp.origins[0])
            raise InconsistentPosition(
                f"no mine layout satisfies the digits around ({x}, {y}) "
                f"(digit {problem.position.cells[comp.origins[0]]} and its neighbours)"
            )
        counts[key] = count
    return counts, frozenset(huge)
