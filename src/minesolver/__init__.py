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

from minesolver.analysis import analyze, analyze_after
from minesolver.engines import EngineError, EngineLimitExceeded, get_engine
from minesolver.errors import MinesolverError
from minesolver.game import Game, GameError, Outcome, Status, Step
from minesolver.position import (
    FLAG,
    HIDDEN,
    Cell,
    InconsistentPosition,
    Position,
    PositionFormatError,
)
from minesolver.result import Analysis, Limit, MineCountUnknown
from minesolver.strategy import Move, StrategyError, get_player


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed package's metadata (one source: the
    project file), on first use: importing the metadata machinery costs more than the
    rest of the package's imports."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("minesolver")
        except PackageNotFoundError:  # pragma: no cover - running from a source tree
            return "0+unknown"
    raise AttributeError(f"module 'minesolver' has no attribute {name!r}")


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
    "Position",
    "PositionFormatError",
    "Status",
    "Step",
    "StrategyError",
    "__version__",
    "analyze",
    "analyze_after",
    "get_engine",
    "get_player",
]
