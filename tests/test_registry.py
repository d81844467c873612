"""The registry convention shared by engines and players."""

from __future__ import annotations

import re

import pytest

from minesolver.registry import Registry, install_command


class Oops(ValueError):
    pass


def test_lazy_entries_import_on_first_use_and_name_the_missing_extra() -> None:
    reg: Registry[object] = Registry("engine", Oops)
    reg.register_lazy("frac", "fractions:Fraction")
    reg.register_lazy("gone", "minesolver_no_such_module:Thing", extra="engines")
    reg.register_lazy("noattr", "fractions:NoSuchThing")
    assert reg.names() == ["frac", "gone", "noattr"] and "frac" in reg
    assert reg.create("frac", numerator=3, denominator=6) == 0.5
    with pytest.raises(Oops, match=re.escape(install_command("engines"))) as err:
        reg.factory("gone")
    assert "minesolver_no_such_module" in str(err.value)
    with pytest.raises(Oops, match="defines no 'NoSuchThing'"):
        reg.factory("noattr")
    with pytest.raises(Oops, match=r"unknown engine 'x' \(available: frac, gone, noattr\)"):
        reg.factory("x")
    with pytest.raises(ValueError, match="module:attribute"):
        reg.register_lazy("bad", "fractions")


def test_parameterised_names_resolve_once_and_registering_replaces() -> None:
    calls: list[str] = []

    def resolve(name: str) -> type[str] | None:
        calls.append(name)
        return str if name.startswith("s:") else None

    reg: Registry[str] = Registry("player", Oops, resolve)
    assert reg.create("s:a", object="hi") == "hi"
    assert reg.create("s:a", object="again") == "again"
    assert calls == ["s:a"]  # resolved once, then remembered
    with pytest.raises(Oops):
        reg.create("t:a")
    reg.register("s:a", lambda **kw: "replaced")
    assert reg.create("s:a") == "replaced"


def test_parameterised_names_are_not_listed_once_resolved() -> None:
    reg: Registry[str] = Registry("player", Oops, lambda n: str if n.startswith("s:") else None)
    reg.register("plain", str)
    reg.create("s:x")
    assert reg.names() == ["plain"]


def test_extra_names_the_extra_without_importing() -> None:
    reg: Registry[object] = Registry("engine", Oops)
    reg.register_lazy("gone", "minesolver_no_such_module:Thing", extra="engines")
    reg.register("unit", lambda: 1)
    assert reg.extra("gone") == "engines" and reg.extra("unit") is None
    with pytest.raises(Oops, match=r"unknown engine 'x' \(available: gone, unit\)"):
        reg.extra("x")


def test_only_the_engines_of_an_extra_name_one_and_the_others_load() -> None:
    """The default path needs no extra: every engine naming none imports on any install
    (a plain one included), and only ``ilp`` needs the ``engines`` extra (scipy)."""
    from minesolver.engines import ENGINES

    extras = {name: ENGINES.extra(name) for name in ENGINES.names()}
    assert {name: extra for name, extra in extras.items() if extra} == {"ilp": "engines"}
    for name, extra in extras.items():
        if extra is None:
            assert callable(ENGINES.factory(name))
