"""The players' registry: names, settings, errors, and the imports of the package."""

from __future__ import annotations

import ast
import doctest
import importlib
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import minesolver.strategy as strategy
from minesolver.position import Position
from minesolver.strategy import (
    Move,
    PlayerError,
    get_player,
    player_names,
    register_player,
)
from minesolver.strategy.best import BestPlayer, Options
from minesolver.strategy.greedy import GreedyPlayer
from minesolver.strategy.native import NativeBest

PACKAGE = Path(strategy.__file__).parent


def test_old_names_are_the_new_functions_and_warn() -> None:
    for old, new in [
        ("get_strategy", get_player),
        ("strategy_names", player_names),
        ("register", register_player),
    ]:
        with pytest.warns(DeprecationWarning, match=f"{old} is deprecated: use {new.__name__}"):
            assert getattr(strategy, old) is new
    with pytest.warns(DeprecationWarning):
        from minesolver.strategy import get_strategy
    assert get_strategy("greedy").name == "greedy"  # still works for users
    assert set(strategy.PLAYERS) <= set(player_names())
    with pytest.raises(AttributeError, match="no attribute 'get_stratgy'"):
        strategy.get_stratgy  # noqa: B018


def test_unknown_name_lists_the_known_players() -> None:
    with pytest.raises(PlayerError, match=r"unknown player 'nope' \(available: best, ") as e:
        get_player("nope")
    assert all(name in str(e.value) for name in ("best", "greedy", "pseq"))


@pytest.mark.parametrize(("family", "kind"), [("best", NativeBest), ("best-py", BestPlayer)])
def test_settings_of_best_are_options_fields(family: str, kind: type) -> None:
    player = get_player(family, margin=0, max_candidates=3, latent=False)
    assert isinstance(player, kind) and player.name == family
    assert player.options == Options(margin=Fraction(0), max_candidates=3, latent=False)
    assert isinstance(player.options.margin, Fraction)
    assert get_player(family).options == Options()  # the settings do not stick
    variant = get_player(f"{family}-no-endgame", margin=Fraction(1, 7))
    assert isinstance(variant, kind) and variant.name == f"{family}-no-endgame"
    assert variant.options == Options(endgame=False, margin=Fraction(1, 7))
    assert get_player(f"{family}-no-endgame").options == Options(endgame=False)


@pytest.mark.parametrize(
    ("name", "settings", "reason"),
    [
        ("best", {"speed": 3}, r"player 'best': no setting 'speed' \(settings: endgame, "),
        ("best", {"margin": 0.1}, "margin must be an int or a Fraction, not 0.1"),
        ("best", {"max_candidates": True}, "max_candidates must be an int, not True"),
        ("best", {"max_candidates": 2.0}, "max_candidates must be an int, not 2.0"),
        ("best", {"dead": 0}, "dead must be True or False, not 0"),
        ("best", {"max_candidates": 0}, "max_candidates 0 must be at least 1"),
        (
            "best-no-fifty",
            {"margin": "1/10"},
            "'best-no-fifty': margin must be an int or a Fraction, not '1/10'",
        ),
        ("greedy", {"margin": 0}, "player 'greedy': got an unexpected keyword argument"),
        ("pseq", {"seed": 1}, "player 'pseq': got an unexpected keyword argument"),
    ],
)
def test_bad_settings_say_which_and_why(
    name: str, settings: dict[str, object], reason: str
) -> None:
    with pytest.raises(PlayerError, match=reason):
        get_player(name, **settings)


def test_registered_players_take_their_settings() -> None:
    class Stubborn(GreedyPlayer):
        name = "stubborn-test"

        def __init__(self, cell: tuple[int, int] = (0, 0)) -> None:
            super().__init__()
            self.cell = cell

        def next_moves(self, view: Position) -> list[Move]:
            return [Move("open", self.cell, guess=True)]

    register_player("stubborn-test", Stubborn)
    assert "stubborn-test" in player_names()
    player = get_player(" Stubborn-Test ", cell=(2, 1))
    player.reset(random.Random(0))
    assert player.next_moves(Position.from_text("3x2x1\nHHH\nHHH\n")) == [
        Move("open", (2, 1), guess=True)
    ]
    with pytest.raises(PlayerError, match="unexpected keyword argument 'row'"):
        get_player("stubborn-test", row=1)


def test_importing_the_package_loads_no_player() -> None:
    """Players are imported when first asked for, so a broken one cannot stop the rest."""
    code = "import sys, minesolver.strategy; print(sorted(m for m in sys.modules if "
    code += "m.startswith('minesolver.strategy.')))"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = ast.literal_eval(shown.stdout.strip())
    assert not {f"minesolver.strategy.{m}" for m in ("greedy", "pseq", "best")} & set(loaded)


def _imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """Every module an ``import`` of ``tree`` names, and whether it is inside a function."""
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module:
                found.append((child.module, inner))
            elif isinstance(child, ast.Import):
                found.extend((alias.name, inner) for alias in child.names)
            visit(child, inner)

    visit(tree, False)
    return found


def test_no_module_of_the_package_imports_it_back() -> None:
    """The package's ``__init__`` reaches the players through the registry only; no player
    imports the package itself (nor anything else) from inside a function."""
    for path in sorted(PACKAGE.glob("*.py")):
        imports = _imports(ast.parse(path.read_text(encoding="utf-8")))
        assert not [m for m, local in imports if local], path.name
        if path.name != "__init__.py":
            assert "minesolver.strategy" not in [m for m, _ in imports], path.name
    init = _imports(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8")))
    players = {"minesolver.strategy.greedy", "minesolver.strategy.pseq", "minesolver.strategy.best"}
    assert not players & {m for m, _ in init}


def test_module_examples() -> None:
    attempted = 0
    for path in sorted(PACKAGE.glob("*.py")):
        module = importlib.import_module(
            f"minesolver.strategy.{path.stem}".removesuffix(".__init__")
        )
        result = doctest.testmod(module)
        assert result.failed == 0, path.name
        attempted += result.attempted
    assert attempted >= 4
