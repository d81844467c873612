"""minesolver: exact Minesweeper probabilities, strong players, honest measurements.

The names users reach for live here; everything else is in the modules
(:mod:`minesolver.engines`, :mod:`minesolver.game`, :mod:`minesolver.strategy`, ...).

>>> from minesolver import Position, analyze
>>> pos = Position.from_text("3x3x1\\n1HH\\nHHH\\nHHH")
>>> analyze(pos).layouts  # the mine is one of the three cells next to the 1
3
>>> analyze(pos).probabilities[(1, 1)]
Fraction(1, 3)
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from minesolver.analysis import analyze, analyze_after
from minesolver.engines import EngineError, EngineLimitExceeded, get_engine
from minesolver.errors import MinesolverError
from minesolver.position import (
    FLAG,
    HIDDEN,
    Cell,
    InconsistentPosition,
    Position,
    PositionFormatError,
)
from minesolver.result import Analysis, Limit, MineCountUnknown

if TYPE_CHECKING:
    from minesolver.game import Game, GameError, Outcome, Status, Step
    from minesolver.strategy import Move, PlayerError, get_player

_LAZY = {
    **dict.fromkeys(("Game", "GameError", "Outcome", "Status", "Step"), "minesolver.game"),
    **dict.fromkeys(("Move", "PlayerError", "get_player"), "minesolver.strategy"),
}
"""Names whose module is imported on first use (PEP 562): an analysis, the command
line's ``solve`` among them, never loads the game rules and the players."""


def __getattr__(name: str) -> Any:
    """The game's and the players' names, imported on first use (:data:`_LAZY`), and
    ``__version__``, read from the installed package's metadata (one source: the
    project file), on first use: importing the metadata machinery costs more than the
    rest of the package's imports."""
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(import_module(module), name)
        globals()[name] = value
        return value
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("minesolver")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            return "0+unknown"
    raise AttributeError(f"module 'minesolver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "FLAG",
    "HIDDEN",
    "Analysis",
    "Cell",
    "EngineError",
    "EngineLimitExceeded",
    "Game",
    "GameError",
    "InconsistentPosition",
    "Limit",
    "MineCountUnknown",
    "MinesolverError",
    "Move",
    "Outcome",
    "PlayerError",
    "Position",
    "PositionFormatError",
    "Status",
    "Step",
    "__version__",
    "analyze",
    "analyze_after",
    "get_engine",
    "get_player",
]
