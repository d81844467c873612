"""Exact engines' common path: count every component, combine under the total.

An exact component engine only counts one component at a time
(:meth:`ComponentEngine.count`); :func:`analyze_components` does the rest for all of them:
identical components counted once (and, with a caller's cache, not again across moves),
an inconsistent component named by one of its digits, and the counts combined with the
interior under the total or the density by :mod:`minesolver.counting`.

Cost: the engines' counts, plus O(len(F) * sum of component mine ranges) big-integer
operations to combine (see :func:`minesolver.counting.combine`).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from fractions import Fraction

from minesolver.constraints import Problem
from minesolver.counting import ComponentCount, combine, combine_density, total_mismatch
from minesolver.engines.base import ComponentEngine
from minesolver.position import InconsistentPosition
from minesolver.result import Analysis

__all__ = ["analyze_components", "count_components"]


def count_components(
    problem: Problem,
    engine: ComponentEngine,
    cache: MutableMapping[object, ComponentCount] | None = None,
) -> list[ComponentCount]:
    """Each component's counts; identical components are counted once.

    ``cache`` (shape -> counts) may be kept by the caller between analyses of one engine,
    so that components a move did not change are not counted again (a player's moves
    leave most components as they were); the counts in it must not be mutated.
    Raises :class:`InconsistentPosition` naming a digit of a component with no layout.
    """
    if cache is None:
        cache = {}
    counts = []
    position = problem.position
    for comp in problem.components:
        key = comp.key()
        count = cache.get(key)
        if count is None:
            count = cache[key] = engine.count(comp)
        if not count.layouts:
            x, y = position.coords(comp.origins[0])
            raise InconsistentPosition(
                f"no mine layout satisfies the digits around ({x}, {y}) "
                f"(digit {position.cells[comp.origins[0]]} and its neighbours)"
            )
        counts.append(count)
    return counts


def analyze_components(
    problem: Problem,
    engine: ComponentEngine,
    cache: MutableMapping[object, ComponentCount] | None = None,
) -> Analysis:
    """Analyse a reduced position with an exact component engine (``cache``: see
    :func:`count_components`): count each component, then combine the counts under the
    density (:func:`_under_density`) or the total (:func:`_under_total`) with
    :mod:`minesolver.counting`, the same for every exact engine."""
    counts = count_components(problem, engine, cache)
    if problem.density is not None:
        return _under_density(problem, counts, engine)
    return _under_total(problem, counts, engine)


def _under_density(
    problem: Problem, counts: list[ComponentCount], engine: ComponentEngine
) -> Analysis:
    """Each component weighted on its own by the density; interior cells keep it.
    O(sum of polynomial lengths)."""
    assert problem.density is not None
    probs, safe, mines = _forced(problem, Fraction(0), Fraction(1))
    sizes = [c.size for c in problem.components]
    dens_result = combine_density(counts, sizes, problem.density)
    if dens_result is None:  # pragma: no cover - density is strictly inside (0, 1)
        raise InconsistentPosition("no layout has a positive weight at this density")
    layouts, box_probs = dens_result
    layouts *= 2 ** len(problem.interior)
    for comp, row in zip(problem.components, box_probs, strict=True):
        for box, p in zip(comp.boxes, row, strict=True):
            probs.update(dict.fromkeys(box, p))
            if not p:
                safe.extend(box)
            elif p == 1:
                mines.extend(box)
    probs.update(dict.fromkeys(problem.interior, problem.density))
    return Analysis.from_indices(
        problem, layouts, probs, engine=engine.name, certain=(safe, mines), source=engine
    )


def _under_total(
    problem: Problem, counts: list[ComponentCount], engine: ComponentEngine
) -> Analysis:
    """Components and interior combined under the total (:func:`~minesolver.counting.combine`);
    the certain cells and the distinct probabilities (``levels``) are collected on the
    way, so the result need not scan the cells again. Raises
    :class:`InconsistentPosition` when the total fits no layout. Cost: the combination."""
    assert problem.mines_left is not None
    zero, one = Fraction(0), Fraction(1)
    probs, safe, mines = _forced(problem, zero, one)
    interior = len(problem.interior)
    result = combine(counts, interior, problem.mines_left)
    if result is None:
        lo = sum(_low(c.layouts) for c in counts)
        hi = sum(len(c.layouts) - 1 for c in counts)
        left = problem.mines_left
        raise InconsistentPosition(total_mismatch(problem.position.mines, left, lo, hi, interior))
    layouts, total = result.layouts, result.total
    levels: list[Fraction] = []
    for comp, weights in zip(problem.components, result.box_weights, strict=True):
        for box, weight in zip(comp.boxes, weights, strict=True):
            if not weight:
                probs.update(dict.fromkeys(box, zero))
                safe.extend(box)
            elif weight == total:
                probs.update(dict.fromkeys(box, one))
                mines.extend(box)
            else:
                levels.append(p := Fraction(weight, total))
                probs.update(dict.fromkeys(box, p))
    if interior:
        p = Fraction(result.interior_weight, total * interior)
        probs.update(dict.fromkeys(problem.interior, p))
        levels.append(p)  # its own object, even when 0 or 1
        if not p:
            safe.extend(problem.interior)
        elif p == 1:
            mines.extend(problem.interior)
    levels.extend(([zero] if safe else []) + ([one] if mines else []))
    return Analysis.from_indices(
        problem,
        layouts,
        probs,
        engine=engine.name,
        certain=(safe, mines),
        levels=levels,
        source=engine,
    )


def _forced(
    problem: Problem, zero: Fraction, one: Fraction
) -> tuple[dict[int, Fraction], list[int], list[int]]:
    """The forced cells' probabilities (the objects ``zero`` and ``one``, which the
    caller's ``levels`` share), and the forced safe cells and mines, to which the
    combination adds. O(forced cells)."""
    probs: dict[int, Fraction] = dict.fromkeys(problem.forced_safe, zero)
    probs.update(dict.fromkeys(problem.forced_mines, one))
    return probs, list(problem.forced_safe), list(problem.forced_mines)


def _low(poly: list[int]) -> int:
    return next(m for m, v in enumerate(poly) if v)
