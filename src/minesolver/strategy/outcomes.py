"""What a click on a hidden cell can show, with which probability, and what follows.

For a hidden cell ``c`` of a position with ``L`` consistent layouts, setting ``c`` to
the digit ``d`` gives a position whose consistent layouts are exactly the layouts of the
original in which ``c`` is safe and has ``d`` mines around it (flags count as mines, as
they do in the original's count; the total is unchanged). So

    P(c is safe and shows d) = layouts(position with c = d) / L

exactly, as a :class:`~fractions.Fraction`, and the outcomes of ``c`` sum to
``P(c is safe)``. Each outcome keeps the analysis of its child position: the players
read from it the new certain cells and the next click's safety.

Cost: one exact analysis per possible digit (at most 9, usually 2-5), each cached by
position in an :class:`OutcomeCache` that a player keeps for one move (or one game).
:func:`tile_outcomes` gathers the same for one cell as the tile information a player
reads: the digit chances, the chance of an opening and the chance of progress.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from minesolver.analysis import Analysis, CellProbabilities, analyze, analyze_after
from minesolver.counting import ComponentCount
from minesolver.engines.exact import ExactEngine, NativeAnalysis, supports_what_ifs
from minesolver.errors import MinesolverError
from minesolver.position import FLAG, HIDDEN, Cell, InconsistentPosition, Position
from minesolver.result import MineCountUnknown
from minesolver.strategy.base import Move
from minesolver.strategy.greedy import certain_moves
from minesolver.strategy.reasons import Reason

__all__ = [
    "Outcome",
    "OutcomeCache",
    "TileError",
    "TileOutcomes",
    "cell_outcomes",
    "check_tile_cell",
    "deep_signature",
    "digit_entropy",
    "digit_neighbourhood",
    "digit_range",
    "is_dead",
    "iter_outcomes",
    "iter_representatives",
    "lowest_probability",
    "moves_for",
    "representatives",
    "tile_outcomes",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The click on ``cell`` shows ``digit``, with probability ``probability``.

    ``probability`` is the joint probability that the cell is safe and shows ``digit``;
    ``analysis`` analyses the position with the cell revealed as ``digit``.
    """

    cell: Cell
    digit: int
    probability: Fraction
    analysis: Analysis

    @property
    def new_safe(self) -> frozenset[Cell]:
        """Cells certainly safe after this outcome that were not opened before."""
        return self.analysis.safe


class OutcomeCache:
    """Analyses by position, shared by every outcome computed within its lifetime.

    Positions are hashable values, so the key is the position itself; an inconsistent
    position is stored as ``None``. An expert analysis holds a few hundred Fractions, so
    the store is emptied when it reaches ``limit`` entries (a game uses a few hundred).
    """

    def __init__(self, limit: int = 2_000) -> None:
        self._store: dict[Position, Analysis | None] = {}
        self._counts: dict[object, ComponentCount] = {}
        self._limit = limit
        self._outcomes_of: Analysis | None = None
        self._outcomes: dict[Cell, list[Outcome]] = {}

    def outcomes(self, analysis: Analysis, cells: Sequence[Cell]) -> dict[Cell, list[Outcome]]:
        """:func:`cell_outcomes` of each of ``cells`` (hidden cells), kept for the last
        ``analysis`` asked about. Under a native analysis
        (:func:`~minesolver.engines.exact.supports_what_ifs`) the cells not yet known are
        all expanded in one native call; otherwise one analysis per (cell, digit). Each
        child analysis is stored by position, as :meth:`analysis` stores it."""
        if self._outcomes_of is not analysis:
            self._outcomes_of = analysis
            self._outcomes = {}
        known = self._outcomes
        missing = [c for c in dict.fromkeys(cells) if c not in known]
        if missing:
            if supports_what_ifs(analysis):
                self._expand(analysis, missing)
            else:
                for cell in missing:
                    known[cell] = list(_outcomes_one_by_one(analysis, cell, self))
        return {c: known[c] for c in cells}

    def _expand(self, analysis: Analysis, cells: list[Cell]) -> None:
        """The outcomes of ``cells`` in one native call (``analysis`` is native)."""
        engine = cast(ExactEngine, analysis.source)
        position = analysis.position
        for cell in cells:
            if position[cell] != HIDDEN:
                raise ValueError(f"cell {cell} is not hidden")
        total = analysis.layout_count()
        store = self._store
        for cell, children in zip(cells, engine.what_ifs(analysis, cells), strict=True):
            outs = []
            for digit, child in children:
                if len(store) >= self._limit:
                    store.clear()
                store.setdefault(child.position, child)
                outs.append(Outcome(cell, digit, Fraction(child.layout_count(), total), child))
            self._outcomes[cell] = outs

    def analysis(
        self, position: Position, parent: tuple[Analysis, Cell, int] | None = None
    ) -> Analysis | None:
        """The exact analysis of ``position``, or ``None`` when no layout explains it.

        ``parent = (analysis, cell, digit)``, when ``position`` is ``analysis.position``
        with ``cell`` showing ``digit``, lets the core rebuild only the components next
        to the cell (:func:`~minesolver.analysis.analyze_after`), and the count cache
        kept here spares recounting the components a reveal leaves alone.
        """
        try:
            return self._store[position]
        except KeyError:
            pass
        result: Analysis | None
        try:
            if parent is not None:
                result = analyze_after(*parent, cache=self._counts, child=position)
            else:
                result = analyze(position, cache=self._counts)
        except InconsistentPosition:
            result = None
        if len(self._store) >= self._limit:
            self._store.clear()
        if len(self._counts) >= 4 * self._limit:
            self._counts.clear()
        self._store[position] = result
        return result

    def clear(self) -> None:
        """Forget every stored analysis (a new game)."""
        self._store.clear()
        self._counts.clear()
        self._outcomes_of = None
        self._outcomes = {}


