"""A layout's static figures: each cell's digit, openings, islands and 3BV.

3BV (Bechtel's Board Benchmark Value) is the least number of left clicks that clear
the board: one per *opening* (an 8-connected region of zeros, opened with its border
by one click) plus one per digit not next to any zero. *Islands* are the 8-connected
regions of those digits. Figures as Metasweeper and ms-toollib count them.

Cost: O(cells) each (one flood fill).

>>> from minesolver.game import Layout
>>> s = board_stats(Layout.from_cells(4, 1, [(3, 0)]))
>>> s.digits, s.openings, s.islands, s.bbbv
((0, 0, 1, -1), 1, 0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from minesolver.game import Layout
from minesolver.position import neighbour_table

__all__ = ["BoardStats", "board_stats"]

MINE = -1


@dataclass(frozen=True, slots=True)
class BoardStats:
    """``digits``: each cell's mine count around it (``-1`` for a mine), row-major;
    ``island_cells``: the digits next to no zero (each one click of the 3BV)."""

    digits: tuple[int, ...]
    openings: int
    islands: int
    island_cells: frozenset[int]

    @property
    def bbbv(self) -> int:
        """The 3BV: openings plus island digits."""
        return self.openings + len(self.island_cells)


def board_stats(layout: Layout) -> BoardStats:
    """The static figures of ``layout``."""
    table = neighbour_table(layout.width, layout.height)
    n = layout.width * layout.height
    mine = [False] * n
    for i in layout.mine_indices:
        mine[i] = True
    digits = tuple(MINE if mine[i] else sum(mine[j] for j in table[i]) for i in range(n))
    island = frozenset(
        i for i in range(n) if digits[i] > 0 and all(digits[j] != 0 for j in table[i])
    )
    zeros = {i for i in range(n) if digits[i] == 0}
    return BoardStats(digits, _regions(zeros, table), _regions(set(island), table), island)


def _regions(cells: set[int], table: tuple[tuple[int, ...], ...]) -> int:
    """The number of 8-connected regions of ``cells`` (consumed)."""
    count = 0
    while cells:
        count += 1
        stack = [cells.pop()]
        while stack:
            i = stack.pop()
            for j in table[i]:
                if j in cells:
                    cells.remove(j)
                    stack.append(j)
    return count
