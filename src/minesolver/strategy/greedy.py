"""``greedy``: certain cells first, then the cell least likely to be a mine.

One exact analysis of the position serves every move it makes: all the certainly-safe
cells are opened and all the certain mines flagged; when no cell is certainly safe, the
hidden cell of lowest mine probability is opened, ties broken at random with the game's
``rng``. It looks no further than the probabilities: the baseline the stronger players
(``pseq``, ``best``) are measured against (published: ~36% on expert, ~89.5% on 9x9/10).

Cost per call: one :func:`~minesolver.analysis.analyze` plus O(unknown cells).
"""

from __future__ import annotations

import random
from fractions import Fraction

from minesolver.analysis import Analysis, analyze
from minesolver.position import Cell, Position
from minesolver.strategy.base import Move
from minesolver.strategy.reasons import Certain, Lowest

__all__ = ["GreedyPlayer", "certain_moves", "lowest_cells"]


def _reading_order(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


def certain_moves(analysis: Analysis) -> list[Move]:
    """Open every certainly-safe cell, then flag every certain mine (reading order)."""
    opens = [
        Move("open", cell, reason=Certain(mine=False))
        for cell in sorted(analysis.safe, key=_reading_order)
    ]
    flags = [
        Move("flag", cell, reason=Certain(mine=True))
        for cell in sorted(analysis.certain_mines, key=_reading_order)
    ]
    return opens + flags


def lowest_cells(analysis: Analysis) -> tuple[Fraction, list[Cell]]:
    """The lowest mine probability below 1 and its cells in reading order.

    Raises ``ValueError`` when every unknown cell is a certain mine (or none is left).
    """
    # Cells of one box (and all interior cells) share one Fraction object: group by
    # identity first, so the exact comparisons are per distinct value, not per cell.
    groups: dict[int, tuple[Fraction, list[Cell]]] = {}
    for cell, p in analysis.probabilities.items():
        group = groups.get(id(p))
        if group is None:
            groups[id(p)] = (p, [cell])
        else:
            group[1].append(cell)
    candidates = [g for g in groups.values() if g[0] < 1]
    if not candidates:
        raise ValueError("no cell left that could be safe")
    low = min(p for p, _ in candidates)
    cells = [c for p, group_cells in candidates if p == low for c in group_cells]
    return low, sorted(cells, key=_reading_order)


class GreedyPlayer:
    """Certain cells first, else the lowest-probability cell, ties at random."""

    name = "greedy"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, rng: random.Random) -> None:
        """Start a new game; tie-breaks come from ``rng``."""
        self._rng = rng

    def next_moves(self, view: Position) -> list[Move]:
        """Every certain move, or (with the certain flags) one guess of lowest risk."""
        analysis = analyze(view)
        moves = certain_moves(analysis)
        if analysis.safe:
            return moves
        low, cells = lowest_cells(analysis)
        cell = cells[0] if len(cells) == 1 else self._rng.choice(cells)
        moves.append(
            Move("open", cell, guess=True, risk=float(low), reason=Lowest(low, len(cells)))
        )
        return moves
