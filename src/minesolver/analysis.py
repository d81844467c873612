"""`analyze`: a position's exact mine probabilities, layout count and certain cells.

Every consistent layout with exactly the total number of mines is equally likely (or,
under a density ``p``, each cell is a mine independently with probability ``p`` and the
layouts are conditioned on the digits). :func:`analyze` reduces the position
(:mod:`minesolver.constraints`), counts each component with an exact engine
(:mod:`minesolver.engines`), and applies the total (:mod:`minesolver.counting`).
All counting is in Python ints and Fractions; floats appear only in :meth:`Analysis.floats`.
"""

from __future__ import annotations

import decimal
from collections.abc import (
    ItemsView,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    Sequence,
    ValuesView,
)
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from minesolver.constraints import Problem, build, reveal
from minesolver.counting import ComponentCount, combine, combine_density
from minesolver.engines import (
    ComponentEngine,
    PositionEngine,
    get_engine,
    is_component_engine,
)
from minesolver.position import Cell, InconsistentPosition, Position, coordinate_table

__all__ = [
    "Analysis",
    "MineCountUnknown",
    "analyze",
    "analyze_after",
    "fraction_text",
    "int_to_decimal",
    "to_json",
]


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
            raise KeyError(cell)
        try:
            return self._by_index[y * self._width + x]
        except KeyError:
            raise KeyError(cell) from None

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


_STR_LIMIT = 10**4000  # below Python's 4,300-digit limit on int -> str


class MineCountUnknown(ValueError):
    """Neither the total number of mines nor a density was given."""


def int_to_decimal(n: int) -> str:
    """``n`` in decimal, however long (``str`` refuses ints over 4,300 digits)."""
    if -_STR_LIMIT < n < _STR_LIMIT:
        return str(n)
    return str(decimal.Decimal(n))


@dataclass(frozen=True, slots=True)
class Analysis:
    """The result of analysing a position.

    ``probabilities`` maps each unknown cell ``(x, y)`` to its mine probability;
    ``layouts`` counts the consistent mine layouts (with exactly the total, or of any size
    under a density); ``safe`` and ``mines`` are the cells certainly safe and certainly
    mines. Approximate engines set ``exact`` to False and give each cell's standard
    ``errors``.
    """

    position: Position
    probabilities: Mapping[Cell, Fraction]
    layouts: int
    safe: frozenset[Cell]
    mines: frozenset[Cell]
    engine: str = "exact"
    exact: bool = True
    errors: Mapping[Cell, float] | None = field(default=None)
    problem: Problem | None = field(default=None, compare=False, repr=False)
    """The reduced position this analysis came from (lets :func:`analyze_after` reuse it)."""

    @classmethod
    def from_indices(
        cls,
        problem: Problem,
        layouts: int,
        probabilities: Mapping[int, Fraction],
        *,
        engine: str,
        exact: bool = True,
        errors: Mapping[Cell, float] | None = None,
        certain: tuple[Iterable[int], Iterable[int]] | None = None,
        levels: Sequence[Fraction] | None = None,
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
            mines=frozenset(map(coords.__getitem__, mine_idx)),
            engine=engine,
            exact=exact,
            errors=errors,
            problem=problem,
        )

    def best(self) -> Cell | None:
        """The safest unknown cell (lowest probability; ties to the first in reading
        order), or ``None`` when every unknown cell is a certain mine or none is left."""
        candidates = [(p, y, x) for (x, y), p in self.probabilities.items() if p < 1]
        if not candidates:
            return None
        _, y, x = min(candidates)
        return x, y

    def floats(self) -> dict[Cell, float]:
        """Probabilities as floats, for display only."""
        return {c: float(p) for c, p in self.probabilities.items()}


