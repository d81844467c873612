"""The brute-force oracle: every placement of the remaining mines, checked digit by digit.

It shares nothing with the other engines (no equations, no components, no counting
module) so that agreeing with it means something. Its limit: :data:`MAX_PLACEMENTS`
placements, i.e. about 20-25 unknown cells on a small board (``C(24, 8)`` = 735,471);
any mid-game expert position is refused at once, never attempted.
Complexity: O(C(u, m) * d) for ``u`` unknown cells, ``m`` mines to place and ``d``
digits; refused beyond :data:`MAX_PLACEMENTS` placements with
:class:`EngineLimitExceeded`.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from minesolver.engines.base import EngineError, EngineLimitExceeded, check_deadline
from minesolver.engines.generic import PositionEngineBase
from minesolver.position import FLAG, HIDDEN, InconsistentPosition
from minesolver.result import Analysis, Limit

if TYPE_CHECKING:
    from minesolver.constraints import Problem

__all__ = ["MAX_PLACEMENTS", "BruteForceEngine", "brute_force"]

MAX_PLACEMENTS = 2_000_000
"""Largest number of placements (``C(unknown, mines)``, or ``2**unknown`` under a
density) the oracle will try."""


def brute_force(
    problem: Problem, density: Fraction | None = None
) -> tuple[int, dict[int, Fraction]]:
    """Layout count and each unknown cell's mine probability, by enumeration.

    Under a known total every layout with exactly that many mines counts once; under a
    ``density`` every layout of any size counts, weighted by ``p^m (1-p)^(u-m)``, and the
    returned count is the number of consistent layouts.
    """
    check_deadline()
    position = problem.position
    cells = position.cells
    nbrs = position.neighbour_indices()
    unknown = problem.unknown
    trusted = {i for i, v in enumerate(cells) if v == FLAG} if problem.trust_flags else set()
    digits = [(i, cells[i]) for i in range(len(cells)) if cells[i] >= 0]
    u = len(unknown)
    if density is None:
        if position.mines is None:
            raise EngineError("the brute-force oracle needs the total number of mines")
        m = position.mines - len(trusted)
        sizes = [m] if 0 <= m <= u else []
        tries = comb(u, m) if sizes else 0
    else:
        sizes = list(range(u + 1))
        tries = 2**u
    if tries > MAX_PLACEMENTS:
        # a huge count is written by its size (str() refuses ints over 4,300 digits)
        shown = str(tries) if tries < 10**18 else f"about 10^{int(tries.bit_length() * 0.30103)}"
        raise EngineLimitExceeded(
            f"brute force would try {shown} placements, more than its limit of {MAX_PLACEMENTS}"
        )
    relevant = [
        (i, d, [j for j in nbrs[i] if cells[j] == HIDDEN or cells[j] == FLAG]) for i, d in digits
    ]
    total = Fraction(0)
    layouts = 0
    per_cell = [Fraction(0)] * u
    for size in sizes:
        w = Fraction(1) if density is None else density**size * (1 - density) ** (u - size)
        for n, mines in enumerate(combinations(range(u), size)):
            if n & 4095 == 4095:
                check_deadline()
            mine_set = {unknown[k] for k in mines} | trusted
            if all(sum(1 for j in around if j in mine_set) == d for _, d, around in relevant):
                layouts += 1
                total += w
                for k in mines:
                    per_cell[k] += w
    if layouts == 0:
        raise InconsistentPosition("no mine layout is consistent with this position")
    return layouts, {unknown[k]: per_cell[k] / total for k in range(u)}


class BruteForceEngine(PositionEngineBase):
    """The oracle as an engine: ``analyze(position, engine="brute")``."""

    name = "brute"

    def analyze_problem(self, problem: Problem, limit: Limit | None = None) -> Analysis:

        layouts, probs = brute_force(problem, problem.density)
        return Analysis.from_indices(problem, layouts, probs, engine=self.name)
