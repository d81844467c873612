"""`analyze`: a position's exact mine probabilities, layout count and certain cells.

Every consistent layout with exactly the total number of mines is equally likely (or,
under a density ``p``, each cell is a mine independently with probability ``p`` and the
layouts are conditioned on the digits). :func:`analyze` reduces the position
(:mod:`minesolver.constraints`), hands it to an engine (:mod:`minesolver.engines`; the
exact ones count each component and :mod:`minesolver.counting` applies the total), and
returns an :class:`~minesolver.result.Analysis`. All counting is in Python ints and
Fractions; floats appear only in :meth:`Analysis.floats` and in approximate engines, which
say so.

>>> from minesolver import Position, analyze
>>> a = analyze(Position.from_text("5x5x5\\nH2HHH\\nHHHHH\\n112HH\\n00HHH\\n000HH"))
>>> a.layouts, a.probabilities[(1, 1)], a.safest()
(72, Fraction(5, 6), (2, 1))
"""

from __future__ import annotations

import math
import warnings
from collections.abc import MutableMapping
from dataclasses import replace
from fractions import Fraction
from numbers import Rational

from minesolver.counting import ComponentCount
from minesolver.engines import ComponentEngine, Engine, PositionEngine, get_engine
from minesolver.engines.component import count_components
from minesolver.engines.generic import as_engine, require_total
from minesolver.position import Cell, Position
from minesolver.result import (
    Analysis,
    CellProbabilities,
    Limit,
    MineCountUnknown,
    fraction_text,
    int_to_decimal,
)

__all__ = [
    "Analysis",
    "CellProbabilities",
    "Limit",
    "MineCountUnknown",
    "analyze",
    "analyze_after",
    "count_components",
    "fraction_text",
    "int_to_decimal",
]


def analyze(
    position: Position,
    *,
    engine: str | Engine | ComponentEngine | PositionEngine = "exact",
    limit: Limit | None = None,
    density: Fraction | float | str | None = None,
    trust_flags: bool = True,
    cache: MutableMapping[object, ComponentCount] | None = None,
    budget: float | None = None,
) -> Analysis:
    """Mine probabilities of every unknown cell of ``position``, exact unless the engine
    says otherwise.

    ``engine`` is a name (``exact``, ``auto``, ``sampling``…: see
    :mod:`minesolver.engines`) or an engine instance (``get_engine("mcmc", seed=3)``).
    ``limit`` (a :class:`~minesolver.result.Limit`) bounds this call: ``seconds`` is a
    deadline for every engine, checked inside its loops from the start of the call (the
    reduction of the position included): ``auto`` then gives the exact answer if it
    finished, else an approximate one with its error; the others raise
    :class:`~minesolver.engines.EngineLimitExceeded` (the approximate engines answer with
    what they have, their error saying so). ``samples`` and ``seed`` are for the sampling
    engines.
    ``density`` (a number strictly between 0 and 1) replaces an unknown total: each cell
    is a mine independently with that probability. Flags count as mines unless
    ``trust_flags`` is false, in which case they are unknown cells like hidden ones.
    ``cache``, a dict the caller keeps for one engine (e.g. one per game), lets later
    analyses reuse the counts of components that did not change. ``budget=S`` is the
    deprecated spelling of ``engine="auto", limit=Limit(seconds=S)``.

    Raises :class:`~minesolver.position.InconsistentPosition` when no layout explains the
    position, :class:`MineCountUnknown` when the total is unknown and no density is
    given, :class:`~minesolver.engines.EngineError` for an unknown engine (or a missing
    optional dependency) and :class:`~minesolver.engines.EngineLimitExceeded` past an
    engine's limits; ``TypeError`` for arguments of the wrong type.
    """
    if (
        engine == "exact"
        and limit is None
        and density is None
        and budget is None
        and type(position) is Position
        and position.mines is not None
    ):  # the default call, straight to the shared engine (which keeps an enclosing deadline)
        return _shared_exact().analyze(position, trust_flags=trust_flags, cache=cache)
    if not isinstance(position, Position):
        raise TypeError(f"analyze() takes a Position, got {type(position).__name__}")
    if limit is not None and not isinstance(limit, Limit):
        raise TypeError(f"limit must be a minesolver.Limit, got {limit!r}")
    if budget is not None:
        warnings.warn(
            "analyze(budget=S) is deprecated: use engine='auto', limit=Limit(seconds=S)",
            DeprecationWarning,
            stacklevel=2,
        )
        if engine != "exact":
            raise ValueError(f"a time budget applies to the exact engine, not {engine!r}")
        engine, limit = "auto", replace(limit or Limit(), seconds=budget)
    dens = _density(density)
    require_total(position, dens)
    eng = as_engine(get_engine(engine) if isinstance(engine, str) else engine)
    return eng.analyze(position, limit=limit, density=dens, trust_flags=trust_flags, cache=cache)


_EXACT: list[Engine] = []
"""The registry's shared ``exact`` engine, once :func:`analyze` has looked it up."""


def _shared_exact() -> Engine:
    """The registry's shared ``exact`` engine (looked up once: the default calls of
    :func:`analyze` skip the registry's few calls). O(1)."""
    if not _EXACT:
        _EXACT.append(as_engine(get_engine("exact")))
    return _EXACT[0]


def analyze_after(
    analysis: Analysis,
    cell: Cell,
    digit: int,
    *,
    cache: MutableMapping[object, ComponentCount] | None = None,
    child: Position | None = None,
) -> Analysis:
    """The analysis of ``analysis.position`` after ``cell`` is opened and shows ``digit``.

    Equal to ``analyze(position with the digit)`` with the same engine and options: under
    the native ``exact`` engine (a known total, flags trusted) one native analysis of the
    revealed position; with another exact component engine only the components next to
    ``cell`` are rebuilt and, with a ``cache``, recounted: what a player needs to weigh
    every outcome of a click. (Many what-ifs of one position in one native call:
    :meth:`~minesolver.engines.exact.ExactEngine.what_ifs`.)
    ``child``, the revealed position, may be passed when the caller has built it already.
    Raises :class:`InconsistentPosition` when the cell cannot be safe showing ``digit``.
    """
    source = analysis.source
    engine = as_engine(source if source is not None else get_engine(analysis.engine))
    return engine.analyze_after(analysis, cell, digit, cache=cache, child=child)


def _density(value: Fraction | float | str | None) -> Fraction | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Rational | float | str):
        raise TypeError(f"density must be a number, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"density {value!r} is not a finite number")
    try:
        dens = Fraction(value)
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"density {value!r} is not a number") from exc
    if not 0 < dens < 1:
        raise ValueError(f"density {value} must be strictly between 0 and 1")
    return dens
