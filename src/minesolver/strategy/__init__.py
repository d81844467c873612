"""Players, selectable by name: ``greedy``, ``pseq``, ``best``, ``efficient`` (see
:mod:`.base`); ``greedy``, ``pseq`` and ``best`` decide in the native core, and
``greedy-py``, ``pseq-py`` and ``best-py`` are their Python reference (the same moves).
``efficient`` makes ``best``'s guesses and plays its certain moves for the fewest clicks
(:mod:`.efficient`); ``efficient-lookahead`` chooses among its best certain moves by
rollouts on sampled layouts (:mod:`.lookahead`).

Each move a player makes carries why, as a typed :class:`Reason`
(:mod:`.reasons`: ``Certain``, ``Lowest``, ``Pseq``, ``Safety``, ``SecondMove``,
``Endgame``, ``FiftyFifty``).

>>> from minesolver.strategy import get_player, player_names
>>> {"best", "greedy", "pseq"} <= set(player_names())
True
>>> get_player("greedy").name
'greedy'
>>> get_player("best", margin=0).options.margin
Fraction(0, 1)

Variants of ``best`` measure its ingredients: ``best-no-endgame`` (also ``-fifty``,
``-dead``, ``-dominance``, ``-second``, ``-latent``) plays without one, and
``best:margin=1/10;max_candidates=20`` changes its settings
(:func:`minesolver.strategy.best.variant_options`); the same settings can be given as
keyword arguments of :func:`get_player`. ``best-py-no-endgame`` and ``best-py:...`` are
the same variants of the Python reference.

The players are kept in a :class:`~minesolver.registry.Registry`, the convention the
engines share: each built-in name points to the ``module:attribute`` that builds the
player, imported only when the player is first asked for, so a player whose module is
missing or broken does not stop the others. :func:`register_player` adds others.
``get_strategy``, ``strategy_names`` and ``register`` are the older names of
:func:`get_player`, :func:`player_names` and :func:`register_player`: deprecated, they
still work and warn (``DeprecationWarning``).

Cost: a lookup is one dict access once the name has been resolved (the first lookup of a
name imports its module; a variant's name is parsed once).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from typing import Any

from minesolver.registry import Registry
from minesolver.strategy.base import Move, MoveKind, Player, Reason
from minesolver.strategy.errors import PlayerError

__all__ = [
    "PLAYERS",
    "Move",
    "MoveKind",
    "Player",
    "PlayerError",
    "Reason",
    "get_player",
    "player_names",
    "register_player",
]

PLAYERS: dict[str, str] = {
    "greedy": "minesolver.strategy.native:NativeGreedy",
    "pseq": "minesolver.strategy.native:NativePseq",
    "best": "minesolver.strategy.native:make_best",
    "search": "minesolver.strategy.native:NativeSearch",
    "greedy-py": "minesolver.strategy.greedy:GreedyPlayer",
    "pseq-py": "minesolver.strategy.pseq:PseqPlayer",
    "best-py": "minesolver.strategy.best:make_player",
}
"""The built-in players: name -> ``module:attribute`` of the factory that builds one
(imported lazily). Others are added with :func:`register_player`, not here. ``greedy``,
``pseq`` and ``best`` decide natively (:mod:`.native`; ``best`` with ``latent_blocks``
set is the Python player, which alone counts those); ``greedy-py``, ``pseq-py`` and
``best-py`` are the same players in Python, the readable reference, making the very same
moves."""

_VARIANTS: Registry[Callable[..., Player]] = Registry("player family", PlayerError)
"""Families of parameterised names, ``<family>-no-<ingredient>`` and
``<family>:<setting>=<value>;...``: family -> a function of the full name returning the
variant's factory."""
_VARIANTS.register_lazy("best", "minesolver.strategy.native:best_variant")
_VARIANTS.register_lazy("search", "minesolver.strategy.native:search_variant")
_VARIANTS.register_lazy("best-py", "minesolver.strategy.best:variant_factory")


def _resolve(name: str) -> Callable[..., Player] | None:
    """The factory of a variant name of a registered family, ``None`` for any other."""
    family = name.partition(":")[0].partition("-no-")[0]
    if family == name or family not in _VARIANTS:
        return None
    return _VARIANTS.factory(family)(name)


_PLAYERS: Registry[Player] = Registry("player", PlayerError, _resolve)
for _name, _target in PLAYERS.items():
    _PLAYERS.register_lazy(_name, _target)

_OVER_BEST: Registry[Player] = Registry("player over best", PlayerError)
"""Players built over a ``best`` player that makes their guesses: name -> the class that
takes it (imported lazily). They are registered in the players' registry by
:func:`_over_best`, which gives each the ``best`` that :func:`get_player` names (the
Python or the native one, whichever is registered as ``best``)."""
_OVER_BEST.register_lazy("efficient", "minesolver.strategy.efficient:EfficientPlayer")
_OVER_BEST.register_lazy("efficient-lookahead", "minesolver.strategy.lookahead:LookaheadPlayer")


def _over_best(name: str) -> Callable[..., Player]:
    """The factory of the player ``name`` of :data:`_OVER_BEST`: its settings are
    ``best``'s, for the guesses."""

    def make(**settings: Any) -> Player:
        return _OVER_BEST.factory(name)(get_player("best", **settings))

    make.__name__ = name
    return make


for _name in _OVER_BEST.names():
    _PLAYERS.register(_name, _over_best(_name))


def register_player(name: str, factory: Callable[..., Player]) -> None:
    """Add a player under ``name`` (``factory(**settings)`` builds a fresh instance); a
    name already taken is replaced."""
    _PLAYERS.register(name, factory)


def player_names() -> list[str]:
    """Every registered name, sorted (variant names once they have been asked for)."""
    return _PLAYERS.names()


def get_player(name: str, **settings: Any) -> Player:
    """A fresh player by name (case and surrounding spaces ignored), built with
    ``settings``. :class:`PlayerError` names the known players for an unknown name,
    and what is wrong with a setting the player does not take."""
    key = name.strip().lower()
    factory = _PLAYERS.factory(key)
    if settings:
        _check_settings(key, factory, settings)
    return factory(**settings)


def _check_settings(name: str, factory: Callable[..., Player], settings: dict[str, Any]) -> None:
    """:class:`PlayerError` when ``factory``'s signature does not take ``settings``
    (a factory without one to inspect is left to say so when called)."""
    try:
        signature = inspect.signature(factory)
    except ValueError:
        return
    try:
        signature.bind(**settings)
    except TypeError as exc:
        raise PlayerError(f"player {name!r}: {exc}") from None


_OLD_NAMES: dict[str, Callable[..., Any]] = {
    "get_strategy": get_player,
    "strategy_names": player_names,
    "register": register_player,
}
"""Deprecated name -> the function it now is."""


def __getattr__(name: str) -> Callable[..., Any]:
    """The deprecated names (:data:`_OLD_NAMES`), with a ``DeprecationWarning`` naming
    the new one; they are the same functions."""
    new = _OLD_NAMES.get(name)
    if new is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"minesolver.strategy.{name} is deprecated: use {new.__name__}",
        DeprecationWarning,
        stacklevel=2,
    )
    return new
