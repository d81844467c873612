"""The default ``exact`` engine: the exact analysis in Rust (:mod:`minesolver._native`).

The native core does, for a whole position, what the pure-Python reference does
(:mod:`minesolver.constraints`, the frontier programme of :mod:`minesolver.engines.exact_py`,
the combination of :mod:`minesolver.counting`): equations, boxes, components, the count
of each distinct component (in ``u128`` with checked arithmetic, redone in big integers
when a count overflows), and the combination under the total, with the GIL released.
It returns, per unknown cell, a *level* (one per box, one for the interior, and the
shared 0 and 1) and the levels' exact numerators; the :class:`~fractions.Fraction` of a
level is made the first time a cell of it is read (making a few hundred Fractions costs
more than the whole count), and so is the reduced problem
(:attr:`~minesolver.result.Analysis.problem`, built by the Python reference when a
what-if or a player asks for it).

Where the native path does not serve, the engine falls back to the Python path with
native component counts (:meth:`ExactEngine.count` with
:func:`~minesolver.engines.component.analyze_components`), transparently and with the same
answers: under a density instead of a total. A position no layout explains is the
:class:`InconsistentPosition` the reference raises, with the same words: the core finds
the reference's reason (the cells and numbers it names) and
:func:`inconsistent_position` words it.

The core's errors become the library's in one place, :func:`native_errors` (the players'
and the simulator's wrappers use it too): a time limit (``Limit(seconds=...)``) is a
deadline checked inside the native loops, and
:class:`~minesolver.engines.EngineLimitExceeded` when it passes, as is a count that would
exhaust memory; a bug (a panic, an overflow that no big-integer path absorbed) is an
:class:`~minesolver.engines.EngineError`, never a crash.

Cost: linear in the board for the reduction, then the frontier programme per distinct
component (see :mod:`minesolver.engines.exact_py`) and the combination (see
:mod:`minesolver.counting`), all native; a mid-game expert position takes a few
microseconds of Rust, an analysis from text to result some tens.

>>> from minesolver import Position, analyze
>>> a = analyze(Position.from_text("5x5x5\\nH2HHH\\nHHHHH\\n112HH\\n00HHH\\n000HH"))
>>> a.engine, a.layouts, a.probabilities[(3, 1)]
('exact', 72, Fraction(7, 12))
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from fractions import Fraction
from itertools import compress
from types import TracebackType
from typing import Any, TypeVar, overload

import minesolver._native as _native
from minesolver.constraints import Component, Problem, build
from minesolver.counting import ComponentCount, total_mismatch
from minesolver.engines.base import (
    EngineError,
    EngineLimitExceeded,
    deadline_scope,
    seconds_left,
)
from minesolver.engines.exact_py import ExactPyEngine
from minesolver.engines.generic import ComponentEngineBase
from minesolver.errors import plural
from minesolver.position import HIDDEN, Cell, InconsistentPosition, Position, coordinate_table
from minesolver.result import Analysis, CellProbabilities, Limit

__all__ = [
    "ExactEngine",
    "NativeAnalysis",
    "inconsistent_position",
    "native_errors",
    "supports_what_ifs",
]

_ZERO = Fraction(0)
_ONE = Fraction(1)
_NOT_UNKNOWN = 0xFFFFFFFF
_UNKNOWN_TRUSTED = bytes(1 if i == 255 else 0 for i in range(256))
"""``Position.raw()`` -> 1 for the unknown cells when flags are trusted (hidden cells)."""
_UNKNOWN_UNTRUSTED = bytes(1 if i >= 254 else 0 for i in range(256))
"""The same when flags are not trusted (hidden cells and flags)."""


_USE_AUTO = "; use engine 'auto' for an approximate answer with its error"


class native_errors:
    """Within the block, the native core's errors become the library's: the deadline
    (``seconds``, the limit the message quotes) and the memory cap are
    :class:`EngineLimitExceeded` (with ``advice``), a bug in the core is an
    :class:`EngineError`; ``what`` names the work (``"exact count"``). A position no
    layout explains (``_native.Inconsistent``), malformed input (``ValueError``) and a
    player that stops making progress (``_native.Stuck``) pass through to the caller,
    which knows what to say. A class, not a generator: it stands around every native
    call, and costs a fraction of a microsecond."""

    __slots__ = ("advice", "seconds", "what")

    def __init__(self, what: str, seconds: float | None = None, advice: str = _USE_AUTO) -> None:
        self.what = what
        self.seconds = seconds
        self.advice = advice

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc is None:
            return
        if isinstance(exc, _native.DeadlineExceeded):
            seconds = self.seconds
            limit = "the time limit" if seconds is None else f"the time limit of {seconds:g} s"
            raise EngineLimitExceeded(
                f"the {self.what} took more than {limit}{self.advice}"
            ) from exc
        if isinstance(exc, _native.TooLarge):
            raise EngineLimitExceeded(f"{exc}{self.advice}") from exc
        if isinstance(exc, _native.NativePanic):
            raise EngineError(f"the native {self.what} failed: {exc}") from exc


def inconsistent_position(position: Position, exc: _native.Inconsistent) -> InconsistentPosition:
    """The :class:`InconsistentPosition` of the core's ``exc``, worded as the reference
    (:func:`~minesolver.constraints.build`, the counts and the total) words it, from the
    cells and numbers the core names (``exc.kind``, ``exc.cells``, ``exc.numbers``):
    nothing is run again. O(1)."""
    kind, cells, k = exc.kind, exc.cells, exc.numbers
    at = [f"({i % position.width}, {i // position.width})" for i in cells]
    if kind == "flags":
        why = f"{plural(k[0], 'flag')} but the total is {plural(k[1], 'mine')}"
    elif kind == "flags-around":
        why = f"digit {k[0]} at {at[0]} has {plural(k[1], 'flag')} around it"
    elif kind == "no-room":
        why = f"digit {k[0]} at {at[0]} has no hidden or flagged neighbour to hold its mines"
    elif kind == "short":
        why = (
            f"digit {k[0]} at {at[0]} needs {plural(k[1], 'more mine')} but has only "
            f"{plural(k[2], 'unknown neighbour')}"
        )
    elif kind == "clash":
        why = f"cell {at[0]} must be both safe and a mine for the digits around it"
    elif kind == "unsatisfiable":
        why = (
            f"digit {k[0]} at {at[0]} cannot be satisfied: the digits around it force "
            f"{'too many' if k[1] else 'too few'} mines next to it"
        )
    elif kind == "same-cells":
        why = (
            f"digit {k[0]} at {at[0]} and digit {k[1]} at {at[1]} need {k[2]} and {k[3]} "
            "mines in the same cells"
        )
    elif kind == "forced":
        why = (
            f"the digits force at least {plural(k[0], 'mine')} but the total leaves {k[1]} "
            "unflagged"
        )
    elif kind == "component":
        why = (
            f"no mine layout satisfies the digits around {at[0]} (digit {k[0]} and its neighbours)"
        )
    elif kind == "total":
        why = total_mismatch(k[0], k[1], k[2], k[3], k[4])
    else:
        why = str(exc)
    return InconsistentPosition(why)


class ExactEngine(ComponentEngineBase):
    """Exact counts in Rust (the ``exact`` engine, the default); equal to ``exact-py``.

    As a component engine (:meth:`count`) it serves the what-ifs of the Python path and
    the density mode; :meth:`analyze` is the whole analysis of a position in one native
    call, :meth:`what_ifs` many what-ifs in one.
    """

    name = "exact"
    estimate_cost = False  # the native count checks its deadline itself

    def count(self, component: Component) -> ComponentCount:
        """Layouts by mine number and per-box mine counts of one component, native.

        A component with a box of more than ``_native.MAX_BOX`` cells (which
        :func:`~minesolver.constraints.build` never makes: a box is at most the 8
        neighbours of a digit) is counted by the reference. The current deadline
        (:func:`~minesolver.engines.base.deadline_scope`) is checked inside the native
        loops: :class:`EngineLimitExceeded` when it passes.
        """
        sizes = [len(box) for box in component.boxes]
        if max(sizes, default=0) > _native.MAX_BOX:
            return ExactPyEngine().count(component)
        with native_errors("exact count"):
            counted = _native.count(sizes, component.constraints, seconds_left())
        return ComponentCount(layouts=counted.layouts, box_mines=counted.box_mines)

    def analyze(
        self,
        position: Position,
        *,
        limit: Limit | None = None,
        density: Fraction | None = None,
        trust_flags: bool = True,
        cache: MutableMapping[object, ComponentCount] | None = None,
    ) -> Analysis:
        """The exact analysis of ``position`` under its total, in one native call; under
        a ``density`` (or with no total, which raises
        :class:`~minesolver.result.MineCountUnknown`) the Python path with native
        counts. A position no layout explains goes to the reference, which raises
        :class:`InconsistentPosition` naming why. ``limit.seconds`` is a deadline inside
        the native loops (:class:`EngineLimitExceeded` when it passes); ``cache`` serves
        only the Python path (the native count needs none)."""
        mines = position.mines
        if density is not None or mines is None:
            return super().analyze(
                position, limit=limit, density=density, trust_flags=trust_flags, cache=cache
            )
        stated = limit.seconds if limit is not None else None
        if stated is None:  # the default call: no scope to enter (a few microseconds)
            result = self._native(position, mines, trust_flags, None)
        else:
            with deadline_scope(stated):
                result = self._native(position, mines, trust_flags, stated)
        return _analysis(self, position, trust_flags, result)

    def _native(
        self, position: Position, mines: int, trust_flags: bool, stated: float | None
    ) -> _native.ExactResult:
        """One native analysis under the current deadline (an enclosing one included);
        ``stated``, the limit the caller gave, is what a message quotes."""
        seconds = seconds_left()
        try:
            with native_errors("exact analysis", stated or seconds or 0):
                return _native.analyze(
                    position.raw(), position.width, position.height, mines, trust_flags, seconds
                )
        except _native.Inconsistent as exc:  # the core names the cells, as the reference
            raise inconsistent_position(position, exc) from None

    def what_ifs(
        self, analysis: Analysis, cells: Sequence[Cell], *, limit: Limit | None = None
    ) -> list[list[tuple[int, Analysis]]]:
        """For each of ``cells`` (hidden cells of ``analysis.position``), every digit it
        can show with the analysis after it shows it, by increasing digit (none for a
        certain mine): what :func:`~minesolver.analysis.analyze_after` gives for each
        ``(cell, digit)``, all in one native call.

        ``analysis`` must be a native analysis under a known total with the flags
        trusted (:func:`supports_what_ifs`); a child's layouts are the parent's in which
        the cell is safe with that digit, so ``child.layouts / analysis.layouts`` is the
        chance of the digit. ``limit.seconds`` bounds the whole call. Cost: one
        reduction of the board per child, and the counts of the components that change
        (the others are counted once for the call).
        """
        if not supports_what_ifs(analysis):
            raise EngineError("native what-ifs need a native exact analysis with trusted flags")
        position = analysis.position
        mines = position.mines
        assert mines is not None  # a native analysis has a total
        index = position.index
        indices = [index(c) for c in cells]
        seconds = limit.seconds if limit is not None else None
        raw = position.raw()
        try:
            with native_errors("what-ifs", seconds, advice=""):
                outs = _native.what_ifs(
                    raw, position.width, position.height, mines, indices, True, seconds
                ).outcomes
        except ValueError as exc:  # a cell not hidden, or the position has no layout
            raise ValueError(f"what-ifs of {position.width}x{position.height}: {exc}") from exc
        unknown = _unknown(raw, True)
        out: list[list[tuple[int, Analysis]]] = []
        for i, outcomes in zip(indices, outs, strict=True):
            if not outcomes:
                out.append([])
                continue
            k = bisect_left(unknown, i)
            child_unknown = unknown[:k] + unknown[k + 1 :]
            out.append(
                [
                    (
                        o.digit,
                        _analysis(
                            self, position.with_digit(i, o.digit), True, o.analysis, child_unknown
                        ),
                    )
                    for o in outcomes
                ]
            )
        return out

    def analyze_after(
        self,
        analysis: Analysis,
        cell: Cell,
        digit: int,
        *,
        cache: MutableMapping[object, ComponentCount] | None = None,
        child: Position | None = None,
    ) -> Analysis:
        """The analysis after the hidden ``cell`` shows ``digit``: of a native analysis
        (:func:`supports_what_ifs`), one native call on the child position (``child``
        when the caller has it; when no layout allows the digit, the core names the
        cells); otherwise the components next to the cell rebuilt and recounted.
        Cost: one native analysis."""
        position = analysis.position
        if supports_what_ifs(analysis) and position[cell] == HIDDEN and 0 <= digit <= 8:
            mines = position.mines
            assert mines is not None  # a native analysis has a total
            if cell in analysis.certain_mines:
                raise InconsistentPosition(f"cell ({cell[0]}, {cell[1]}) is certainly a mine")
            if child is None:
                child = position.with_digit(position.index(cell), digit)
            try:
                with native_errors("exact analysis"):
                    result = _native.analyze(
                        child.raw(), child.width, child.height, mines, True, None
                    )
            except _native.Inconsistent as exc:  # no layout shows the digit
                raise inconsistent_position(child, exc) from None
            return _analysis(self, child, True, result)
        return super().analyze_after(analysis, cell, digit, cache=cache, child=child)


def supports_what_ifs(analysis: Analysis) -> bool:
    """True when :meth:`ExactEngine.what_ifs` (and the native
    :meth:`ExactEngine.analyze_after`) serves ``analysis``: an analysis by the
    native engine (a known total) with the flags trusted."""
    return type(analysis) is NativeAnalysis and getattr(analysis, "_trust_flags", False)


class _Levels(Sequence[Fraction]):
    """The probability of each level, a Fraction made on first use and kept (so every
    cell of a level shares one object)."""

    __slots__ = ("_cache", "_interior", "_result", "_total")

    def __init__(self, result: _native.ExactResult) -> None:
        self._result = result
        self._total = result.total
        self._interior = result.interior_level
        cache: list[Fraction | None] = [None] * result.level_count
        cache[0], cache[1] = _ZERO, _ONE
        self._cache = cache

    @overload
    def __getitem__(self, level: int) -> Fraction: ...
    @overload
    def __getitem__(self, level: slice) -> Sequence[Fraction]: ...
    def __getitem__(self, level: int | slice) -> Fraction | Sequence[Fraction]:
        if isinstance(level, slice):
            return [self[i] for i in range(*level.indices(len(self)))]
        p = self._cache[level]
        if p is None:
            result = self._result
            if level == self._interior:
                p = Fraction(result.interior_weight, self._total * result.interior)
            else:
                p = Fraction(result.weight(level), self._total)
            self._cache[level] = p
        return p

    def __len__(self) -> int:
        return len(self._cache)


class _Distinct(Sequence[Fraction]):
    """The levels some cell has (0 and 1 only when a cell is certain): what
    :meth:`CellProbabilities.distinct` returns, made on first use."""

    __slots__ = ("_ids", "_levels")

    def __init__(self, levels: _Levels, ids: list[int]) -> None:
        self._levels = levels
        self._ids = ids

    @overload
    def __getitem__(self, i: int) -> Fraction: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Fraction]: ...
    def __getitem__(self, i: int | slice) -> Fraction | Sequence[Fraction]:
        if isinstance(i, slice):
            return [self._levels[j] for j in self._ids[i]]
        return self._levels[self._ids[i]]

    def __iter__(self) -> Iterator[Fraction]:
        return map(self._levels.__getitem__, self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class _ByIndex(dict[int, Fraction]):
    """Cell index -> probability, each filled in on first lookup from the cell's level
    (a plain dict lookup afterwards). Only lookups are served: it is the index-keyed
    view behind :class:`CellProbabilities`, which iterates the unknown cells itself."""

    __slots__ = ("_cells", "_levels")

    def __init__(self, cells: Sequence[int], levels: _Levels) -> None:
        super().__init__()
        self._cells = cells
        self._levels = levels

    def __missing__(self, index: int) -> Fraction:
        if not 0 <= index < len(self._cells):
            raise KeyError(index)
        level = self._cells[index]
        if level == _NOT_UNKNOWN:
            raise KeyError(index)
        p = self[index] = self._levels[level]
        return p


def _cell_levels(data: bytes) -> Sequence[int]:
    """The native little-endian ``u32`` levels as a sequence of ints (no copy on a
    little-endian machine)."""
    if sys.byteorder == "little":
        return memoryview(data).cast("I")
    from array import array

    out = array("I", data)
    out.byteswap()
    return out


_SLOT = {
    name: Analysis.__dict__[name]
    for name in (
        "position",
        "probabilities",
        "layouts",
        "safe",
        "certain_mines",
        "engine",
        "exact",
        "errors",
        "problem",
        "source",
    )
}
"""The slots behind the fields of :class:`Analysis` (a slots dataclass's member
descriptors): :class:`NativeAnalysis` fills some of them on first use."""
_PROBLEM = _SLOT["problem"]
_PROBABILITIES = _SLOT["probabilities"]
_LAYOUTS = _SLOT["layouts"]
_SAFE = _SLOT["safe"]
_CERTAIN_MINES = _SLOT["certain_mines"]

_T = TypeVar("_T")


def _made(analysis: Analysis, slot: Any, make: Callable[[], _T]) -> _T:
    """The value of ``slot`` (a member of :class:`Analysis`), made by ``make`` and kept
    there the first time it is read. O(1) after that."""
    try:
        value: _T = slot.__get__(analysis, Analysis)
    except AttributeError:
        value = make()
        slot.__set__(analysis, value)
    return value


class NativeAnalysis(Analysis):
    """An :class:`Analysis` whose fields are made from the native result the first time
    they are read: :attr:`probabilities` (each level's Fraction on first lookup),
    :attr:`safe` and :attr:`certain_mines`, and :attr:`problem` (the reduced position, for
    the Python what-ifs, built by the reference). A player reads a few of them from each
    of the dozens of what-ifs it weighs. Equal to an :class:`Analysis` with the same
    fields."""

    __slots__ = ("_result", "_trust_flags", "_unknown")
    _result: _native.ExactResult
    _trust_flags: bool
    _unknown: tuple[int, ...] | None

    @property
    def problem(self) -> Problem | None:
        """The reduced position (built on first use: O(cells))."""
        problem: Problem | None = _PROBLEM.__get__(self, Analysis)
        if problem is None:
            problem = build(self.position, trust_flags=getattr(self, "_trust_flags", True))
            _PROBLEM.__set__(self, problem)
        return problem

    @problem.setter
    def problem(self, value: Problem | None) -> None:
        _PROBLEM.__set__(self, value)

    @property
    def probabilities(self) -> CellProbabilities:
        """Each unknown cell's probability (the mapping made on first use: O(unknown
        cells); a level's Fraction on its first lookup)."""
        return _made(self, _PROBABILITIES, lambda: _probabilities(self))

    @probabilities.setter
    def probabilities(self, value: CellProbabilities) -> None:
        _PROBABILITIES.__set__(self, value)

    @property
    def layouts(self) -> int | None:
        """The number of layouts (made on first use: a binomial of the interior in big
        integers, and the crossing into a Python int)."""
        return _made(self, _LAYOUTS, lambda: self._result.layouts)

    @layouts.setter
    def layouts(self, value: int | None) -> None:
        _LAYOUTS.__set__(self, value)

    @property
    def safe(self) -> frozenset[Cell]:
        """The cells certainly safe (made on first use)."""
        return _made(self, _SAFE, lambda: self._cells(self._result.safe))

    @safe.setter
    def safe(self, value: frozenset[Cell]) -> None:
        _SAFE.__set__(self, value)

    @property
    def certain_mines(self) -> frozenset[Cell]:
        """The cells certainly mines (made on first use)."""
        return _made(self, _CERTAIN_MINES, lambda: self._cells(self._result.mines))

    @certain_mines.setter
    def certain_mines(self, value: frozenset[Cell]) -> None:
        _CERTAIN_MINES.__set__(self, value)

    def _cells(self, indices: list[int]) -> frozenset[Cell]:
        if not indices:
            return frozenset()
        coords = coordinate_table(self.position.width, self.position.height)
        return frozenset(map(coords.__getitem__, indices))

    def lowest(self) -> Fraction | None:
        """The lowest mine probability below 1 (0 when a cell is certainly safe), or
        ``None`` when every unknown cell is a certain mine; from the native levels
        without making each level's Fraction. O(levels)."""
        return self._result.lowest()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Analysis):
            return NotImplemented
        return all(
            getattr(self, name) == getattr(other, name)
            for name in (
                "position",
                "probabilities",
                "layouts",
                "safe",
                "certain_mines",
                "engine",
                "exact",
                "errors",
            )
        )

    __hash__ = Analysis.__hash__


