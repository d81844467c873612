"""Which optional extras are installed, so that a test needing one skips and says why.

An extra counts as installed when every distribution it requires is installed, read from
the installed package's metadata (so it follows ``pyproject.toml``). On a plain
``pip install .`` the tests of a missing extra are skipped with the extra to install;
with every extra installed (the development install, CI) nothing is skipped, and an
engine module that fails to import for any other reason still fails its tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from importlib import metadata

import pytest

from minesolver.engines import ENGINES

_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_NAME = re.compile(r"[A-Za-z0-9_.\-]+")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@cache
def requirements() -> dict[str, tuple[str, ...]]:
    """The distributions each extra of minesolver requires, by extra."""
    out: dict[str, list[str]] = {}
    for req in metadata.requires("minesolver") or []:
        extra = _EXTRA.search(req)
        name = _NAME.match(req)
        if extra and name:
            out.setdefault(extra.group(1), []).append(name.group(0))
    return {extra: tuple(names) for extra, names in out.items()}


@cache
def missing(extra: str) -> tuple[str, ...]:
    """The distributions of ``extra`` that are not installed (empty: it is installed)."""
    out = []
    for name in requirements().get(extra, ()):
        try:
            metadata.distribution(name)
        except metadata.PackageNotFoundError:
            out.append(name)
    return tuple(out)


def reason(extra: str) -> str:
    """Why a test of ``extra`` is skipped."""
    return (
        f"needs the {extra!r} extra ({', '.join(missing(extra))} missing): "
        f"pip install 'minesolver[{extra}]'"
    )


def needs(extra: str) -> pytest.MarkDecorator:
    """A mark skipping a test when ``extra`` is not installed."""
    return pytest.mark.skipif(bool(missing(extra)), reason=reason(extra))


def engine_available(name: str) -> bool:
    """Whether engine ``name`` can run here (the extra it needs, if any, is installed)."""
    extra = ENGINES.extra(name)
    return extra is None or not missing(extra)


def engine_params(names: Iterable[str]) -> list[object]:
    """``names`` as pytest parameters, each skipped when its engine's extra is missing."""
    out: list[object] = []
    for name in names:
        extra = ENGINES.extra(name)
        out.append(pytest.param(name, marks=needs(extra)) if extra else name)
    return out


def extra_of(exc: ImportError) -> str | None:
    """The missing extra that explains ``exc`` (a module of one of its distributions could
    not be imported), or ``None``: then the import error is a bug."""
    top = _normal((exc.name or "").partition(".")[0])
    for extra in requirements():
        if top and any(_normal(name) == top for name in missing(extra)):
            return extra
    return None
