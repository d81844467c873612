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

Lookups cost one dict access once a name has been resolved. :func:`install_command` is the
one wording of the command that installs an extra, right from a package index and from a
checkout alike.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterator
from importlib import import_module, metadata
from pathlib import Path
from typing import Any, Generic, TypeVar
from urllib.parse import unquote, urlparse

__all__ = ["Registry", "install_command"]

T = TypeVar("T")


def install_command(extra: str) -> str:
    """The pip command that installs the optional ``extra`` where this copy of minesolver
    came from: ``pip install 'minesolver[extra]'`` from a package index, or, for a copy
    installed from a checkout (``pip install -e .``) or run from one, the checkout itself
    (``pip install -e '.[extra]'`` in it, its path from anywhere else), which a package
    index may not have. O(1): reads the install record only.

    >>> command = install_command("web")
    >>> command.startswith("pip install ") and command.endswith("[web]'")
    True
    """
    found = _checkout()
    if found is None:
        return f"pip install 'minesolver[{extra}]'"
    root, editable = found
    try:
        here = Path.cwd().resolve()
    except OSError:  # the working directory was removed
        here = None
    where = "." if root == here else str(root)
    return f"pip install {'-e ' * editable}{shlex.quote(f'{where}[{extra}]')}"


def _checkout() -> tuple[Path, bool] | None:
    """The source directory this copy was installed from and whether the install is
    editable (PEP 610's ``direct_url.json``), or the checkout the package runs from when
    it is not installed; ``None`` for a copy from a package index."""
    try:
        record = metadata.distribution("minesolver").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        root = Path(__file__).resolve().parents[2]  # src/minesolver/registry.py
        return (root, True) if (root / "pyproject.toml").is_file() else None
    if not record:
        return None
    try:
        info = json.loads(record)
    except ValueError:
        return None
    url = urlparse(str(info.get("url", "")))
    if url.scheme != "file" or "dir_info" not in info:
        return None
    return Path(unquote(url.path)).resolve(), bool(info["dir_info"].get("editable"))


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
        """The optional extra that provides ``name``'s dependencies
        (:func:`install_command` installs it), or ``None`` when it needs none. Imports
        nothing; raises ``error`` for an unknown name."""
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
                f"extra ({exc.name or exc} is missing): {install_command(extra)}"
            ) from exc
        found: Callable[..., T] | None = getattr(loaded, attribute, None)
        if found is None:
            raise self._error(f"{self.kind} {name!r}: {module} defines no {attribute!r}")
        return found
