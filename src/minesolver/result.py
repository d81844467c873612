"""What every engine returns or takes: :class:`Analysis`, its cell mapping, :class:`Limit`.

A leaf of the package (it imports only the position and the reduced problem's type), so
that the engines, the front door :mod:`minesolver.analysis` and everything above share
one result type without importing each other.
"""

from __future__ import annotations

import decimal
import math
import warnings
from collections.abc import (
    ItemsView,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
    ValuesView,
)
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from minesolver.errors import MinesolverError
from minesolver.position import Cell, Position, coordinate_table

if TYPE_CHECKING:
    from minesolver.constraints import Problem

__all__ = [
    "Analysis",
    "CellProbabilities",
    "Limit",
    "MineCountUnknown",
    "fraction_text",
    "int_to_decimal",
]

_STR_LIMIT = 10**4000  # below Python's 4,300-digit limit on int -> str


class MineCountUnknown(MinesolverError, ValueError):
    """Neither the total number of mines nor a density was given."""


def int_to_decimal(n: int) -> str:
    """``n`` in decimal, however long (``str`` refuses ints over 4,300 digits).

    >>> len(int_to_decimal(10**5000))
    5001
    """
    if -_STR_LIMIT < n < _STR_LIMIT:
        return str(n)
    return str(decimal.Decimal(n))


def fraction_text(p: Fraction) -> str:
    """``"0"``, ``"1"`` or ``"num/den"``, however long the integers.

    >>> fraction_text(Fraction(5, 6)), fraction_text(Fraction(1))
    ('5/6', '1')
    """
    if p.denominator == 1:
        return int_to_decimal(p.numerator)
    return f"{int_to_decimal(p.numerator)}/{int_to_decimal(p.denominator)}"


@dataclass(frozen=True, slots=True)
class Limit:
    """How far an engine may go, in the manner of python-chess's ``engine.Limit``.

    ``seconds``: wall time for the analysis, a deadline every engine checks inside its
    loops from the start of the call (the ``auto`` engine answers exactly if its count
    finished, else approximately with each cell's error; ``exact`` and the other exact
    engines raise ``EngineLimitExceeded``; ``sampling`` and ``mcmc`` stop with the draws
    they made, their errors saying so). ``samples``: draws of the ``sampling`` engine,
    sweeps of ``mcmc``.
    ``seed``: the seed of an engine's random choices. ``None`` leaves the engine's default.

    >>> Limit(seconds=2.5)
    Limit(seconds=2.5, samples=None, seed=None)
    >>> Limit(seconds="5")
    Traceback (most recent call last):
    ...
    TypeError: Limit.seconds must be a number of seconds, got '5'
    """

    seconds: float | None = None
    samples: int | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        seconds = self.seconds
        if seconds is not None:
            if isinstance(seconds, bool) or not isinstance(seconds, int | float | Fraction):
                raise TypeError(f"Limit.seconds must be a number of seconds, got {seconds!r}")
            if not (seconds > 0 and math.isfinite(seconds)):
                raise ValueError(f"Limit.seconds must be positive and finite, got {seconds}")
        for name in ("samples", "seed"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"Limit.{name} must be an int, got {value!r}")
        if self.samples is not None and self.samples < 2:
            raise ValueError(f"Limit.samples must be at least 2, got {self.samples}")


class CellProbabilities(Mapping[Cell, Fraction]):
    """Read-only mapping ``(x, y) -> probability`` over the unknown cells, in reading
    order, viewing the index-keyed values the engines produce.

    Building a coordinate-keyed dict costs more than an exact count on a mid-game
    position, and what-if analyses read only a few cells: lookups go through the cell
    index instead. Equal to any mapping with the same items.
    """

    __slots__ = ("_by_index", "_coords", "_height", "_levels", "_unknown", "_width")

    def __init__(
        self,
        width: int,
        height: int,
        unknown: tuple[int, ...],
        by_index: Mapping[int, Fraction],
        levels: Sequence[Fraction] | None = None,
    ) -> None:
        """``levels``, when the producer knows them, are the distinct probability
        objects among the values (see :meth:`distinct`)."""
        self._levels = levels
        self._width = width
        self._height = height
        self._unknown = unknown
        self._by_index = by_index
        self._coords = coordinate_table(width, height)

    def __getitem__(self, cell: Cell) -> Fraction:
        try:
            x, y = cell
        except (TypeError, ValueError):
            raise KeyError(cell) from None
        if not (0 <= x < self._width and 0 <= y < self._height):
            raise KeyError(f"cell {cell!r} is off the {self._width}x{self._height} board")
        try:
            return self._by_index[y * self._width + x]
        except KeyError:
            raise KeyError(
                f"cell {cell!r} is not an unknown cell (it is revealed, or a trusted flag): "
                "only unknown cells have a probability"
            ) from None

    def __iter__(self) -> Iterator[Cell]:
        return map(self._coords.__getitem__, self._unknown)

    def __len__(self) -> int:
        return len(self._unknown)

    def items(self) -> ItemsView[Cell, Fraction]:
        return dict(zip(self, map(self._by_index.__getitem__, self._unknown), strict=True)).items()

    def values(self) -> ValuesView[Fraction]:
        return dict(
            zip(self._unknown, map(self._by_index.__getitem__, self._unknown), strict=True)
        ).values()

    def distinct(self) -> list[Fraction]:
        """The probabilities, each object once. The engines share one Fraction among the
        cells of a box, so this is about one value per box: cheap to scan for the lowest.
        Deduplicated by identity, not by value (hashing a Fraction costs a modular
        inverse), so equal values from different boxes may both appear."""
        if self._levels is not None:
            return list(self._levels)
        values = map(self._by_index.__getitem__, self._unknown)
        return list({id(p): p for p in values}.values())

    def __repr__(self) -> str:
        return f"CellProbabilities({dict(self.items())!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (dict, (list(self.items()),))


