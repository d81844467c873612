"""One family of errors: every error class of the library derives from
:class:`minesolver.MinesolverError` and from the built-in class callers catch (``ValueError``;
``RuntimeError`` for a search past its budget), survives a trip through pickle (a worker
process or a Dask cluster sends it back), and the command line answers it by its type.

The faces' own signals (``minesolver.ui``, ``minesolver.web``: an HTTP answer, a busy
worker pool) never reach a library user and are not in the family.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
import sys
from pathlib import Path

import pytest

import minesolver
from minesolver import MinesolverError, PositionFormatError
from minesolver.game._click_work import OutOfWork
from minesolver.replay import ReplayFormatError
from minesolver.strategy.endgame import SearchBudgetExceeded, TooManyLayouts
from minesolver.ui.cli import main

FACES = ("minesolver.ui", "minesolver.web")
RUNTIME_ERRORS = {SearchBudgetExceeded, TooManyLayouts, OutOfWork}
"""Out of a search's budget: a ``RuntimeError``, not bad input."""


def library_errors() -> list[type[BaseException]]:
    """Every exception class defined in a module of the library (the faces left out)."""
    found: dict[str, type[BaseException]] = {}
    names = [minesolver.__name__] + [
        m.name for m in pkgutil.walk_packages(minesolver.__path__, "minesolver.")
    ]
    for name in names:
        if name.startswith(FACES) or name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra's module
            continue
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == name:
                found[f"{name}.{cls.__qualname__}"] = cls
    return [found[k] for k in sorted(found)]


ERRORS = library_errors()


def test_the_family_is_found() -> None:
    names = {cls.__name__ for cls in ERRORS}
    assert {
        "PositionFormatError", "InconsistentPosition", "MineCountUnknown", "EngineError",
        "EngineLimitExceeded", "GameError", "LevelError", "PlayerError", "TileError",
        "ReplayFormatError", "SimulationError", "MinesolverError",
    } <= names  # fmt: skip


@pytest.mark.parametrize("cls", ERRORS, ids=lambda c: c.__name__)
def test_every_library_error_is_a_minesolver_error_and_a_value_error(
    cls: type[BaseException],
) -> None:
    assert issubclass(cls, MinesolverError)
    if cls is not MinesolverError:
        assert issubclass(cls, RuntimeError if cls in RUNTIME_ERRORS else ValueError)


def test_the_base_is_public_and_the_replay_error_has_a_public_home() -> None:
    assert "MinesolverError" in minesolver.__all__
    assert ReplayFormatError.__module__ == "minesolver.replay.errors"
    from minesolver.replay._bytes import ReplayFormatError as old_path

    assert old_path is ReplayFormatError


def test_errors_with_their_own_fields_survive_pickle() -> None:
    error = PositionFormatError("line 3, column 2: bad", line=3, column=2)
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), str(back), back.line, back.column) == (
        PositionFormatError, "line 3, column 2: bad", 3, 2,
    )  # fmt: skip
    replay = ReplayFormatError("evf", 12, "a byte", "the file ends")
    back = pickle.loads(pickle.dumps(replay))
    assert (str(back), back.format, back.offset) == (str(replay), "evf", 12)


@pytest.mark.parametrize(
    "error",
    [TooManyLayouts("more than 10 layouts"), PositionFormatError("line 1: not a position")],
    ids=lambda e: type(e).__name__,
)
def test_the_command_line_answers_a_library_error_by_its_type(
    error: MinesolverError,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    def fails(*args: object, **kwargs: object) -> None:
        raise error

    position = tmp_path / "p.txt"
    position.write_text("3x3x1\n1HH\nHHH\nHHH\n")
    monkeypatch.setattr(sys.modules["minesolver.ui.cli"], "analyze", fails)
    assert main(["solve", str(position)]) == 2
    assert capsys.readouterr().err == f"error: {error}\n"