def _probabilities(analysis: NativeAnalysis) -> CellProbabilities:
    """The probabilities of a native analysis, as lazy views of its levels."""
    result = analysis._result
    position = analysis.position
    unknown = analysis._unknown
    if unknown is None:
        unknown = _unknown(position.raw(), analysis._trust_flags)
    levels = _Levels(result)
    ids = list(range(2, result.level_count))
    if result.mines:
        ids.insert(0, 1)
    if result.safe:
        ids.insert(0, 0)
    by_index = _ByIndex(_cell_levels(result.cell_levels()), levels)
    return CellProbabilities(
        position.width, position.height, unknown, by_index, _Distinct(levels, ids)
    )


def _unknown(raw: bytes, trust_flags: bool) -> tuple[int, ...]:
    """The indices of the unknown cells of a raw position. O(cells), in C."""
    table = _UNKNOWN_TRUSTED if trust_flags else _UNKNOWN_UNTRUSTED
    return tuple(compress(range(len(raw)), raw.translate(table)))


_SET_POSITION = _SLOT["position"].__set__
_SET_ENGINE = _SLOT["engine"].__set__
_SET_EXACT = _SLOT["exact"].__set__
_SET_ERRORS = _SLOT["errors"].__set__
_SET_PROBLEM = _SLOT["problem"].__set__
_SET_SOURCE = _SLOT["source"].__set__
_NEW = object.__new__
_PUT = object.__setattr__


def _analysis(
    engine: ExactEngine,
    position: Position,
    trust_flags: bool,
    result: _native.ExactResult,
    unknown: tuple[int, ...] | None = None,
) -> NativeAnalysis:
    """The :class:`NativeAnalysis` of a native result, its fields from the result made on
    first use. ``unknown``, the unknown cells' indices, when the caller knows them. O(1)."""
    analysis = _NEW(NativeAnalysis)
    _SET_POSITION(analysis, position)
    _SET_ENGINE(analysis, engine.name)
    _SET_EXACT(analysis, True)
    _SET_ERRORS(analysis, None)
    _SET_PROBLEM(analysis, None)
    _SET_SOURCE(analysis, engine)
    _PUT(analysis, "_result", result)
    _PUT(analysis, "_trust_flags", trust_flags)
    _PUT(analysis, "_unknown", unknown)
    return analysis
