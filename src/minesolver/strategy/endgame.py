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

from collections.abc import Callable
from itertools import combinations

from minesolver.errors import MinesolverError
from minesolver.position import FLAG, HIDDEN, Cell, Position

__all__ = [
    "EndgameSolver",
    "SearchBudgetExceeded",
    "TooManyLayouts",
    "enumerate_layouts",
]


class SearchBudgetExceeded(MinesolverError, RuntimeError):
    """The search needed more node expansions than its budget."""


class TooManyLayouts(MinesolverError, RuntimeError):
    """More consistent layouts than the limit asked for."""


def enumerate_layouts(position: Position, limit: int) -> list[int]:
    """Every layout of the hidden cells consistent with the digits and the total.

    A layout is a bit mask of mine cell indices (flags are not included: they are mines
    in every layout). Raises :class:`TooManyLayouts` beyond ``limit`` layouts, and
    ``ValueError`` when the total is unknown.

    >>> sorted(bin(m) for m in enumerate_layouts(Position.from_text("3x1x1\\nH1H\\n"), 10))
    ['0b1', '0b100']
    """
    if position.mines is None:
        raise ValueError("the endgame search needs the total number of mines")
    cells = position.cells
    to_place = position.mines - cells.count(FLAG)
    hidden = [i for i, v in enumerate(cells) if v == HIDDEN]
    need, free, cell_eqs = _digit_equations(position)
    frontier = _frontier_order(hidden, cell_eqs, position.neighbour_indices())
    interior = [i for i in hidden if i not in cell_eqs]
    out: list[int] = []

    def emit(mask: int, placed: int) -> None:
        """Every way to put the mines still to place on the interior cells."""
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

    _walk_frontier(frontier, cell_eqs, need, free, to_place, emit)
    return out


def _digit_equations(position: Position) -> tuple[list[int], list[int], dict[int, list[int]]]:
    """The digits touching a hidden cell as equations: per equation the mines it still
    needs and its number of hidden cells, and per hidden cell the equations it is in.
    O(cells)."""
    cells = position.cells
    nbrs = position.neighbour_indices()
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
    return need, free, cell_eqs


