"""The one interface every engine implements.

An *exact component engine* counts one :class:`~minesolver.constraints.Component`:
its layouts by mine number and, per box, the layouts in which a given cell of the box is
a mine (a :class:`~minesolver.counting.ComponentCount`). The global mine total is then
applied by :mod:`minesolver.counting`, the same for every exact engine
(:func:`minesolver.engines.component.analyze_components`).
Engines that work on the whole position at once (approximate ones, certain-cell deciders,
``auto``) implement :class:`PositionEngine` instead: ``analyze_problem(problem, limit)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeGuard, runtime_checkable

from minesolver.errors import MinesolverError

if TYPE_CHECKING:
    from minesolver.constraints import Component, Problem
    from minesolver.counting import ComponentCount
    from minesolver.result import Analysis, Limit

__all__ = [
    "ComponentEngine",
    "Engine",
    "EngineError",
    "EngineLimitExceeded",
    "PositionEngine",
    "is_component_engine",
]


class EngineError(MinesolverError, ValueError):
    """An engine cannot do what was asked (unknown name, input beyond its limits, a
    missing optional dependency)."""


class EngineLimitExceeded(EngineError):
    """The input is beyond what this engine accepts; the message says which limit."""


@runtime_checkable
class ComponentEngine(Protocol):
    """Counts a component exactly; combined under the total by :mod:`minesolver.counting`."""

    name: str

    def count(self, component: Component) -> ComponentCount:
        """Layouts by mine number and per-box mine counts by mine number."""
        ...


@runtime_checkable
class PositionEngine(Protocol):
    """Analyses a whole reduced position (approximate and certain-cell engines, ``auto``).

    ``limit`` may set the engine's time, samples and seed for this call (``None``: the
    instance's own settings).
    """

    name: str

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:
        """The analysis of ``problem``."""
        ...


Engine = ComponentEngine | PositionEngine
"""Any engine."""

_COMPONENT_KINDS: dict[type, bool] = {}


def is_component_engine(engine: object) -> TypeGuard[ComponentEngine]:
    """``isinstance(engine, ComponentEngine)``, remembered per class: a runtime check
    against a Protocol walks its attributes (~20 us), and the players ask once per
    what-if analysis."""
    kind = type(engine)
    known = _COMPONENT_KINDS.get(kind)
    if known is None:
        known = _COMPONENT_KINDS[kind] = isinstance(engine, ComponentEngine)
    return known
