"""The default ``exact`` engine: the exact analysis in Rust (:mod:`minesolver._native`).

The native core does, for a whole position, what the pure-Python reference does
(:mod:`minesolver.constraints`, the frontier programme of :mod:`minesolver.engines.exact`,
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
native component counts (:meth:`NativeEngine.count` with
:func:`~minesolver.engines.component.analyze_components`), transparently and with the same
answers: under a density instead of a total, and for a position no layout explains (the
reference names the digit that fails, in the same :class:`InconsistentPosition`).

A panic in the native core is an :class:`~minesolver.engines.EngineError`, never a crash;
a time limit (``Limit(seconds=...)``) is a deadline checked inside the native loops, and
:class:`~minesolver.engines.EngineLimitExceeded` when it passes.

Cost: linear in the board for the reduction, then the frontier programme per distinct
component (see :mod:`minesolver.engines.exact`) and the combination (see
:mod:`minesolver.counting`), all native; a mid-game expert position takes a few
microseconds of Rust, an analysis from text to result some tens.

>>> from minesolver import Position, analyze
>>> a = analyze(Position.from_text("5x5x5\\nH2HHH\\nHHHHH\\n112HH\\n00HHH\\n000HH"))
>>> a.engine, a.layouts, a.probabilities[(3, 1)]
('exact', 72, Fraction(7, 12))
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, MutableMapping, Sequence
from fractions import Fraction
from itertools import compress
from math import comb
from typing import overload

import minesolver._native as _native
from minesolver.constraints import Component, Problem, build
from minesolver.counting import ComponentCount
from minesolver.engines.base import (
    EngineError,
    EngineLimitExceeded,
    check_deadline,
    seconds_left,
)
from minesolver.engines.component import analyze_components
from minesolver.engines.exact import FrontierEngine
from minesolver.position import Position, coordinate_table
from minesolver.result import Analysis, CellProbabilities, Limit

__all__ = ["NativeAnalysis", "NativeEngine"]

_ZERO = Fraction(0)
_ONE = Fraction(1)
_NOT_UNKNOWN = 0xFFFFFFFF
_UNKNOWN_TRUSTED = bytes(1 if i == 255 else 0 for i in range(256))
"""``Position.raw()`` -> 1 for the unknown cells when flags are trusted (hidden cells)."""
_UNKNOWN_UNTRUSTED = bytes(1 if i >= 254 else 0 for i in range(256))
"""The same when flags are not trusted (hidden cells and flags)."""


class NativeEngine:
    """Exact counts in Rust (the default ``exact`` engine); equal to ``exact-py``.

    As a component engine (:meth:`count`) it serves the what-ifs
    (:func:`~minesolver.analysis.analyze_after`) and the density mode; :meth:`analyze`
    is the whole analysis of a position in one native call.
    """

    name = "exact"

    def count(self, component: Component) -> ComponentCount:
        """Layouts by mine number and per-box mine counts of one component, native.

        A component the native count refuses (a box of more than 62 cells, which
        :func:`~minesolver.constraints.build` never makes) is counted by the reference.
        The current deadline (:func:`~minesolver.engines.base.deadline_scope`) is checked
        inside the native loops: :class:`EngineLimitExceeded` when it passes.
        """
        sizes = [len(box) for box in component.boxes]
        try:
            layouts, box_mines = _native.count(sizes, component.constraints, seconds_left())
        except _native.DeadlineExceeded as exc:
            raise EngineLimitExceeded(
                "the exact count took more than the time limit; use engine 'auto' for an "
                "approximate answer with its error"
            ) from exc
        except _native.TooLarge as exc:
            raise EngineLimitExceeded(f"{exc}; use engine 'auto'") from exc
        except _native.NativePanic as exc:
            raise EngineError(f"the native exact count failed: {exc}") from exc
        except ValueError:
            return FrontierEngine().count(component)
        return ComponentCount(layouts=layouts, box_mines=box_mines)

    def analyze(
        self,
        position: Position,
        *,
        trust_flags: bool = True,
        limit: Limit | None = None,
        cache: MutableMapping[object, ComponentCount] | None = None,
    ) -> Analysis:
        """The exact analysis of ``position`` under its total (which must be known), in
        one native call; a position no layout explains goes to the reference, which
        raises :class:`InconsistentPosition` naming why. ``limit.seconds`` is a deadline
        inside the native loops (:class:`EngineLimitExceeded` when it passes); ``cache``
        serves only that fallback (the native count needs none)."""
        mines = position.mines
        if mines is None:
            raise EngineError("the native analysis needs the total number of mines")
        stated = limit.seconds if limit is not None else None
        seconds = stated
        left = seconds_left()  # an enclosing deadline, if any, is checked too
        if left is not None:
            seconds = left if seconds is None else min(seconds, left)
        raw = position.raw()
        try:
            result = _native.analyze(
                raw, position.width, position.height, mines, trust_flags, seconds
            )
        except _native.Inconsistent:
            problem = build(position, trust_flags=trust_flags, check=check_deadline)
            return analyze_components(problem, self, cache)  # raises, naming the digit
        except _native.DeadlineExceeded as exc:
            raise EngineLimitExceeded(
                f"the exact count took more than the limit of {stated or seconds or 0:g} s; "
                "use engine 'auto' for an approximate answer with its error"
            ) from exc
        except _native.TooLarge as exc:
            raise EngineLimitExceeded(
                f"{exc}; use engine 'auto' for an approximate answer with its error"
            ) from exc
        except _native.NativePanic as exc:
            raise EngineError(f"the native exact analysis failed: {exc}") from exc
        return _analysis(self, position, raw, trust_flags, result)


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


_PROBLEM = Analysis.__dict__["problem"]
"""The slot behind :attr:`Analysis.problem` (a slots dataclass's member descriptor)."""


class NativeAnalysis(Analysis):
    """An :class:`Analysis` whose :attr:`problem` (the reduced position, for what-ifs) is
    built by the Python reference the first time it is read, not by every analysis.
    Equal to an :class:`Analysis` with the same fields."""

    __slots__ = ("_trust_flags",)

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


def _analysis(
    engine: NativeEngine,
    position: Position,
    raw: bytes,
    trust_flags: bool,
    result: _native.ExactResult,
) -> Analysis:
    """The :class:`NativeAnalysis` of a native result: the layout count restored from
    its common scale, the certain cells, and lazy probabilities. O(unknown cells)."""
    interior = result.interior
    layouts = result.total
    k_lo = result.k_lo
    if k_lo and interior:
        layouts *= comb(interior, k_lo)
    d = result.d
    if d != 1:
        layouts //= d
    width, height = position.width, position.height
    unknown = tuple(
        compress(
            range(len(raw)), raw.translate(_UNKNOWN_TRUSTED if trust_flags else _UNKNOWN_UNTRUSTED)
        )
    )
    levels = _Levels(result)
    safe, mines = result.safe, result.mines
    ids = list(range(2, result.level_count))
    if mines:
        ids.insert(0, 1)
    if safe:
        ids.insert(0, 0)
    by_index = _ByIndex(_cell_levels(result.cell_levels()), levels)
    probabilities = CellProbabilities(width, height, unknown, by_index, _Distinct(levels, ids))
    coords = coordinate_table(width, height)
    analysis = NativeAnalysis(
        position=position,
        probabilities=probabilities,
        layouts=layouts,
        safe=frozenset(map(coords.__getitem__, safe)),
        certain_mines=frozenset(map(coords.__getitem__, mines)),
        engine=engine.name,
        exact=True,
        errors=None,
        problem=None,
        source=engine,
    )
    object.__setattr__(analysis, "_trust_flags", trust_flags)
    return analysis