def lowest_probability(analysis: Analysis) -> Fraction | None:
    """The lowest mine probability below 1 of ``analysis`` (0 when a cell is certainly
    safe), or ``None`` when every unknown cell is a certain mine. From the native levels
    when ``analysis`` is native (no Fraction made per level), else over the distinct
    probability values. O(levels).

    >>> from minesolver import Position, analyze
    >>> lowest_probability(analyze(Position.from_text("3x1x1\\nHHH")))
    Fraction(1, 3)
    """
    if isinstance(analysis, NativeAnalysis):
        return analysis.lowest()
    if analysis.safe:
        return Fraction(0)
    probabilities = analysis.probabilities
    if isinstance(probabilities, CellProbabilities):
        values: Iterable[Fraction] = probabilities.distinct()
    else:
        values = {id(v): v for v in probabilities.values()}.values()
    return min((p for p in values if p < 1), default=None)


def digit_range(analysis: Analysis, cell: Cell) -> range:
    """The digits ``cell`` could possibly show, from its neighbours' known state.

    At least the flags and certain mines around it, at most those plus every neighbour
    not certainly safe. The digits in between may still be impossible; the analyses
    of :func:`cell_outcomes` decide.
    """
    position = analysis.position
    low = high = 0
    for nb in position.neighbours(cell):
        value = position[nb]
        if value == FLAG:
            low += 1
            high += 1
        elif value == HIDDEN:
            p = analysis.probabilities.get(nb)
            if p == 1:
                low += 1
                high += 1
            elif p != 0:
                high += 1
    return range(low, high + 1)


def cell_outcomes(
    analysis: Analysis, cell: Cell, cache: OutcomeCache | None = None
) -> list[Outcome]:
    """Every digit ``cell`` can show, with its exact joint probability and analysis.

    ``analysis`` is the exact analysis of the current position (its layout count is the
    denominator). The probabilities sum to ``1 - P(cell is a mine)``. A certain mine has
    no outcome. Cost: one analysis per digit in :func:`digit_range`.
    """
    return list(iter_outcomes(analysis, cell, cache))


def iter_outcomes(
    analysis: Analysis, cell: Cell, cache: OutcomeCache | None = None
) -> Iterator[Outcome]:
    """:func:`cell_outcomes` lazily, by increasing digit: a caller that can tell early
    that a cell will not be chosen stops before paying for the remaining analyses."""
    if supports_what_ifs(analysis):  # every digit in one native call
        store = cache if cache is not None else OutcomeCache()
        yield from store.outcomes(analysis, (cell,))[cell]
        return
    yield from _outcomes_one_by_one(analysis, cell, cache)


