"""The public top level: what users reach for, with python-chess manners."""

from __future__ import annotations

import subprocess
import sys
import warnings
from fractions import Fraction
from importlib.metadata import version
from pathlib import Path

import pytest

import minesolver
from minesolver import Limit, Position, analyze, get_engine
from minesolver.registry import install_command

DESIGN = "5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH"


def test_the_top_level_holds_what_users_reach_for() -> None:
    for name in (
        "Position", "analyze", "analyze_after", "Analysis", "Limit", "Game", "Move", "Outcome",
        "get_engine", "get_player", "PositionFormatError", "InconsistentPosition",
        "MineCountUnknown", "EngineError", "EngineLimitExceeded", "GameError",
        "PlayerError",
    ):  # fmt: skip
        assert hasattr(minesolver, name), name
        assert name in minesolver.__all__
    assert minesolver.__version__ == version("minesolver")
    for error in ("PositionFormatError", "InconsistentPosition", "MineCountUnknown",
                  "EngineError", "GameError", "PlayerError"):  # fmt: skip
        assert issubclass(getattr(minesolver, error), ValueError)
    player = minesolver.get_player("greedy")
    assert player.name == "greedy"


def test_reprs_go_through_the_text_format_and_stay_short() -> None:
    pos = Position.from_text(DESIGN)
    assert eval(repr(pos), {"Position": Position}) == pos
    big = Position.empty(200, 200, 8000)
    assert len(repr(big)) < 80 and "200x200x8000" in repr(big)
    a = analyze(pos)
    assert repr(a) == "<Analysis 5x5x5 exact: 72 layouts, 4 safe, 0 mines, 12 uncertain>"
    huge = analyze(Position.empty(200, 200, 8000))
    assert "~10^" in repr(huge) and len(repr(huge)) < 100


def test_safest_is_the_lowest_probability_cell_and_best_is_deprecated() -> None:
    a = analyze(Position.from_text(DESIGN))
    assert a.safest() == (2, 1)
    with pytest.warns(DeprecationWarning, match=r"best\(\) is deprecated"):
        assert a.best() == a.safest()


def test_certain_mines_has_its_own_name_and_mines_is_a_deprecated_alias() -> None:
    a = analyze(Position.from_text("3x1x1\n1HH"))
    assert a.certain_mines == frozenset({(1, 0)}) and a.position.mines == 1
    with pytest.warns(DeprecationWarning, match="use Analysis.certain_mines"):
        assert a.mines == a.certain_mines


def test_a_lookup_of_a_cell_that_has_no_probability_says_why() -> None:
    a = analyze(Position.from_text(DESIGN))
    with pytest.raises(KeyError, match="not an unknown cell"):
        a.probabilities[(1, 0)]  # the revealed 2
    with pytest.raises(KeyError, match="off the 5x5 board"):
        a.probabilities[(7, 0)]
    assert (1, 0) not in a.probabilities and a.probabilities.get((1, 0)) is None


def test_api_misuse_gets_type_errors_with_a_message() -> None:
    with pytest.raises(TypeError, match="takes a str"):
        Position.from_text(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mines must be an int"):
        Position.empty(3, 3).with_mines(2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Position"):
        analyze(DESIGN)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seconds"):
        analyze(Position.from_text(DESIGN), limit=Limit(seconds="5"))  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(TypeError, match="seconds"):
            analyze(Position.from_text(DESIGN), budget="5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="density must be a number"):
        analyze(Position.from_text(DESIGN), density=[0.2])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="engine name"):
        get_engine(3)  # type: ignore[arg-type]


def test_engines_are_configurable_instances() -> None:
    pos = Position.from_text(DESIGN)
    shared = get_engine("sampling")
    assert get_engine("sampling") is shared
    mine = get_engine("sampling", samples=200, seed=4)
    assert mine is not shared and mine.samples == 200  # type: ignore[union-attr]
    a = analyze(pos, engine=mine)
    b = analyze(pos, engine="sampling", limit=Limit(samples=200, seed=4))
    assert a.probabilities == b.probabilities and not a.exact and a.layouts is None
    c = analyze(pos, engine="sampling", limit=Limit(samples=200, seed=5))
    assert c.probabilities != a.probabilities
    exact = analyze(pos)
    assert exact.layouts == 72 and isinstance(exact.probabilities[(0, 0)], Fraction)
    with pytest.raises(TypeError):
        get_engine("exact", frobnicate=1)


BLOCKER = """
import sys
for name in ("scipy", "numpy"):
    sys.modules[name] = None  # an import of it fails as on a plain install
from minesolver.ui.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _solve_without_extras(
    tmp_path: Path, args: list[str], side: int = 13
) -> subprocess.CompletedProcess[str]:
    """``minesolver solve`` on a hard lattice, numpy and scipy unimportable."""
    sys.path.insert(0, str(Path(__file__).parent / "engines"))
    from test_auto import lattice

    path = tmp_path / "hard.txt"
    path.write_text((lattice(13, 3) if side == 13 else lattice(side, 1, 0.3)).to_text())
    return subprocess.run(
        [sys.executable, "-c", BLOCKER, "solve", str(path), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_an_engine_of_an_extra_names_it_on_a_plain_install(tmp_path: Path) -> None:
    proc = _solve_without_extras(tmp_path, ["--engine", "ilp"])
    assert proc.returncode == 2, proc.stderr
    (line,) = proc.stderr.splitlines()
    assert line.startswith("error: ") and install_command("engines") in line
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--engine", "mcmc"],
        ["--engine", "sat"],
        ["--engine", "bp"],
        # auto falls back to mcmc (the exact count of a dense 30x30 lattice does not
        # finish in half of 3 s): no extra on the default path
        ["--budget", "3"],
    ],
)
def test_the_other_engines_need_no_extra(tmp_path: Path, args: list[str]) -> None:
    proc = _solve_without_extras(tmp_path, args, 30 if "--budget" in args else 13)
    assert proc.returncode == 0, proc.stderr
    assert "safest:" in proc.stdout