def analyze(
    position: Position,
    *,
    engine: str = "exact",
    density: Fraction | float | str | None = None,
    trust_flags: bool = True,
    cache: MutableMapping[object, ComponentCount] | None = None,
    budget: float | None = None,
) -> Analysis:
    """Exact mine probabilities of every unknown cell of ``position``.

    ``density`` (a number strictly between 0 and 1) replaces an unknown total: each cell
    is a mine independently with that probability. Flags count as mines unless
    ``trust_flags`` is false, in which case they are unknown cells like hidden ones.
    ``cache``, a dict the caller keeps for one engine (e.g. one per game), lets later
    analyses reuse the counts of components that did not change. ``budget`` (seconds, exact
    engine only): components whose exact count would not fit are sampled instead and the
    result says so (``exact=False``, errors per cell; :mod:`minesolver.budget`).

    Raises :class:`~minesolver.position.InconsistentPosition` when no layout explains the
    position, :class:`MineCountUnknown` when the total is unknown and no density is
    given, and :class:`~minesolver.engines.EngineError` for an unknown engine.
    """
    dens = _density(density)
    if dens is None and position.mines is None:
        raise MineCountUnknown(
            "the total number of mines is unknown: give it in the header (WxHxM), "
            "as mines, or give a density"
        )
    eng = get_engine(engine)
    problem = build(position, trust_flags=trust_flags, density=dens)
    if budget is not None:
        if engine != "exact":
            raise ValueError(f"a time budget applies to the exact engine, not {engine!r}")
        from minesolver.budget import analyze_problem_within

        return analyze_problem_within(problem, budget)
    if is_component_engine(eng):
        return analyze_problem(problem, eng, cache)
    return cast(PositionEngine, eng).analyze_problem(problem)


def analyze_after(
    analysis: Analysis,
    cell: Cell,
    digit: int,
    *,
    cache: MutableMapping[object, ComponentCount] | None = None,
    child: Position | None = None,
) -> Analysis:
    """The analysis of ``analysis.position`` after ``cell`` is opened and shows ``digit``.

    Equal to ``analyze(position with the digit)`` with the same engine and options, but
    with an exact component engine only the components next to ``cell`` are rebuilt and,
    with a ``cache``, recounted: what a player needs to weigh every outcome of a click.
    ``child``, the revealed position, may be passed when the caller has built it already.
    Raises :class:`InconsistentPosition` when the cell cannot be safe showing ``digit``.
    """
    engine = get_engine(analysis.engine)
    problem = analysis.problem
    pos = analysis.position
    if problem is None or not is_component_engine(engine):
        if child is None:
            child = pos.replace({cell: digit})
        if problem is None:
            return analyze(child, engine=analysis.engine, cache=cache)
        return analyze(
            child,
            engine=analysis.engine,
            density=problem.density,
            trust_flags=problem.trust_flags,
            cache=cache,
        )
    return analyze_problem(reveal(problem, pos.index(cell), digit, child), engine, cache)


def _density(value: Fraction | float | str | None) -> Fraction | None:
    if value is None:
        return None
    try:
        dens = Fraction(value)
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"density {value!r} is not a number") from exc
    if not 0 < dens < 1:
        raise ValueError(f"density {value} must be strictly between 0 and 1")
    return dens


def count_components(
    problem: Problem,
    engine: ComponentEngine,
    cache: MutableMapping[object, ComponentCount] | None = None,
) -> list[ComponentCount]:
    """Each component's counts; identical components are counted once.

    ``cache`` (shape -> counts) may be kept by the caller between analyses of one engine,
    so that components a move did not change are not counted again (a player's moves
    leave most components as they were); the counts in it must not be mutated.
    Raises :class:`InconsistentPosition` naming a digit of a component with no layout.
    """
    if cache is None:
        cache = {}
    counts = []
    position = problem.position
    for comp in problem.components:
        key = comp.key()
        count = cache.get(key)
        if count is None:
            count = cache[key] = engine.count(comp)
        if not count.layouts:
            x, y = position.coords(comp.origins[0])
            raise InconsistentPosition(
                f"no mine layout satisfies the digits around ({x}, {y}) "
                f"(digit {position.cells[comp.origins[0]]} and its neighbours)"
            )
        counts.append(count)
    return counts


