"""Engines by name. ``get_engine("exact")`` returns the default exact engine.

Each engine lives in its own module; this registry maps names to factories so that an
engine's heavy dependencies are imported only when it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from minesolver.engines.base import (
    ComponentEngine,
    EngineError,
    EngineLimitExceeded,
    PositionEngine,
    is_component_engine,
)

__all__ = [
    "ENGINES",
    "ComponentEngine",
    "EngineError",
    "EngineLimitExceeded",
    "PositionEngine",
    "get_engine",
    "is_component_engine",
    "register",
]

Engine = ComponentEngine | PositionEngine


def _exact() -> Engine:
    from minesolver.engines.exact import FrontierEngine

    return FrontierEngine()


def _brute() -> Engine:
    from minesolver.engines.brute import BruteForceEngine

    return BruteForceEngine()


def _lazy(module: str, cls: str) -> Callable[[], Engine]:
    """A factory importing ``minesolver.engines.<module>`` only when first called."""

    def make() -> Engine:
        engine: Engine = getattr(import_module(f"minesolver.engines.{module}"), cls)()
        return engine

    return make


ENGINES: dict[str, Callable[[], Engine]] = {
    "exact": _exact,
    "brute": _brute,
    "elimination": _lazy("elimination", "EliminationEngine"),
    "enumerate": _lazy("enumerate", "EnumerationEngine"),
    "sat": _lazy("sat", "SatEngine"),
    "ilp": _lazy("ilp", "IlpEngine"),
    "sampling": _lazy("sampling", "SamplingEngine"),
    "bp": _lazy("bp", "BeliefPropagationEngine"),
    "mcmc": _lazy("mcmc", "McmcEngine"),
}
"""Engine factories by name; other modules add theirs with :func:`register`."""

_instances: dict[str, Engine] = {}


def register(name: str, factory: Callable[[], Engine]) -> None:
    """Make an engine available by ``name``."""
    ENGINES[name] = factory
    _instances.pop(name, None)


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (one shared instance); :class:`EngineError` if unknown."""
    engine = _instances.get(name)
    if engine is None:
        factory = ENGINES.get(name)
        if factory is None:
            raise EngineError(f"unknown engine {name!r} (available: {', '.join(sorted(ENGINES))})")
        engine = _instances[name] = factory()
    return engine
