"""Exact endgame: the optimal win probability by game-tree search over the layouts.

When few layouts remain (say at most 1,000), they can be listed, and the best play
found exactly. A layout is an ``int`` bit mask over the board's cell indices (bit ``i``
set: cell ``i`` is a mine). A *state* is the set of layouts still consistent with what
has been seen; every cell safe in all of them is opened at once (that never hurts and
tells more), so the open cells, and hence the state, are a function of the layout set
alone: the set is the transposition key.

``wins(S)``, the number of layouts of ``S`` that optimal play wins, is 1 for a single
layout, else the maximum over uncertain cells ``c`` of the sum, over the digits ``d`` that
``c`` can show, of ``wins(closure(S | c safe, shows d))``, where the closure also splits
by the digits of the cells newly certain to be safe. Win probability: ``wins(S)/|S|``,
exact in integers. A cell whose safe layouts are fewer than the best found so far is
skipped (it cannot do better), and results are memoised per game.

Complexity: exponential in the worst case (the state space is the lattice of layout
subsets the digits can separate); bounded by ``budget`` node expansions, beyond which
:class:`SearchBudgetExceeded` is raised and the caller falls back to a heuristic.
Listing the layouts: backtracking over the frontier cells with the digits' bounds, then
every choice of the remaining mines among the interior cells: O(layouts * cells).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from minesolver.position import FLAG, HIDDEN, Cell, Position

__all__ = [
    "EndgameSolver",
    "SearchBudgetExceeded",
    "TooManyLayouts",
    "enumerate_layouts",
]


class SearchBudgetExceeded(RuntimeError):
    """The search needed more node expansions than its budget."""


class TooManyLayouts(RuntimeError):
    """More consistent layouts than the limit asked for."""


def enumerate_layouts(position: Position, limit: int) -> list[int]:
    """Every layout of the hidden cells consistent with the digits and the total.

    A layout is a bit mask of mine cell indices (flags are not included: they are mines
    in every layout). Raises :class:`TooManyLayouts` beyond ``limit`` layouts, and
    ``ValueError`` when the total is unknown.
    """
    if position.mines is None:
        raise ValueError("the endgame search needs the total number of mines")
    cells = position.cells
    nbrs = position.neighbour_indices()
    to_place = position.mines - cells.count(FLAG)
    hidden = [i for i, v in enumerate(cells) if v == HIDDEN]
    # equations: [need, unassigned count] per digit touching a hidden cell
    need: list[int] = []
    free: list[int] = []
    cell_eqs: dict[int, list[int]] = {}
    for i, d in enumerate(cells):
        if d < 0:
            continue
        around = [j for j in nbrs[i] if cells[j] == HIDDEN]
        if not around:
            continue
        e = len(need)
        need.append(d - sum(1 for j in nbrs[i] if cells[j] == FLAG))
        free.append(len(around))
        for j in around:
            cell_eqs.setdefault(j, []).append(e)
    frontier = _frontier_order(hidden, cell_eqs, nbrs)
    interior = [i for i in hidden if i not in cell_eqs]
    out: list[int] = []

    def emit(mask: int, placed: int) -> None:
        rest = to_place - placed
        if rest < 0 or rest > len(interior):
            return
        for combo in combinations(interior, rest):
            m = mask
            for j in combo:
                m |= 1 << j
            out.append(m)
            if len(out) > limit:
                raise TooManyLayouts(f"more than {limit} layouts")

    def walk(k: int, mask: int, placed: int) -> None:
        if placed > to_place:
            return
        if k == len(frontier):
            emit(mask, placed)
            return
        j = frontier[k]
        eqs = cell_eqs[j]
        for mine in (0, 1):
            ok = True
            for e in eqs:
                free[e] -= 1
                need[e] -= mine
            for e in eqs:
                if need[e] < 0 or need[e] > free[e]:
                    ok = False
                    break
            if ok:
                walk(k + 1, mask | (mine << j), placed + mine)
            for e in eqs:
                free[e] += 1
                need[e] += mine

    walk(0, 0, 0)
    return out


def _frontier_order(
    hidden: list[int], cell_eqs: dict[int, list[int]], nbrs: tuple[tuple[int, ...], ...]
) -> list[int]:
    """Frontier cells in breadth-first order, so that equations close early."""
    order: list[int] = []
    seen: set[int] = set()
    for start in hidden:
        if start not in cell_eqs or start in seen:
            continue
        queue = [start]
        seen.add(start)
        while queue:
            i = queue.pop(0)
            order.append(i)
            for j in nbrs[i]:
                if j in cell_eqs and j not in seen:
                    seen.add(j)
                    queue.append(j)
    return order


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class EndgameSolver:
    """Optimal play over an explicit set of layouts, with a transposition cache.

    One solver serves a whole game (the board size is fixed); :meth:`clear` forgets
    the cache. ``budget`` caps the node expansions of one :meth:`best_move` call.
    """

    def __init__(self, budget: int = 20_000) -> None:
        self.budget = budget
        self._memo: dict[frozenset[int], tuple[int, int]] = {}
        self._nmask: list[int] = []
        self._size: tuple[int, int] = (0, 0)
        self._nodes = 0

    def clear(self) -> None:
        """Forget the transposition cache (a new game)."""
        self._memo.clear()

    def _prepare(self, position: Position) -> None:
        size = (position.width, position.height)
        if size != self._size:
            self._size = size
            self._memo.clear()
            self._nmask = [
                sum(1 << j for j in nb) for nb in position.neighbour_indices()
            ]

    def best_move(self, position: Position, layouts: list[int]) -> tuple[Cell, int, int]:
        """The optimal cell to open, the layouts it wins and how many there are.

        ``layouts`` are the consistent layouts of ``position`` (bit masks over hidden
        cells, as :func:`enumerate_layouts` gives). The position must have no certainly
        safe hidden cell left unopened. Raises :class:`SearchBudgetExceeded`.
        """
        self._prepare(position)
        self._nodes = 0
        state = frozenset(layouts)
        hidden = sum(1 << i for i, v in enumerate(position.cells) if v == HIDDEN)
        wins, cell = self._solve(state, hidden)
        if cell < 0:
            raise ValueError("no uncertain cell to open")
        return position.coords(cell), wins, len(state)

    def win_count(self, position: Position, layouts: list[int]) -> int:
        """The number of ``layouts`` that optimal play wins from ``position``."""
        self._prepare(position)
        self._nodes = 0
        hidden = sum(1 << i for i, v in enumerate(position.cells) if v == HIDDEN)
        return self._closed_wins(frozenset(layouts), hidden, 0)

    def _closed_wins(self, state: frozenset[int], hidden: int, opened: int) -> int:
        """Wins of ``state`` after opening every cell safe in all its layouts.

        ``opened`` holds the cells whose digits already agree across ``state``.
        """
        if len(state) == 1:
            return 1
        any_mine = 0
        for layout in state:
            any_mine |= layout
        newly = hidden & ~any_mine & ~opened
        if newly:
            parts: dict[tuple[int, ...], list[int]] = {}
            nmask = self._nmask
            masks = [nmask[c] for c in _bits(newly)]
            for layout in state:
                # the digits the newly opened cells show under this layout
                key = tuple(map(int.bit_count, map(layout.__and__, masks)))
                parts.setdefault(key, []).append(layout)
            if len(parts) > 1:
                now_open = opened | newly
                return sum(
                    self._closed_wins(frozenset(p), hidden, now_open) for p in parts.values()
                )
        return self._solve(state, hidden)[0]

    def _solve(self, state: frozenset[int], hidden: int) -> tuple[int, int]:
        """``(wins, best cell)`` of a closed state; cell -1 when the state is won."""
        if len(state) == 1:
            return 1, -1
        hit = self._memo.get(state)
        if hit is not None:
            return hit
        self._nodes += 1
        if self._nodes > self.budget:
            raise SearchBudgetExceeded(f"endgame search exceeded {self.budget} nodes")
        any_mine = 0
        all_mine = -1
        for layout in state:
            any_mine |= layout
            all_mine &= layout
        safe_cells = hidden & ~any_mine
        uncertain = any_mine & ~all_mine & hidden
        nmask = self._nmask
        # candidates by the number of layouts in which they are safe, most first
        # (one pass over each layout's uncertain mines, not one pass per cell)
        mines_at: dict[int, int] = dict.fromkeys(_bits(uncertain), 0)
        for layout in state:
            for c in _bits(layout & uncertain):
                mines_at[c] += 1
        size = len(state)
        counts = sorted(((size - m, c) for c, m in mines_at.items()), reverse=True)
        best, best_cell = 0, -1
        seen_split: set[tuple[frozenset[int], ...]] = set()
        for safe_count, c in counts:
            if safe_count <= best:
                break
            buckets: list[list[int]] = [[] for _ in range(9)]  # by the digit c shows
            bit = 1 << c
            around = nmask[c]
            for layout in state:
                if not layout & bit:
                    buckets[(layout & around).bit_count()].append(layout)
            split = tuple(sorted((frozenset(g) for g in buckets if g), key=min))
            if split in seen_split:  # the same information as a cell already tried
                continue
            seen_split.add(split)
            opened = safe_cells | bit
            total = sum(self._closed_wins(g, hidden & ~bit, opened) for g in split)
            if total > best:
                best, best_cell = total, c
        result = (best, best_cell)
        self._memo[state] = result
        return result
