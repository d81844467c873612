"""What every approximate engine returns: estimates per cell as an :class:`Analysis`.

The approximate engines (``sampling``, ``mcmc``, ``bp``, and the certain-cell deciders
``sat`` and ``ilp`` through :func:`~minesolver.engines.certain.certain_analysis`) each
estimate a probability and an error per cell; :func:`approximate_analysis` makes them one
kind of result: ``exact=False``, ``layouts=None`` (nothing was counted), the errors keyed
by cell, and the problem's forced cells certain (0 or 1) with error 0. O(unknown cells).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from minesolver.result import Analysis

if TYPE_CHECKING:
    from minesolver.constraints import Problem

__all__ = ["approximate_analysis"]


def approximate_analysis(
    problem: Problem,
    probabilities: Mapping[int, Fraction],
    errors: Mapping[int, float],
    *,
    engine: str,
) -> Analysis:
    """The analysis of an approximate engine from its estimates by cell index.

    ``probabilities`` and ``errors`` cover every unknown cell that is not forced; the
    forced cells of ``problem`` are added, certain with error 0 (they override the
    estimates). The certain cells of the result are those with probability 0 or 1.

    >>> from minesolver.constraints import build
    >>> from minesolver.position import Position
    >>> problem = build(Position.from_text("3x1x1\\n1HH"))  # (1, 0) is forced
    >>> a = approximate_analysis(problem, {2: Fraction(0)}, {2: 0.0}, engine="demo")
    >>> a.exact, a.layouts, sorted(a.certain_mines), sorted(a.errors.items())
    (False, None, [(1, 0)], [((1, 0), 0.0), ((2, 0), 0.0)])
    """
    zero, one = Fraction(0), Fraction(1)
    probs = {**probabilities, **dict.fromkeys(problem.forced_safe, zero)}
    probs.update(dict.fromkeys(problem.forced_mines, one))
    errs = {**errors, **dict.fromkeys(problem.forced_safe | problem.forced_mines, 0.0)}
    w = problem.position.width
    return Analysis.from_indices(
        problem,
        None,
        probs,
        engine=engine,
        exact=False,
        errors={(i % w, i // w): e for i, e in errs.items()},
    )
