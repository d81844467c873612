"""Every engine an :class:`~minesolver.engines.base.Engine`: the analysis of a position
written once over each of the two hooks an engine implements.

An exact component engine (``count``) subclasses :class:`ComponentEngineBase`: the
position is reduced (:func:`~minesolver.constraints.build`), each component counted, and
the counts combined under the total or the density
(:func:`~minesolver.engines.component.analyze_components`); a what-if rebuilds only the
components next to the cell (:func:`~minesolver.constraints.reveal`). An engine of whole
reduced positions (``analyze_problem``) subclasses :class:`PositionEngineBase`.
:func:`as_engine` wraps an object that has only a hook (an engine registered by a user)
the same way, so the front door never asks which engine it talks to.

Cost: the reduction, O(cells) plus the propagation, then the engine's own; a what-if of a
component engine O(size of the neighbouring components) plus their counts.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from minesolver.constraints import build, reveal
from minesolver.counting import ComponentCount
from minesolver.engines.base import (
    ComponentEngine,
    Engine,
    PositionEngine,
    check_deadline,
    deadline_scope,
    is_component_engine,
    is_engine,
    seconds_left,
)
from minesolver.engines.component import analyze_components
from minesolver.engines.frontier import check_exact_fits
from minesolver.position import Cell, Position
from minesolver.result import Analysis, Limit, MineCountUnknown

if TYPE_CHECKING:
    from minesolver.constraints import Component, Problem

__all__ = [
    "ComponentEngineBase",
    "PositionEngineBase",
    "analyze_by_components",
    "analyze_by_problem",
    "as_engine",
    "require_total",
]

Cache = MutableMapping[object, ComponentCount]


def require_total(position: Position, density: Fraction | None) -> None:
    """:class:`MineCountUnknown` when ``position`` has no total and no density is given."""
    if density is None and position.mines is None:
        raise MineCountUnknown(
            "the total number of mines is unknown: give it in the position's header "
            "(WxHxM) or give a density"
        )


def analyze_by_components(
    counter: ComponentEngine,
    position: Position,
    *,
    limit: Limit | None = None,
    density: Fraction | None = None,
    trust_flags: bool = True,
    cache: Cache | None = None,
    estimate: bool = True,
) -> Analysis:
    """The analysis of ``position`` by the component engine ``counter``, under the
    deadline of ``limit`` (the reduction included). With ``estimate``, a count estimated
    to take longer than the time left is refused before it starts
    (:func:`~minesolver.engines.frontier.check_exact_fits`): the Python engines' cost
    model; the native count checks its deadline itself."""
    require_total(position, density)
    with deadline_scope(None if limit is None else limit.seconds):
        problem = build(position, trust_flags=trust_flags, density=density, check=check_deadline)
        left = seconds_left()
        if limit is not None and left is not None:  # the limit counts the reduction
            check_deadline()
        if estimate and left is not None:
            check_exact_fits(problem, left)
        return analyze_components(problem, counter, cache)


def analyze_by_problem(
    engine: PositionEngine,
    position: Position,
    *,
    limit: Limit | None = None,
    density: Fraction | None = None,
    trust_flags: bool = True,
) -> Analysis:
    """The analysis of ``position`` by the engine of whole reduced positions ``engine``:
    the reduction under the deadline of ``limit``, then ``analyze_problem`` with the
    time left (the reduction counts against the limit)."""
    require_total(position, density)
    with deadline_scope(None if limit is None else limit.seconds):
        problem = build(position, trust_flags=trust_flags, density=density, check=check_deadline)
        left = seconds_left()
        if limit is not None and left is not None:
            check_deadline()
            limit = replace(limit, seconds=max(left, 1e-3))
        result = engine.analyze_problem(problem, limit)
    return result if result.source is not None else replace(result, source=engine)


def _after_by_components(
    counter: ComponentEngine,
    engine: Engine,
    analysis: Analysis,
    cell: Cell,
    digit: int,
    cache: Cache | None,
    child: Position | None,
) -> Analysis:
    """A component engine's what-if: only the components next to ``cell`` rebuilt (and,
    with ``cache``, recounted); a whole analysis when ``analysis`` kept no problem."""
    problem = analysis.problem
    position = analysis.position
    if problem is None:
        return engine.analyze(child or position.replace({cell: digit}), cache=cache)
    return analyze_components(reveal(problem, position.index(cell), digit, child), counter, cache)


def _after_by_problem(
    engine: Engine,
    analysis: Analysis,
    cell: Cell,
    digit: int,
    cache: Cache | None,
    child: Position | None,
) -> Analysis:
    """A what-if of an engine of whole positions: the revealed position analysed with
    the same density and flags."""
    problem = analysis.problem
    if child is None:
        child = analysis.position.replace({cell: digit})
    if problem is None:
        return engine.analyze(child, cache=cache)
    return engine.analyze(
        child, density=problem.density, trust_flags=problem.trust_flags, cache=cache
    )


class ComponentEngineBase:
    """An :class:`~minesolver.engines.base.Engine` over ``count`` (which a subclass
    defines): :func:`analyze_by_components` and a what-if that rebuilds only the
    components next to the cell. ``estimate_cost`` (true) refuses, under a time limit,
    a count estimated not to fit before it starts."""

    name: str
    estimate_cost = True

    def count(self, component: Component) -> ComponentCount:  # pragma: no cover - abstract
        """Layouts by mine number and per-box mine counts of ``component``."""
        raise NotImplementedError

    def analyze(
        self,
        position: Position,
        *,
        limit: Limit | None = None,
        density: Fraction | None = None,
        trust_flags: bool = True,
        cache: Cache | None = None,
    ) -> Analysis:
        """The analysis of ``position`` (:func:`analyze_by_components`)."""
        return analyze_by_components(
            self,
            position,
            limit=limit,
            density=density,
            trust_flags=trust_flags,
            cache=cache,
            estimate=self.estimate_cost,
        )

    def analyze_after(
        self,
        analysis: Analysis,
        cell: Cell,
        digit: int,
        *,
        cache: Cache | None = None,
        child: Position | None = None,
    ) -> Analysis:
        """The analysis after ``cell`` shows ``digit``: the components next to it rebuilt
        and recounted (the others' counts found in ``cache``)."""
        return _after_by_components(self, self, analysis, cell, digit, cache, child)


class PositionEngineBase:
    """An :class:`~minesolver.engines.base.Engine` over ``analyze_problem`` (which a
    subclass defines): :func:`analyze_by_problem`, and a what-if that analyses the
    revealed position."""

    name: str

    def analyze_problem(
        self, problem: Problem, limit: Limit | None = None
    ) -> Analysis:  # pragma: no cover - abstract
        """The analysis of the reduced position ``problem``."""
        raise NotImplementedError

    def analyze(
        self,
        position: Position,
        *,
        limit: Limit | None = None,
        density: Fraction | None = None,
        trust_flags: bool = True,
        cache: Cache | None = None,
    ) -> Analysis:
        """The analysis of ``position`` (:func:`analyze_by_problem`; ``cache`` is for
        component engines and unused here)."""
        return analyze_by_problem(
            self, position, limit=limit, density=density, trust_flags=trust_flags
        )

    def analyze_after(
        self,
        analysis: Analysis,
        cell: Cell,
        digit: int,
        *,
        cache: Cache | None = None,
        child: Position | None = None,
    ) -> Analysis:
        """The analysis of the revealed position, with the same density and flags."""
        return _after_by_problem(self, analysis, cell, digit, cache, child)


class _Adapted:
    """An :class:`~minesolver.engines.base.Engine` made of an object with only a hook
    (``count`` or ``analyze_problem``); its other attributes are the object's. The
    analyses name the object as their source."""

    def __init__(self, inner: ComponentEngine | PositionEngine) -> None:
        self.inner = inner
        self.name = inner.name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.inner, attribute)

    def analyze(
        self,
        position: Position,
        *,
        limit: Limit | None = None,
        density: Fraction | None = None,
        trust_flags: bool = True,
        cache: Cache | None = None,
    ) -> Analysis:
        inner = self.inner
        if is_component_engine(inner):
            return analyze_by_components(
                inner, position, limit=limit, density=density, trust_flags=trust_flags, cache=cache
            )
        assert isinstance(inner, PositionEngine)
        return analyze_by_problem(
            inner, position, limit=limit, density=density, trust_flags=trust_flags
        )

    def analyze_after(
        self,
        analysis: Analysis,
        cell: Cell,
        digit: int,
        *,
        cache: Cache | None = None,
        child: Position | None = None,
    ) -> Analysis:
        inner = self.inner
        if is_component_engine(inner):
            return _after_by_components(inner, self, analysis, cell, digit, cache, child)
        return _after_by_problem(self, analysis, cell, digit, cache, child)


def as_engine(engine: object) -> Engine:
    """``engine`` itself when it is an :class:`~minesolver.engines.base.Engine`, else an
    adapter over its hook (``count`` or ``analyze_problem``); ``TypeError`` for an object
    with neither. O(1) after the first call for a class."""
    if is_engine(engine):
        return engine
    if is_component_engine(engine) or isinstance(engine, PositionEngine):
        return _Adapted(engine)
    raise TypeError(
        f"an engine has analyze(position, ...), count(component) or "
        f"analyze_problem(problem, limit); got {engine!r}"
    )
