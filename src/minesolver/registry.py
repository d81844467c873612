"""Named factories, imported on first use: the one registry convention of the package.

Engines (:func:`minesolver.engines.get_engine`) and players
(:func:`minesolver.strategy.get_player`) are both looked up by name in a :class:`Registry`.
An entry is either a factory (any callable returning the object, taking its settings as
keyword arguments) or a *lazy* entry, ``module:attribute``, imported only when the name is
first asked for, so that an engine's heavy dependencies (scipy, python-sat) are never
imported by those who do not use it. A lazy entry may name the optional extra that
provides its dependencies (:meth:`Registry.extra` tells it without importing anything): a
missing dependency is then a clear error naming the extra to install, never a
``ModuleNotFoundError`` traceback.

>>> from minesolver.registry import Registry
>>> reg: Registry[complex] = Registry("number", ValueError)
>>> reg.register("unit", lambda: complex(1, 0))
>>> reg.create("unit")
(1+0j)
>>> reg.create("two")
Traceback (most recent call last):
...
ValueError: unknown number 'two' (available: unit)
>>> reg.register_lazy("root", "cmath:sqrt", extra="maths")
>>> reg.extra("root"), reg.extra("unit")
('maths', None)

Lookups cost one dict access once a name has been resolved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import import_module
from typing import Any, Generic, TypeVar

__all__ = ["Registry"]

T = TypeVar("T")


class Registry(Generic[T]):
    """Factories by name for one ``kind`` of object; errors are raised as ``error(message)``.

    ``resolve``, when given, is asked for names that are not registered (parameterised
    names such as ``best-no-endgame``): it returns a factory or ``None``.
    """

    def __init__(
        self,
        kind: str,
        error: Callable[[str], Exception],
        resolve: Callable[[str], Callable[..., T] | None] | None = None,
    ) -> None:
        self.kind = kind
        self._error = error
        self._resolve = resolve
        self._factories: dict[str, Callable[..., T]] = {}
        self._lazy: dict[str, tuple[str, str, str | None]] = {}
        self._resolved: dict[str, Callable[..., T]] = {}  # parameterised names seen

    def register(self, name: str, factory: Callable[..., T]) -> None:
        """Make ``factory`` (called with the settings as keyword arguments) ``name``."""
        self._lazy.pop(name, None)
        self._resolved.pop(name, None)
        self._factories[name] = factory

    def register_lazy(self, name: str, target: str, extra: str | None = None) -> None:
        """Make ``name`` the attribute ``target`` (``"package.module:attribute"``), imported
        on first use; ``extra`` names the optional extra that provides its dependencies."""
        module, _, attribute = target.partition(":")
        if not module or not attribute:
            raise ValueError(f"lazy target {target!r}: expected 'module:attribute'")
        self._factories.pop(name, None)
        self._lazy[name] = (module, attribute, extra)

    def names(self) -> list[str]:
        """Every registered name, sorted (parameterised names are not listed)."""
        return sorted(set(self._factories) | set(self._lazy))

    def extra(self, name: str) -> str | None:
        """The optional extra that provides ``name``'s dependencies (``pip install
        'minesolver[extra]'``), or ``None`` when it needs none. Imports nothing; raises
        ``error`` for an unknown name."""
        if name in self._lazy:
            return self._lazy[name][2]
        if name not in self:
            raise self._error(
                f"unknown {self.kind} {name!r} (available: {', '.join(self.names())})"
            )
        return None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __contains__(self, name: object) -> bool:
        return name in self._factories or name in self._lazy

    def factory(self, name: str) -> Callable[..., T]:
        """The factory of ``name``, importing its module if it is lazy.

        Raises ``error`` naming the known names for an unknown one, and naming the extra
        to install when the module's dependencies are missing.
        """
        found = self._factories.get(name) or self._resolved.get(name)
        if found is not None:
            return found
        if name in self._lazy:
            found = self._factories[name] = self._load(name, *self._lazy[name])
            return found
        if self._resolve is not None:
            found = self._resolve(name)
        if found is None:
            raise self._error(
                f"unknown {self.kind} {name!r} (available: {', '.join(self.names())})"
            )
        self._resolved[name] = found
        return found

    def create(self, name: str, **settings: Any) -> T:
        """A new object by name, built with ``settings``."""
        return self.factory(name)(**settings)

    def _load(self, name: str, module: str, attribute: str, extra: str | None) -> Callable[..., T]:
        try:
            loaded = import_module(module)
        except ImportError as exc:
            if extra is None:
                raise self._error(f"{self.kind} {name!r} is not available: {exc}") from exc
            raise self._error(
                f"{self.kind} {name!r} needs the optional dependencies of the {extra!r} "
                f"extra ({exc.name or exc} is missing): pip install 'minesolver[{extra}]'"
            ) from exc
        found: Callable[..., T] | None = getattr(loaded, attribute, None)
        if found is None:
            raise self._error(f"{self.kind} {name!r}: {module} defines no {attribute!r}")
        return found
