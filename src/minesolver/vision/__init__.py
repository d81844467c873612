"""Read a Minesweeper board from a screenshot.

>>> from minesolver.vision import read_board  # doctest: +SKIP
>>> print(read_board("expert.png"))  # doctest: +SKIP

:func:`read_board` returns the :class:`~minesolver.position.Position` a screenshot shows;
:func:`read_screenshot` returns everything the reader saw (each cell's label, margin and
candidates, the board's place in the image, the skin). The reader finds the board anywhere
in a whole screenshot, at cell sizes from about 12 to 64 pixels and at integer or
fractional display scaling, and never returns a board it is not sure of: an unsure cell,
a lost game or an inconsistent board is a :class:`VisionError` naming the cells.

Needs the ``image`` extra (Pillow and numpy): ``pip install 'minesolver[image]'``.
"""

from __future__ import annotations

from minesolver.vision._load import VisionError
from minesolver.vision.reader import read_board, read_screenshot
from minesolver.vision.reading import BoardReading, CellReading
from minesolver.vision.templates import skin_names

__all__ = [
    "BoardReading",
    "CellReading",
    "VisionError",
    "read_board",
    "read_screenshot",
    "skin_names",
]
