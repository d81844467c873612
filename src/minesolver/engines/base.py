"""The one interface every engine implements, and the registry of engines by name.

An *exact component engine* counts one :class:`~minesolver.constraints.Component`:
its layouts by mine number and, per box, the layouts in which a given cell of the box is
a mine (a :class:`~minesolver.counting.ComponentCount`). The global mine total is then
applied by :mod:`minesolver.counting`, the same for every exact engine.
Engines that work on the whole position at once (approximate ones, certain-cell deciders)
implement :class:`PositionEngine` instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeGuard, runtime_checkable

if TYPE_CHECKING:
    from minesolver.analysis import Analysis
    from minesolver.constraints import Component, Problem
    from minesolver.counting import ComponentCount

__all__ = [
    "ComponentEngine",
    "EngineError",
    "EngineLimitExceeded",
    "PositionEngine",
    "is_component_engine",
]


class EngineError(ValueError):
    """An engine cannot do what was asked (unknown name, input beyond its limits)."""


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
    """Analyses a whole reduced position (for approximate and certain-cell engines)."""

    name: str

    def analyze_problem(self, problem: Problem) -> Analysis:
        """The analysis of ``problem``."""
        ...


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
