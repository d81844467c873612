"""What the reader reports: each cell's reading (:class:`CellReading`) and the board's
(:class:`BoardReading`), and when a cell's reading is sure (:func:`_sure`): near its
label's templates, and far enough from every other label's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from minesolver.position import FLAG, HIDDEN, Cell, Position
from minesolver.vision._load import VisionError, numpy
from minesolver.vision.counter import CounterReading

__all__ = ["BoardReading", "CellReading"]


MAX_DISTANCE = 0.16
"""A cell farther than this from every template (root-mean-square, colours in 0..1) is
unsure: nothing the skin draws looks like it."""
MIN_MARGIN = 0.035
"""A cell whose nearest template of another label is closer than this beyond its own is
unsure: two readings are almost as good."""
CLEAR_DISTANCE = 0.06
"""A reading farther than its label's limit is still sure within this distance..."""
CLEAR_RATIO = 1.8
"""... when the next label is this many times as far again (see :func:`_clear`)."""
_VALUES = {"H": HIDDEN, "?": HIDDEN, "F": FLAG} | {str(d): d for d in range(9)}
_OPEN = frozenset(str(d) for d in range(9))
"""The labels of revealed cells."""
_LOST = {"*": "a mine", "!": "the mine that exploded", "x": "a crossed-out flag"}


@dataclass(frozen=True, slots=True)
class CellReading:
    """One cell's reading: its label (``H``, ``F``, ``0``-``8``, ``?``, ``*``, ``!``, ``x``;
    see :mod:`minesolver.vision.templates`), the distance to its nearest template, the
    margin to the next label and the candidates, nearest first, with their distances."""

    label: str
    distance: float
    margin: float
    candidates: tuple[tuple[str, float], ...]
    limit: float = MAX_DISTANCE
    """The largest distance trusted for this label in this image (see
    :func:`~minesolver.vision.cells._limits`)."""

    @property
    def sure(self) -> bool:
        """Whether the reading is close to its template, as close as the other cells of
        its label in the image (or, a little farther, still much closer to it than to any
        other label: :func:`_clear`), and far enough from every other label to be
        trusted."""
        return bool(_sure(self.distance, self.margin, self.limit))


@dataclass(frozen=True, slots=True)
class BoardReading:
    """What :func:`read_screenshot` read: the skin, the board's box in the image (left,
    top, right, bottom, in pixels), its cell size, every cell (row-major), the total of
    mines and where it came from (``"given"``; ``"counter"``: the mine counter read plus
    the flags on the board, on a board of no standard size or one whose counter says
    another total than its level's; ``"level"``: a standard level's size, the counter
    agreeing or not read; ``None`` when unknown), and the mine counter read."""

    skin: str
    width: int
    height: int
    box: tuple[float, float, float, float]
    cell_size: tuple[float, float]
    cells: tuple[CellReading, ...]
    mines: int | None
    mines_from: str | None
    _problem: str | None = field(default=None, repr=False)
    counter: CounterReading | None = None
    """The mine counter read beside the board (the mines less the flags), or ``None``
    when the skin shows none the reader knows or it could not be read surely."""

    def cell(self, x: int, y: int) -> CellReading:
        """The reading of cell ``(x, y)``."""
        return self.cells[y * self.width + x]

    @property
    def unsure(self) -> tuple[Cell, ...]:
        """The cells whose reading is not sure, as ``(x, y)``: :func:`_sure` over arrays of
        every cell's figures at once (the checks ask for them many times a read)."""
        np = numpy()
        n = len(self.cells)
        distance = np.fromiter((c.distance for c in self.cells), np.float64, n)
        margin = np.fromiter((c.margin for c in self.cells), np.float64, n)
        limit = np.fromiter((c.limit for c in self.cells), np.float64, n)
        return tuple(
            (int(i) % self.width, int(i) // self.width)
            for i in np.flatnonzero(~_sure(distance, margin, limit))
        )

    @property
    def lost(self) -> bool:
        """Whether the board shows mines: the game was lost."""
        return any(c.label in _LOST for c in self.cells)

    def text(self) -> str:
        """The cells as rows of labels (``?`` for an unsure cell), for people."""
        rows = []
        for y in range(self.height):
            rows.append(
                "".join(
                    c.label if c.sure else "?"
                    for c in self.cells[y * self.width : (y + 1) * self.width]
                )
            )
        return "\n".join(rows) + "\n"

    @property
    def problem(self) -> str | None:
        """Why :meth:`position` refuses this reading, or ``None`` when it does not."""
        if self._problem is not None:
            return self._problem
        unsure = self.unsure
        if unsure:
            shown = ", ".join(
                f"({x}, {y}): {' or '.join(lab for lab, _ in self.cell(x, y).candidates[:2])}"
                for x, y in unsure[:6]
            )
            more = f" and {len(unsure) - 6} more" if len(unsure) > 6 else ""
            return f"{len(unsure)} cell(s) could not be read surely: {shown}{more}"
        lost = [(i, c.label) for i, c in enumerate(self.cells) if c.label in _LOST]
        if lost:
            i, label = next(((i, lab) for i, lab in lost if lab == "!"), lost[0])
            return (
                f"the game is lost: the board shows {len(lost)} mine(s), "
                f"{_LOST[label]} at ({i % self.width}, {i // self.width}); "
                "only a position still in play can be analysed"
            )
        return None

    def position(self) -> Position:
        """The position read, or :class:`VisionError` saying why it cannot be trusted."""
        problem = self.problem
        if problem is not None:
            raise VisionError(problem)
        return Position(
            self.width, self.height, tuple(_VALUES[c.label] for c in self.cells), self.mines
        )


def _sure(distance: Any, margin: Any, limit: Any) -> Any:
    """Whether readings are sure (scalars or arrays alike): within the label's limit in
    this image with a margin of :data:`MIN_MARGIN`, or :func:`_clear`."""
    return ((distance <= limit) & (margin >= MIN_MARGIN)) | _clear(distance, margin)


def _clear(distance: Any, margin: Any) -> Any:
    """Readings beyond their label's limit that are still clear: within
    :data:`CLEAR_DISTANCE` of the template, and the next label at least
    :data:`CLEAR_RATIO` times as far again and 1.5 times :data:`MIN_MARGIN` (a real
    screenshot's cell a pixel off where its fellows fit exactly: GNOME Mines' digits)."""
    return (
        (distance <= CLEAR_DISTANCE)
        & (margin >= CLEAR_RATIO * distance)
        & (margin >= 1.5 * MIN_MARGIN)
    )
