"""``pseq``: the player of Tu, Zhang and Liu (2017), without its endgame search.

Certain cells first (one analysis serves them all). Otherwise the cells of lowest mine
probability are the candidates, and the tie between them is broken, in order, by

1. the highest probability that the click yields a new certainly-safe cell,
2. the most certainly-safe cells expected after the click,
3. the highest entropy of the digit shown,

then at random with the game's ``rng``. The quantities come from
:func:`~minesolver.strategy.outcomes.cell_outcomes`: for each digit the candidate can
show, its exact probability and the analysis of the position with that digit revealed.
Cells far from every digit are evaluated once per class
(:func:`~minesolver.strategy.outcomes.representatives`), so an opening's hundreds of tied
interior cells cost a handful of analyses.

Cost per guess: one analysis per (candidate, possible digit); certain moves cost one.
"""

from __future__ import annotations

import random
from fractions import Fraction

from minesolver.analysis import Analysis
from minesolver.position import Cell, Position
from minesolver.strategy.base import Move
from minesolver.strategy.greedy import lowest_cells
from minesolver.strategy.outcomes import (
    Outcome,
    OutcomeCache,
    cell_outcomes,
    digit_entropy,
    moves_for,
    representatives,
)
from minesolver.strategy.reasons import Lowest, Pseq, Reason

__all__ = ["PseqPlayer", "pseq_key"]


def pseq_key(outcomes: list[Outcome]) -> tuple[Fraction, Fraction, float]:
    """The tie-break key of a candidate (larger is better).

    ``(P(a new safe cell), E[new safe cells], entropy of the digit)``, the first two
    exact. Cells certain to be opened anyway count: a 0 opens its neighbours.
    """
    progress = sum((o.probability for o in outcomes if o.analysis.safe), Fraction(0))
    expected = sum((o.probability * len(o.analysis.safe) for o in outcomes), Fraction(0))
    return progress, expected, digit_entropy(outcomes)


class PseqPlayer:
    """Lowest probability, ties by progress, expected safe cells, then digit entropy."""

    name = "pseq"

    def __init__(self) -> None:
        self._rng = random.Random(0)
        self._cache = OutcomeCache()

    def reset(self, rng: random.Random) -> None:
        """Start a new game; remaining ties are broken with ``rng``."""
        self._rng = rng
        self._cache.clear()

    def choose(self, analysis: Analysis) -> tuple[Cell, Reason]:
        """The guess for a position with no certainly-safe cell, and why."""
        low, tied = lowest_cells(analysis)
        if len(tied) == 1:
            return tied[0], Lowest(low)
        position = analysis.position
        scored: list[tuple[tuple[Fraction, Fraction, float], Cell]] = []
        for cell in representatives(position, tied):
            scored.append((pseq_key(cell_outcomes(analysis, cell, self._cache)), cell))
        top = max(key for key, _ in scored)
        best = [cell for key, cell in scored if key == top]
        cell = best[0] if len(best) == 1 else self._rng.choice(best)
        progress, expected, entropy = top
        return cell, Pseq(low, len(tied), progress, expected, entropy)

    def next_moves(self, view: Position) -> list[Move]:
        """Every certain move, or one guess chosen by the tie-breaks above."""
        return moves_for(view, self._cache, self.choose)