def _walk_frontier(
    frontier: list[int],
    cell_eqs: dict[int, list[int]],
    need: list[int],
    free: list[int],
    to_place: int,
    emit: Callable[[int, int], None],
) -> None:
    """Backtrack over the ``frontier`` cells in order, each safe then a mine, cutting a
    branch as soon as an equation can no longer be met (it needs more mines than it has
    cells left, or fewer than none) or more than ``to_place`` mines are placed;
    ``emit(mask, placed)`` for each complete frontier assignment. ``need`` and ``free``
    are updated in place and restored. O(assignments visited * equations per cell)."""

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


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (>= 0), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class EndgameSolver:
    """Optimal play over an explicit set of layouts, with a transposition cache.

    A set of layouts is a bitset over game-wide layout indices (each distinct layout mask
    gets one index the first time it is seen). For every hidden cell the solver keeps the
    bitset of layouts with a mine there and, per digit 0-8, of layouts in which the cell
    is safe and shows that digit: splitting a state by what a click shows is then nine
    big-integer ANDs, and counting a cell's safe layouts one popcount, instead of loops
    over the layouts. One solver serves a whole game (the board size is fixed);
    :meth:`clear` forgets the layouts and the cache. ``budget`` caps the node expansions
    of one :meth:`best_move` call.
    """

    def __init__(self, budget: int = 20_000) -> None:
        self.budget = budget
        self._memo: dict[int, tuple[int, int]] = {}
        self._nmask: list[int] = []
        self._size: tuple[int, int] = (0, 0)
        self._nodes = 0
        self._cells: list[int] = []  # cells the current search may open
        self._index: dict[int, int] = {}  # layout mask -> index
        self._layouts: list[int] = []  # index -> layout mask
        self._covered: list[int] = []  # index -> hidden cells its digit bits cover
        self._mine: dict[int, int] = {}  # cell -> layouts with a mine there
        self._digit: dict[int, list[int]] = {}  # cell -> per digit, layouts showing it

    def clear(self) -> None:
        """Forget the layouts and the transposition cache (a new game)."""
        self._memo.clear()
        self._index.clear()
        self._layouts.clear()
        self._covered.clear()
        self._mine.clear()
        self._digit.clear()

    def _prepare(self, position: Position) -> int:
        """Reset on a new board size; the hidden cells as a bit mask."""
        size = (position.width, position.height)
        if size != self._size:
            self._size = size
            self.clear()
            self._nmask = [sum(1 << j for j in nb) for nb in position.neighbour_indices()]
        return sum(1 << i for i, v in enumerate(position.cells) if v == HIDDEN)

    def _cover(self, k: int, layout: int, cells: int) -> None:
        """Record, for each cell of ``cells`` safe in ``layout``, the digit it shows."""
        bit = 1 << k
        nmask = self._nmask
        digit = self._digit
        for c in _bits(cells & ~layout):
            row = digit.get(c)
            if row is None:
                row = digit[c] = [0] * 9
            row[(layout & nmask[c]).bit_count()] |= bit

    def _register(self, layouts: list[int], hidden: int) -> int:
        """The bitset of ``layouts``, indexing the new ones. O(layouts * hidden cells)
        for new layouts, O(layouts) for known ones."""
        state = 0
        index = self._index
        mine = self._mine
        for layout in layouts:
            k = index.get(layout)
            if k is None:
                k = index[layout] = len(self._layouts)
                self._layouts.append(layout)
                self._covered.append(hidden)
                bit = 1 << k
                for c in _bits(layout):
                    mine[c] = mine.get(c, 0) | bit
                self._cover(k, layout, hidden)
            elif hidden & ~self._covered[k]:
                self._cover(k, layout, hidden & ~self._covered[k])
                self._covered[k] |= hidden
            state |= 1 << k
        return state

    def best_move(self, position: Position, layouts: list[int]) -> tuple[Cell, int, int]:
        """The optimal cell to open, the layouts it wins and how many there are.

        ``layouts`` are the consistent layouts of ``position`` (bit masks over hidden
        cells, as :func:`enumerate_layouts` gives). The position must have no certainly
        safe hidden cell left unopened. Raises :class:`SearchBudgetExceeded`.
        """
        state = self._start(position, layouts)
        safe, _, uncertain = self._classify(state, -1)
        wins, cell = self._solve(state, uncertain, safe)
        if cell < 0:
            raise ValueError("no uncertain cell to open")
        return position.coords(cell), wins, state.bit_count()

    def move_wins(self, position: Position, layouts: list[int], cell: Cell) -> int:
        """The number of ``layouts`` won by opening ``cell`` first, then playing
        optimally (the value of a move the search did not choose, say). As for
        :meth:`best_move`, the position must have no certainly safe cell left unopened.
        Raises ``ValueError`` when ``cell`` is not a hidden cell that is safe in some
        layout, and :class:`SearchBudgetExceeded`."""
        state = self._start(position, layouts)
        c = position.index(cell)
        if c not in self._cells:
            raise ValueError(f"cell {cell} is not a hidden cell safe in some layout")
        safe, _, _ = self._classify(state, -1)
        return sum(self._closed_wins(g, safe | 1 << c) for x in self._digit[c] if (g := state & x))

    def win_count(self, position: Position, layouts: list[int]) -> int:
        """The number of ``layouts`` that optimal play wins from ``position``."""
        return self._closed_wins(self._start(position, layouts), 0)

    def _start(self, position: Position, layouts: list[int]) -> int:
        """Register ``layouts``; fix the cells the search may open (every hidden cell
        that is not a mine in all of them). The root state's bitset."""
        hidden = self._prepare(position)
        self._nodes = 0
        state = self._register(layouts, hidden)
        mine = self._mine
        self._cells = [c for c in _bits(hidden) if state & mine.get(c, 0) != state]
        return state

    def _classify(self, state: int, opened: int) -> tuple[int, list[int], list[tuple[int, int]]]:
        """The cells of the search in ``state``: those safe in every layout (a bit mask),
        those of them not in ``opened``, and ``(safe layouts, cell)`` for the uncertain
        ones. O(cells * layouts / 64): one big-integer AND per cell."""
        size = state.bit_count()
        mine = self._mine
        safe = 0
        newly: list[int] = []
        uncertain: list[tuple[int, int]] = []
        for c in self._cells:
            m = state & mine.get(c, 0)
            if not m:
                safe |= 1 << c
                if not opened >> c & 1:
                    newly.append(c)
            elif m != state:
                uncertain.append((size - m.bit_count(), c))
        return safe, newly, uncertain

    def _closed_wins(self, state: int, opened: int) -> int:
        """Wins of ``state``, opening first every cell safe in all its layouts.

        ``opened`` holds the cells already open (their digits agree across ``state``).
        """
        if not state & (state - 1):  # a single layout
            return 1
        hit = self._memo.get(state)
        if hit is not None:
            return hit[0]
        safe, newly, uncertain = self._classify(state, opened)
        if newly:
            parts = [state]
            digit = self._digit
            for c in newly:
                parts = [g for p in parts for x in digit[c] if (g := p & x)]
            if len(parts) > 1:
                now_open = opened | safe
                wins = sum(self._closed_wins(p, now_open) for p in parts)
                self._memo[state] = (wins, -1)
                return wins
        return self._solve(state, uncertain, safe)[0]

    def _solve(self, state: int, uncertain: list[tuple[int, int]], safe: int) -> tuple[int, int]:
        """``(wins, best cell)`` of a closed state whose uncertain and safe cells are
        ``uncertain`` and ``safe`` (from :meth:`_classify`; the safe cells of a closed
        state are open already); cell -1 when the state is won."""
        if not state & (state - 1):
            return 1, -1
        hit = self._memo.get(state)
        if hit is not None and hit[1] >= 0:
            return hit
        self._nodes += 1
        if self._nodes > self.budget:
            raise SearchBudgetExceeded(f"endgame search exceeded {self.budget} nodes")
        # candidates by the number of layouts in which they are safe, most first
        uncertain.sort(reverse=True)
        best, best_cell = 0, -1
        seen_split: set[tuple[int, ...]] = set()
        digit = self._digit
        for safe_count, c in uncertain:
            if safe_count <= best:
                break
            split = tuple(sorted(g for x in digit[c] if (g := state & x)))
            if split in seen_split:  # the same information as a cell already tried
                continue
            seen_split.add(split)
            now_open = safe | 1 << c
            # each part wins at most its own layouts: stop once this cell cannot win more
            # than the best so far (it would not be chosen; nothing cut is memoised)
            total, rest = 0, safe_count
            for g in split:
                rest -= g.bit_count()
                total += self._closed_wins(g, now_open)
                if total + rest <= best:
                    break
            else:
                if total > best:
                    best, best_cell = total, c
        result = (best, best_cell)
        self._memo[state] = result
        return result
