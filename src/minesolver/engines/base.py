"""The one interface every engine implements.

The front door (:func:`~minesolver.analysis.analyze`) asks one thing of every engine, the
:class:`Engine` protocol: ``engine.analyze(position, limit=...)`` (and ``analyze_after``
for a what-if), as python-chess's ``engine.analyse(board, limit)`` never asks which engine
it talks to. An engine is built on one of two smaller hooks, and
:mod:`minesolver.engines.generic` turns either into an :class:`Engine`:

An *exact component engine* counts one :class:`~minesolver.constraints.Component`:
its layouts by mine number and, per box, the layouts in which a given cell of the box is
a mine (a :class:`~minesolver.counting.ComponentCount`). The global mine total is then
applied by :mod:`minesolver.counting`, the same for every exact engine
(:func:`minesolver.engines.component.analyze_components`).
Engines that work on the whole position at once (approximate ones, certain-cell deciders,
``auto``) implement :class:`PositionEngine` instead: ``analyze_problem(problem, limit)``.

A time limit is a *deadline*: :func:`deadline_scope` sets it for a block (the front door
:func:`~minesolver.analysis.analyze` does, from ``Limit(seconds=...)``), and every engine's
loops call :func:`check_deadline` as they go (a few hundred nanoseconds a call), so a
component engine, whose ``count`` takes no limit, stops too. The native core gets what is
left (:func:`seconds_left`) and checks it in its own loops.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Protocol, TypeGuard, runtime_checkable

from minesolver.errors import MinesolverError

if TYPE_CHECKING:
    from collections.abc import MutableMapping
    from fractions import Fraction

    from minesolver.constraints import Component, Problem
    from minesolver.counting import ComponentCount
    from minesolver.position import Cell, Position
    from minesolver.result import Analysis, Limit

__all__ = [
    "ComponentEngine",
    "Engine",
    "EngineError",
    "EngineLimitExceeded",
    "PositionEngine",
    "check_deadline",
    "deadline_scope",
    "is_component_engine",
    "is_engine",
    "seconds_left",
]


class EngineError(MinesolverError, ValueError):
    """An engine cannot do what was asked (unknown name, input beyond its limits, a
    missing optional dependency)."""


class EngineLimitExceeded(EngineError):
    """The input is beyond what this engine accepts; the message says which limit."""


_DEADLINE: ContextVar[float | None] = ContextVar("minesolver_deadline", default=None)
"""The ``time.perf_counter()`` value at which the current work stops (``None``: none)."""


@contextmanager
def deadline_scope(seconds: float | None) -> Iterator[float | None]:
    """Within the block, the engines stop ``seconds`` from now (or at an enclosing
    deadline, if earlier); yields the deadline, a ``time.perf_counter()`` value.
    ``None`` keeps the enclosing deadline (if any). Per thread and per task.

    >>> with deadline_scope(1e-9):
    ...     check_deadline()
    Traceback (most recent call last):
    ...
    minesolver.engines.base.EngineLimitExceeded: the time limit passed before the analysis finished
    """
    outer = _DEADLINE.get()
    if seconds is None:
        yield outer
        return
    at = time.perf_counter() + max(float(seconds), 0.0)
    if outer is not None:
        at = min(at, outer)
    token = _DEADLINE.set(at)
    try:
        yield at
    finally:
        _DEADLINE.reset(token)


def seconds_left() -> float | None:
    """Seconds before the current deadline (0 once passed; ``None``: no deadline). O(1)."""
    at = _DEADLINE.get()
    return None if at is None else max(at - time.perf_counter(), 0.0)


def check_deadline() -> None:
    """Raise :class:`EngineLimitExceeded` once the current deadline has passed. O(1): the
    engines call it inside their loops."""
    at = _DEADLINE.get()
    if at is not None and time.perf_counter() >= at:
        raise EngineLimitExceeded("the time limit passed before the analysis finished")


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


@runtime_checkable
class Engine(Protocol):
    """What the front door asks of any engine: the analysis of a position, and the one
    after a hidden cell shows a digit. Every built-in engine is one
    (:class:`~minesolver.engines.generic.ComponentEngineBase` or
    :class:`~minesolver.engines.generic.PositionEngineBase` over its hook);
    :func:`~minesolver.engines.generic.as_engine` makes one of any object with a hook."""

    name: str

    def analyze(
        self,
        position: Position,
        *,
        limit: Limit | None = None,
        density: Fraction | None = None,
        trust_flags: bool = True,
        cache: MutableMapping[object, ComponentCount] | None = None,
    ) -> Analysis:
        """The analysis of ``position`` (under its total, or ``density``: a Fraction
        strictly between 0 and 1); ``limit.seconds`` is a deadline from the call's start.
        ``cache`` (a dict the caller keeps for this engine) lets later calls reuse the
        counts of components that did not change."""
        ...

    def analyze_after(
        self,
        analysis: Analysis,
        cell: Cell,
        digit: int,
        *,
        cache: MutableMapping[object, ComponentCount] | None = None,
        child: Position | None = None,
    ) -> Analysis:
        """The analysis of ``analysis.position`` (one of this engine's) after the hidden
        ``cell`` shows ``digit``; ``child``, that position, when the caller has it."""
        ...


_COMPONENT_KINDS: dict[type, bool] = {}
_ENGINE_KINDS: dict[type, bool] = {}


def is_engine(engine: object) -> TypeGuard[Engine]:
    """``isinstance(engine, Engine)``, remembered per class (a runtime check against a
    Protocol walks its attributes). O(1) after the first call for a class."""
    kind = type(engine)
    known = _ENGINE_KINDS.get(kind)
    if known is None:
        known = _ENGINE_KINDS[kind] = isinstance(engine, Engine)
    return known


def is_component_engine(engine: object) -> TypeGuard[ComponentEngine]:
    """``isinstance(engine, ComponentEngine)``, remembered per class: a runtime check
    against a Protocol walks its attributes (~20 us), and the players ask once per
    what-if analysis."""
    kind = type(engine)
    known = _COMPONENT_KINDS.get(kind)
    if known is None:
        known = _COMPONENT_KINDS[kind] = isinstance(engine, ComponentEngine)
    return known