def _outcomes_one_by_one(
    analysis: Analysis, cell: Cell, cache: OutcomeCache | None
) -> Iterator[Outcome]:
    """:func:`iter_outcomes` by one analysis per digit (any engine)."""
    position = analysis.position
    if position[cell] != HIDDEN:
        raise ValueError(f"cell {cell} is not hidden")
    if analysis.probabilities.get(cell) == 1:
        return
    store = cache if cache is not None else OutcomeCache()
    for digit in digit_range(analysis, cell):
        child = store.analysis(position.replace({cell: digit}), (analysis, cell, digit))
        if child is None or child.layouts == 0:
            continue
        yield Outcome(cell, digit, Fraction(child.layout_count(), analysis.layout_count()), child)


class TileError(MinesolverError, ValueError):
    """A cell whose tile information cannot be given: off the board, not hidden, or an
    analysis that did not count its layouts exactly; the message names the cell."""


@dataclass(frozen=True, slots=True)
class TileOutcomes:
    """What a click on one hidden cell can lead to, exactly (:func:`tile_outcomes`).

    ``mine``: the probability that the cell is a mine. ``digits``: for each digit the cell
    can show, by increasing digit, the joint probability that it is safe and shows it
    (impossible digits are left out); they add up to :attr:`safe`. ``progress``: the
    probability that the cell is safe and its digit leaves at least one other hidden cell
    certainly safe that was not before (the ``best`` player's progress).
    """

    cell: Cell
    mine: Fraction
    digits: Mapping[int, Fraction]
    progress: Fraction

    @property
    def safe(self) -> Fraction:
        """The probability that the cell is safe: ``1 - mine``."""
        return 1 - self.mine

    @property
    def opening(self) -> Fraction:
        """The probability that the cell is safe and shows 0: the click opens an area."""
        return self.digits.get(0, Fraction(0))


def tile_outcomes(
    analysis: Analysis, cell: Cell, cache: OutcomeCache | None = None
) -> TileOutcomes:
    """The tile information of a hidden ``cell``: its digit chances and its progress.

    ``analysis`` must be exact, under a known mine total with the flags trusted (a
    layout count is the denominator of every chance); ``TileError`` otherwise, and for a
    cell off the board or not hidden (``MineCountUnknown`` under a density). A certain
    mine can show nothing: no digit, no progress. "Progress" counts an outcome whose
    analysis has a certainly-safe cell not certainly safe in ``analysis``: when no cell is
    certainly safe (whenever a player must guess) that is any safe cell, as ``best``
    counts it. Cost: :func:`iter_outcomes`, one analysis per possible digit.

    >>> from minesolver import Position, analyze
    >>> known = Position.from_text("5x5x5\\nH2HHH\\nHHHHH\\n112HH\\n00HHH\\n000HH")
    >>> tile = tile_outcomes(analyze(known), (4, 0))
    >>> tile.mine, tile.opening, tile.progress
    (Fraction(11, 36), Fraction(1, 12), Fraction(1, 9))
    >>> {d: str(p) for d, p in tile.digits.items()}
    {0: '1/12', 1: '1/3', 2: '1/4', 3: '1/36'}
    """
    _check_tile(analysis, cell)
    before = analysis.safe
    digits: dict[int, Fraction] = {}
    progress = Fraction(0)
    for o in iter_outcomes(analysis, cell, cache):
        digits[o.digit] = o.probability
        if not o.analysis.safe <= before:
            progress += o.probability
    return TileOutcomes(cell, analysis.probabilities[cell], digits, progress)


def check_tile_cell(position: Position, cell: Cell) -> None:
    """``TileError`` unless ``cell`` is a hidden cell of ``position``. O(1).

    >>> check_tile_cell(Position.from_text("2x1x1\\n1H"), (0, 0))
    Traceback (most recent call last):
    ...
    minesolver.strategy.outcomes.TileError: cell (0, 0) is not hidden: it shows the digit 1
    """
    x, y = cell
    if not (0 <= x < position.width and 0 <= y < position.height):
        raise TileError(f"cell {cell} is off the {position.width}x{position.height} board")
    value = position[cell]
    if value != HIDDEN:
        shown = "a flag" if value == FLAG else f"the digit {value}"
        raise TileError(f"cell {cell} is not hidden: it shows {shown}")