@dataclass(frozen=True, slots=True)
class Analysis:
    """The result of analysing a position.

    ``probabilities`` maps each unknown cell ``(x, y)`` to its mine probability;
    ``layouts`` counts the consistent mine layouts (with exactly the total, or of any size
    under a density); ``safe`` and ``certain_mines`` are the cells certainly safe and
    certainly mines (the position's total number of mines is ``position.mines``).
    Approximate engines set ``exact`` to False, give each cell's standard
    ``errors``, and leave ``layouts`` ``None`` (nothing was counted).

    >>> from minesolver import Position, analyze
    >>> analyze(Position.from_text("3x1x1\\n1HH"))
    <Analysis 3x1x1 exact: 1 layout, 1 safe, 1 mine, 0 uncertain>
    """

    position: Position
    probabilities: Mapping[Cell, Fraction]
    layouts: int | None
    safe: frozenset[Cell]
    certain_mines: frozenset[Cell]
    engine: str = "exact"
    exact: bool = True
    errors: Mapping[Cell, float] | None = field(default=None)
    problem: Problem | None = field(default=None, compare=False, repr=False)
    """The reduced position this analysis came from (lets :func:`analyze_after` reuse it)."""
    source: object = field(default=None, compare=False, repr=False)
    """The engine object that produced this analysis (what-ifs use it again)."""

    @classmethod
    def from_indices(
        cls,
        problem: Problem,
        layouts: int | None,
        probabilities: Mapping[int, Fraction],
        *,
        engine: str,
        exact: bool = True,
        errors: Mapping[Cell, float] | None = None,
        certain: tuple[Iterable[int], Iterable[int]] | None = None,
        levels: Sequence[Fraction] | None = None,
        source: object = None,
    ) -> Analysis:
        """Build from probabilities keyed by cell index (every unknown cell of
        ``problem``). The certain cells are those with probability 0 and 1, unless the
        caller, who may know them already, passes ``certain=(safe, mines)`` indices;
        ``levels``: see :class:`CellProbabilities`."""
        pos = problem.position
        coords = coordinate_table(pos.width, pos.height)
        probs = CellProbabilities(pos.width, pos.height, problem.unknown, probabilities, levels)
        if certain is None:
            safe_idx: Iterable[int] = [i for i, p in probabilities.items() if not p]
            mine_idx: Iterable[int] = [i for i, p in probabilities.items() if p == 1]
        else:
            safe_idx, mine_idx = certain
        return cls(
            position=pos,
            probabilities=probs,
            layouts=layouts,
            safe=frozenset(map(coords.__getitem__, safe_idx)),
            certain_mines=frozenset(map(coords.__getitem__, mine_idx)),
            engine=engine,
            exact=exact,
            errors=errors,
            problem=problem,
            source=source,
        )

    @property
    def mines(self) -> frozenset[Cell]:
        """Deprecated name of :attr:`certain_mines` (``mines`` is a position's total)."""
        warnings.warn(
            "Analysis.mines is deprecated: use Analysis.certain_mines (the cells certainly "
            "mines; a position's total number of mines is Position.mines)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.certain_mines

    def layout_count(self) -> int:
        """:attr:`layouts`, for code that needs an exact count (the players' what-ifs);
        ``ValueError`` when the engine did not count."""
        if self.layouts is None:
            raise ValueError(f"the {self.engine} engine did not count the layouts")
        return self.layouts

    def safest(self) -> Cell | None:
        """The unknown cell least likely to be a mine (ties to the first in reading
        order), or ``None`` when every unknown cell is a certain mine or none is left.

        This is not what a strong player opens: the ``best`` player also weighs what the
        click reveals (``minesolver.get_player("best").next_moves(position)``).
        """
        candidates = [(p, y, x) for (x, y), p in self.probabilities.items() if p < 1]
        if not candidates:
            return None
        _, y, x = min(candidates)
        return x, y

    def best(self) -> Cell | None:
        """Deprecated name of :meth:`safest` (it never was the ``best`` player's move)."""
        warnings.warn(
            "Analysis.best() is deprecated: use Analysis.safest() (the lowest-probability "
            "cell); the best player's move is get_player('best').next_moves(position)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.safest()

    def __repr__(self) -> str:
        pos = self.position
        size = f"{pos.width}x{pos.height}" + (f"x{pos.mines}" if pos.mines is not None else "")
        kind = "exact" if self.exact else f"approximate ({self.engine})"
        count = ""
        if self.layouts is not None:
            digits = len(int_to_decimal(self.layouts))
            shown = f"{self.layouts}" if digits <= 12 else f"~10^{digits - 1}"
            count = f"{shown} layout{'s' if self.layouts != 1 else ''}, "
        mines = len(self.certain_mines)
        uncertain = len(self.probabilities) - len(self.safe) - mines
        return (
            f"<Analysis {size} {kind}: {count}{len(self.safe)} safe, "
            f"{mines} mine{'s' if mines != 1 else ''}, {uncertain} uncertain>"
        )

    def floats(self) -> dict[Cell, float]:
        """Probabilities as floats, for display only."""
        return {c: float(p) for c, p in self.probabilities.items()}
