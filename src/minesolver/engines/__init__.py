"""Engines by name: ``get_engine("exact")``, or a configured one, ``get_engine("mcmc", seed=3)``.

Each engine lives in its own module behind one small interface
(:mod:`minesolver.engines.base`); the registry (:class:`minesolver.registry.Registry`)
maps names to classes so that an engine's heavy dependencies are imported only when it is
asked for, and a missing optional dependency is an :class:`EngineError` naming the extra
to install. Every engine but ``ilp`` works on a plain install; ``ENGINES.extra(name)``
names the extra an engine needs.

>>> get_engine("exact").name
'exact'
>>> get_engine("mcmc", sweeps=80, seed=3).sweeps
80
>>> {name: ENGINES.extra(name) for name in engine_names() if ENGINES.extra(name)}
{'ilp': 'engines'}
"""

from __future__ import annotations

from typing import Any

from minesolver.engines.base import (
    ComponentEngine,
    Engine,
    EngineError,
    EngineLimitExceeded,
    PositionEngine,
    check_deadline,
    deadline_scope,
    is_component_engine,
    is_engine,
    seconds_left,
)
from minesolver.registry import Registry

__all__ = [
    "ENGINES",
    "ComponentEngine",
    "Engine",
    "EngineError",
    "EngineLimitExceeded",
    "PositionEngine",
    "check_deadline",
    "deadline_scope",
    "engine_names",
    "get_engine",
    "is_component_engine",
    "is_engine",
    "register",
    "seconds_left",
]

ENGINES: Registry[Engine] = Registry("engine", EngineError)
"""The engines by name; ``name in ENGINES``, ``ENGINES.names()``."""

for _name, _target, _extra in (
    ("exact", "minesolver.engines.exact:ExactEngine", None),
    ("exact-py", "minesolver.engines.exact_py:ExactPyEngine", None),
    ("brute", "minesolver.engines.brute:BruteForceEngine", None),
    ("elimination", "minesolver.engines.elimination:EliminationEngine", None),
    ("enumerate", "minesolver.engines.enumerate:EnumerationEngine", None),
    ("sat", "minesolver.engines.sat:SatEngine", None),
    ("ilp", "minesolver.engines.ilp:IlpEngine", "engines"),
    ("sampling", "minesolver.engines.sampling:SamplingEngine", None),
    ("bp", "minesolver.engines.bp:BeliefPropagationEngine", None),
    ("mcmc", "minesolver.engines.mcmc:McmcEngine", None),
    ("auto", "minesolver.engines.auto:AutoEngine", None),
):
    ENGINES.register_lazy(_name, _target, _extra)

_shared: dict[str, Engine] = {}


def register(name: str, factory: Any) -> None:
    """Make an engine available by ``name`` (``factory(**settings)`` builds one)."""
    ENGINES.register(name, factory)
    _shared.pop(name, None)


def engine_names() -> list[str]:
    """Every engine's name."""
    return ENGINES.names()


def get_engine(name: str, **settings: Any) -> Engine:
    """The engine called ``name``: with no ``settings`` one shared default instance (its
    caches serve every caller), else a new instance configured with them.

    Raises :class:`EngineError` for an unknown name or a missing optional dependency, and
    ``TypeError`` for a setting the engine does not have.
    """
    if not isinstance(name, str):
        raise TypeError(f"an engine name is a str, got {name!r}")
    if settings:
        return ENGINES.create(name, **settings)
    engine = _shared.get(name)
    if engine is None:
        engine = _shared[name] = ENGINES.create(name)
    return engine
