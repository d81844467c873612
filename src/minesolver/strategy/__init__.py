"""Players, selectable by name: ``greedy``, ``pseq``, ``best`` (see :mod:`.base`).

Variants of ``best`` measure its ingredients: ``best-no-endgame`` (also ``-fifty``,
``-dead``, ``-dominance``, ``-second``, ``-latent``) plays without one, and
``best:margin=1/10;max_candidates=20`` changes its settings
(:func:`minesolver.strategy.best.variant_factory`).

The registry maps a name to the module that defines the player; the module is imported
only when the player is asked for, so a player whose module is missing or broken does not
stop the others. In that module the player is the class whose ``name`` attribute is the
registry name (or a ``make_strategy()`` function); :func:`register` adds others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from minesolver.strategy.base import Move, MoveKind, Strategy

__all__ = [
    "STRATEGIES",
    "Move",
    "MoveKind",
    "Strategy",
    "StrategyError",
    "get_strategy",
    "register",
    "strategy_names",
]

STRATEGIES: dict[str, str] = {
    "greedy": "minesolver.strategy.greedy",
    "pseq": "minesolver.strategy.pseq",
    "best": "minesolver.strategy.best",
}
"""Player name -> module defining it (imported lazily)."""

_FACTORIES: dict[str, Callable[[], Strategy]] = {}


class StrategyError(ValueError):
    """An unknown player name, or a player whose module cannot be loaded."""


def register(name: str, factory: Callable[[], Strategy]) -> None:
    """Add a player under ``name`` (``factory()`` builds a fresh instance)."""
    _FACTORIES[name] = factory


def strategy_names() -> list[str]:
    """Every registered name."""
    return sorted(set(STRATEGIES) | set(_FACTORIES))


def _factory(name: str) -> Callable[[], Strategy]:
    factory = _FACTORIES.get(name)
    if factory is not None:
        return factory
    if name.startswith(("best-no-", "best:")):
        from minesolver.strategy.best import variant_factory

        factory = _FACTORIES[name] = variant_factory(name)
        return factory
    module_name = STRATEGIES.get(name)
    if module_name is None:
        raise StrategyError(
            f"unknown strategy {name!r}: expected one of {', '.join(strategy_names())}"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise StrategyError(f"strategy {name!r} is not available: {exc}") from exc
    found = getattr(module, "make_strategy", None)
    if not callable(found):
        found = next(
            (
                value
                for value in vars(module).values()
                if isinstance(value, type) and getattr(value, "name", None) == name
            ),
            None,
        )
    if found is None:
        raise StrategyError(f"strategy {name!r}: {module_name} defines no class named {name!r}")
    _FACTORIES[name] = found
    return found


def get_strategy(name: str) -> Strategy:
    """A fresh player by name; :class:`StrategyError` names the known ones otherwise."""
    return _factory(name.strip().lower())()