def analyze_problem(
    problem: Problem,
    engine: ComponentEngine,
    cache: MutableMapping[object, ComponentCount] | None = None,
) -> Analysis:
    """Analyse a reduced position with an exact component engine (``cache``: see
    :func:`count_components`)."""
    counts = count_components(problem, engine, cache)
    zero, one = Fraction(0), Fraction(1)
    probs: dict[int, Fraction] = dict.fromkeys(problem.forced_safe, zero)
    probs.update(dict.fromkeys(problem.forced_mines, one))
    safe: list[int] = list(problem.forced_safe)
    mines: list[int] = list(problem.forced_mines)
    interior = len(problem.interior)
    if problem.density is not None:
        sizes = [c.size for c in problem.components]
        dens_result = combine_density(counts, sizes, problem.density)
        if dens_result is None:  # pragma: no cover - density is strictly inside (0, 1)
            raise InconsistentPosition("no layout has a positive weight at this density")
        layouts, box_probs = dens_result
        layouts *= 2**interior
        for comp, row in zip(problem.components, box_probs, strict=True):
            for box, p in zip(comp.boxes, row, strict=True):
                probs.update(dict.fromkeys(box, p))
                if not p:
                    safe.extend(box)
                elif p == 1:
                    mines.extend(box)
        probs.update(dict.fromkeys(problem.interior, problem.density))
    else:
        assert problem.mines_left is not None
        result = combine(counts, interior, problem.mines_left)
        if result is None:
            lo = sum(_low(c.layouts) for c in counts)
            hi = sum(len(c.layouts) - 1 for c in counts)
            left = problem.mines_left
            raise InconsistentPosition(
                f"the total of {problem.position.mines} mines is inconsistent with the "
                f"digits: {left} mines remain for the unknown cells after flags and forced "
                f"mines, but the digits need between {lo} and {hi} of them and only "
                f"{interior} other cells are free"
            )
        layouts, total = result.layouts, result.total
        levels: list[Fraction] = []
        for comp, weights in zip(problem.components, result.box_weights, strict=True):
            for box, weight in zip(comp.boxes, weights, strict=True):
                if not weight:
                    probs.update(dict.fromkeys(box, zero))
                    safe.extend(box)
                elif weight == total:
                    probs.update(dict.fromkeys(box, one))
                    mines.extend(box)
                else:
                    levels.append(p := Fraction(weight, total))
                    probs.update(dict.fromkeys(box, p))
        if interior:
            p = Fraction(result.interior_weight, total * interior)
            probs.update(dict.fromkeys(problem.interior, p))
            levels.append(p)  # its own object, even when 0 or 1
            if not p:
                safe.extend(problem.interior)
            elif p == 1:
                mines.extend(problem.interior)
        levels.extend(([zero] if safe else []) + ([one] if mines else []))
        return Analysis.from_indices(
            problem, layouts, probs, engine=engine.name, certain=(safe, mines), levels=levels
        )
    return Analysis.from_indices(problem, layouts, probs, engine=engine.name, certain=(safe, mines))


def _low(poly: list[int]) -> int:
    return next(m for m, v in enumerate(poly) if v)


def fraction_text(p: Fraction) -> str:
    """``"0"``, ``"1"`` or ``"num/den"``, however long the integers."""
    if p.denominator == 1:
        return int_to_decimal(p.numerator)
    return f"{int_to_decimal(p.numerator)}/{int_to_decimal(p.denominator)}"


def to_json(analysis: Analysis) -> dict[str, object]:
    """The JSON object of ``minesolver solve --json`` (and of the web API).

    ``layouts`` is a decimal string (it may have thousands of digits); each cell gives its
    exact probability as a string and a float for display.
    """
    pos = analysis.position
    errors = analysis.errors
    cells: list[dict[str, object]] = []
    for (x, y), p in sorted(analysis.probabilities.items(), key=lambda t: (t[0][1], t[0][0])):
        cell: dict[str, object] = {"x": x, "y": y, "p": fraction_text(p), "prob": float(p)}
        if errors is not None:
            cell["error"] = errors.get((x, y), 0.0)
        cells.append(cell)
    best = analysis.best()
    out: dict[str, object] = {
        "width": pos.width,
        "height": pos.height,
        "mines": pos.mines,
        # approximate engines do not count layouts: null rather than a misleading "0".
        "layouts": int_to_decimal(analysis.layouts) if analysis.exact or analysis.layouts else None,
        "exact": analysis.exact,
        "engine": analysis.engine,
        "cells": cells,
        "safe": sorted(([x, y] for x, y in analysis.safe), key=lambda c: (c[1], c[0])),
        "mines_found": sorted(([x, y] for x, y in analysis.mines), key=lambda c: (c[1], c[0])),
        "best": list(best) if best is not None else None,
    }
    return out
