"""The one interface every engine implements, and the registry of engines by name.

An *exact component engine* counts one :class:`~minesolver.constraints.Component`:
its layouts by mine number and, per box, the layouts in which a given cell of the box is
a mine (a :class:`~minesolver.counting.ComponentCount`). The global mine total is then
applied by :mod:`minesolver.counting`, the same for every exact engine.
Engines that work on the whole position at once (approximate ones, certain-cell deciders)
implement :class:`PositionEngine` instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from minesolver.analysis import Analysis
    from minesolver.constraints import Component, Problem
    from minesolver.counting import ComponentCount

__all__ = [
    "ComponentEngine",
    "EngineError",
    "EngineLimitExceeded",
    "PositionEngine",
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
