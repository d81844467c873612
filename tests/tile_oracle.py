"""The tile information of a cell by listing every layout: the oracle of the tile tests.

For a position with a known total and trusted flags, every placement of the mines left
over the hidden cells is tried against every digit. Of the consistent layouts, those in
which the cell is safe and has ``d`` mines around it (flags included) give
P(safe and shows d); such an outcome makes *progress* when some other hidden cell is safe
in all of its layouts but not in all layouts of the position. O(C(hidden, mines left)
* cells): for small boards only.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from minesolver.position import FLAG, HIDDEN, Cell, Position

__all__ = ["TileTruth", "layouts", "tile_truth"]


@dataclass(frozen=True)
class TileTruth:
    """What the enumeration says of one cell: P(mine), P(safe and d) by d, P(progress)."""

    mine: Fraction
    digits: dict[int, Fraction]
    progress: Fraction


def layouts(position: Position) -> list[frozenset[int]]:
    """Every consistent layout as a set of mine indices (flags included)."""
    cells = position.cells
    nbrs = position.neighbour_indices()
    flags = frozenset(i for i, v in enumerate(cells) if v == FLAG)
    hidden = [i for i, v in enumerate(cells) if v == HIDDEN]
    assert position.mines is not None
    found = []
    for combo in combinations(hidden, position.mines - len(flags)):
        mines = flags | frozenset(combo)
        if all(sum(j in mines for j in nbrs[i]) == d for i, d in enumerate(cells) if d >= 0):
            found.append(mines)
    return found


def tile_truth(position: Position, cell: Cell, every: list[frozenset[int]]) -> TileTruth:
    """The tile information of ``cell`` from ``every`` layout of ``position``."""
    i = position.index(cell)
    nbrs = position.neighbour_indices()
    hidden = [j for j, v in enumerate(position.cells) if v == HIDDEN and j != i]
    safe_before = {j for j in hidden if all(j not in m for m in every)}
    by_digit: dict[int, list[frozenset[int]]] = {}
    for mines in every:
        if i not in mines:
            by_digit.setdefault(sum(j in mines for j in nbrs[i]), []).append(mines)
    total = len(every)
    digits = {d: Fraction(len(ls), total) for d, ls in sorted(by_digit.items())}
    progress = sum(
        (
            Fraction(len(ls), total)
            for ls in by_digit.values()
            if any(j not in safe_before and all(j not in m for m in ls) for j in hidden)
        ),
        Fraction(0),
    )
    mine = Fraction(sum(i in m for m in every), total)
    return TileTruth(mine, digits, progress)
