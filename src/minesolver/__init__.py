"""minesolver: exact Minesweeper probabilities, strong players, honest measurements.

>>> from minesolver import Position, analyze
>>> pos = Position.from_text("3x3x1\\n1HH\\nHHH\\nHHH")
>>> analyze(pos).layouts  # the mine is one of the three cells next to the 1
3
"""

from minesolver.analysis import Analysis, MineCountUnknown, analyze
from minesolver.position import (
    FLAG,
    HIDDEN,
    Cell,
    InconsistentPosition,
    Position,
    PositionFormatError,
)

__all__ = [
    "FLAG",
    "HIDDEN",
    "Analysis",
    "Cell",
    "InconsistentPosition",
    "MineCountUnknown",
    "Position",
    "PositionFormatError",
    "analyze",
]

__version__ = "0.1.0"