def _check_tile(analysis: Analysis, cell: Cell) -> None:
    """Refuse what :func:`tile_outcomes` cannot answer exactly, saying why."""
    check_tile_cell(analysis.position, cell)
    problem = analysis.problem
    if problem is not None and problem.density is not None:
        raise MineCountUnknown(
            f"cell {cell}: the digit chances need the total number of mines, not a density"
        )
    if not analysis.exact or analysis.layouts is None:
        raise TileError(
            f"cell {cell}: the digit chances need an exact count of the layouts, which the "
            f"{analysis.engine} engine does not give"
        )
    if problem is not None and not problem.trust_flags:
        raise TileError(f"cell {cell}: the digit chances count flags as mines: trust them")


def is_dead(outcomes: Iterable[Outcome]) -> bool:
    """True when the cell can show one digit only: its reveal tells nothing."""
    return sum(1 for _ in outcomes) <= 1


def digit_entropy(outcomes: Iterable[Outcome]) -> float:
    """Shannon entropy (bits) of the digit shown, given the cell is safe.

    Floats are fine here: the entropy only breaks ties, after the exact comparisons.
    """
    probs = [o.probability for o in outcomes]
    total = sum(probs, Fraction(0))
    if total == 0:
        return 0.0
    return -sum(float(p / total) * math.log2(float(p / total)) for p in probs if p)


def deep_signature(
    position: Position, cell: Cell, near: bytes | None = None
) -> tuple[int, int] | None:
    """A class for cells far from every digit, or ``None`` for any other cell.

    A *deep* cell has no revealed digit within distance 2: neither it nor any of its
    hidden neighbours touches a digit. All deep cells with the same number of hidden and
    flagged neighbours are alike (same mine probability, same outcome probabilities, the
    same number of new certain cells per outcome), so one of them stands for all:
    the players evaluate one representative per class instead of hundreds of cells.
    ``near`` (:func:`digit_neighbourhood` of the position) spares recomputing it.
    """
    if near is None:
        near = digit_neighbourhood(position)
    cells = position.cells
    i = position.index(cell)
    if near[i]:
        return None
    hidden = flags = 0
    for j in position.neighbour_indices()[i]:
        if cells[j] == FLAG:
            flags += 1
        elif near[j]:  # a hidden neighbour touching a digit
            return None
        else:
            hidden += 1
    return hidden, flags


def digit_neighbourhood(position: Position) -> bytes:
    """Per cell index, 1 when the cell is a digit or touches one. O(cells)."""
    nbrs = position.neighbour_indices()
    near = bytearray(len(position.cells))
    for i, v in enumerate(position.cells):
        if v >= 0:
            near[i] = 1
            for j in nbrs[i]:
                near[j] = 1
    return bytes(near)


def iter_representatives(position: Position, cells: Iterable[Cell]) -> Iterator[Cell]:
    """``cells`` lazily, with each class of deep cells (:func:`deep_signature`) kept once.

    The first cell of a class in the given order stands for it; other cells are kept
    as they come. O(cells of the board) once, then O(9) per cell taken.
    """
    near = digit_neighbourhood(position)
    seen: set[tuple[int, int]] = set()
    for cell in cells:
        sig = deep_signature(position, cell, near)
        if sig is not None:
            if sig in seen:
                continue
            seen.add(sig)
        yield cell


def representatives(position: Position, cells: Iterable[Cell]) -> list[Cell]:
    """:func:`iter_representatives` as a list."""
    return list(iter_representatives(position, cells))


def moves_for(
    view: Position, cache: OutcomeCache, choose: Callable[[Analysis], tuple[Cell, Reason]]
) -> list[Move]:
    """A player's moves: every certain move, or those and one guess from ``choose``.

    One analysis (cached by position) serves them all; ``choose`` gets it only when no
    cell is certainly safe, and returns the cell to open and why.
    """
    analysis = cache.analysis(view)
    if analysis is None:
        analysis = analyze(view)  # raises InconsistentPosition naming the reason
    moves = certain_moves(analysis)
    if analysis.safe:
        return moves
    cell, why = choose(analysis)
    risk = float(analysis.probabilities[cell])
    moves.append(Move("open", cell, guess=True, risk=risk, reason=why))
    return moves
