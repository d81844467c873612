"""Efficiency measures of a known board: 3BV, openings, islands, ZiNi, HZiNi and rZiNi.

Speed players grade a finished board by its 3BV per second and by its efficiency, 3BV per
click. How few clicks a board needs is estimated by greedy players everybody quotes:

- **3BV** (Bechtel's Board Benchmark Value): the fewest *left* clicks that clear the board,
  one per *opening* (an 8-connected region of zeros, opened with its border by one click)
  plus one per digit next to no zero. *Islands* are the 8-connected regions of those
  digits.
- **ZiNi** (Zimmermann and Nikolaus): repeatedly take the cell of highest *premium* (the
  3BV a chord there would clear, less the clicks it costs: the flags it needs, the chord
  and, when closed, the click that opens it), open it, flag its mines and chord it; when no
  premium is positive, click the first cell that still needs a click.
- **HZiNi** ("human" ZiNi): click every opening first, then chord only on open cells.
- **rZiNi**: ZiNi with ties broken at random, the best of many runs.

:func:`zini` and :func:`hzini` are exact replicas of ms-toollib's ``cal_zini`` and
``cal_hzini`` (the original algorithm, with its quirks: the cells are scanned by columns,
a border digit remembers at most two openings, a chord is counted even when it opens
nothing), so the numbers agree with Metasweeper's. They are upper bounds on the fewest
clicks; :mod:`minesolver.game.clicks` proves the minimum.

>>> from minesolver.game import Layout
>>> layout = Layout.from_cells(4, 3, [(3, 0), (3, 2)])
>>> m = board_measures(layout)
>>> m.bbbv, m.openings, m.islands, m.zini, m.hzini
(2, 1, 1, 2, 2)

Cost: the 3BV, openings and islands are one flood fill, O(cells). A ZiNi run makes at most
one step per cell; the original scans the board for the highest premium at each step
(O(cells²)), here a heap finds the same cell, so a run is O(cells log cells) (a few
milliseconds on expert, about a second on 256x256); rZiNi costs ``iterations`` runs.
"""

from __future__ import annotations

import heapq
import random
import time
from dataclasses import dataclass

from minesolver.game.layouts import Layout
from minesolver.game.move import Move
from minesolver.game.rules import Game
from minesolver.position import Cell, neighbour_table

__all__ = [
    "MINE",
    "BoardMeasures",
    "BoardStats",
    "ZiniPlays",
    "ZiniSearch",
    "bbbv",
    "best_zini_plays",
    "board_digits",
    "board_measures",
    "board_stats",
    "hzini",
    "rzini",
    "zini",
    "zini_moves",
]

MINE = -1
"""The value :func:`board_digits` gives a mine."""


def board_digits(layout: Layout) -> tuple[int, ...]:
    """Each cell's number of mines around it, row-major, :data:`MINE` (-1) for a mine.

    >>> board_digits(Layout.from_cells(3, 1, [(2, 0)]))
    (0, 1, -1)
    """
    table = neighbour_table(layout.width, layout.height)
    mine = [False] * (layout.width * layout.height)
    for i in layout.mine_indices:
        mine[i] = True
    return tuple(
        MINE if m else sum(mine[j] for j in around) for m, around in zip(mine, table, strict=True)
    )


@dataclass(frozen=True, slots=True)
class BoardMeasures:
    """A board's efficiency figures: its size, 3BV, openings, islands, ZiNi and HZiNi.

    ``islands`` counts the 8-connected regions of the digits next to no zero (each such
    digit is one left click of the 3BV); ``zini`` and ``hzini`` are ms-toollib's greedy
    estimates of the fewest clicks (:func:`zini`, :func:`hzini`).
    """

    width: int
    height: int
    mines: int
    bbbv: int
    openings: int
    islands: int
    zini: int
    hzini: int


@dataclass(frozen=True, slots=True)
class BoardStats:
    """A layout's static figures. ``digits``: each cell's mine count around it
    (:data:`MINE` for a mine), row-major; ``openings``: the 8-connected regions of zeros;
    ``island_cells``: the digits next to no zero (each one click of the 3BV);
    ``islands``: the 8-connected regions of those digits."""

    digits: tuple[int, ...]
    openings: int
    islands: int
    island_cells: frozenset[int]

    @property
    def bbbv(self) -> int:
        """The 3BV: openings plus island digits."""
        return self.openings + len(self.island_cells)


def board_stats(layout: Layout) -> BoardStats:
    """The static figures of ``layout``, as Metasweeper and ms-toollib count them; O(cells)
    (one flood fill).

    >>> s = board_stats(Layout.from_cells(4, 1, [(3, 0)]))
    >>> s.digits, s.openings, s.islands, s.bbbv
    ((0, 0, 1, -1), 1, 0, 1)
    """
    digits = board_digits(layout)
    table = neighbour_table(layout.width, layout.height)
    island = frozenset(
        i for i, d in enumerate(digits) if d > 0 and all(digits[j] != 0 for j in table[i])
    )
    zeros = {i for i, d in enumerate(digits) if d == 0}
    return BoardStats(digits, _regions(zeros, table), _regions(set(island), table), island)


def bbbv(layout: Layout) -> int:
    """The 3BV: openings plus the digits next to no zero; O(cells).

    >>> bbbv(Layout.from_cells(3, 3, [(1, 1)]))
    8
    """
    return board_stats(layout).bbbv


def board_measures(layout: Layout) -> BoardMeasures:
    """3BV, openings, islands, ZiNi and HZiNi of ``layout``: O(cells log cells) (ZiNi)."""
    stats = board_stats(layout)
    return BoardMeasures(
        width=layout.width,
        height=layout.height,
        mines=len(layout.mine_indices),
        bbbv=stats.bbbv,
        openings=stats.openings,
        islands=stats.islands,
        zini=zini(layout),
        hzini=hzini(layout),
    )


def _regions(cells: set[int], table: tuple[tuple[int, ...], ...]) -> int:
    """The number of 8-connected regions of ``cells`` (consumed)."""
    count = 0
    while cells:
        count += 1
        stack = [cells.pop()]
        while stack:
            for j in table[stack.pop()]:
                if j in cells:
                    cells.remove(j)
                    stack.append(j)
    return count


# -- ZiNi ----------------------------------------------------------------------------------


def zini(layout: Layout) -> int:
    """ZiNi: the clicks of the greedy chording player, as ms-toollib's ``cal_zini``.

    >>> zini(Layout.from_cells(3, 3, []))
    1
    """
    return _Zini(layout).run(human=False, rng=None)


def hzini(layout: Layout) -> int:
    """HZiNi: every opening clicked first, then chords on open cells only, as ms-toollib's
    ``cal_hzini``.

    >>> hzini(Layout.from_cells(3, 1, [(1, 0)]))
    2
    """
    return _Zini(layout).run(human=True, rng=None)


def rzini(layout: Layout, rng: random.Random, iterations: int = 100) -> int:
    """Random-restart ZiNi: the fewest clicks of ``iterations`` ZiNi runs that break ties
    among the best premiums (and among the cells left to click) at random, and of the
    deterministic run; never more than :func:`zini`. ``rng`` makes it reproducible.

    The runs are ms-toollib's ``cal_rzini``'s (the same ties broken uniformly), from
    ``rng`` instead of the operating system's randomness, and the deterministic run is
    counted too; on 50 boards of each level, 100 runs of each give the same means
    (``benchmarks/bench_efficiency.py``). O(iterations * ZiNi).

    >>> rzini(Layout.from_cells(3, 3, [(1, 1)]), random.Random(1), iterations=5)
    5
    """
    if iterations < 0:
        raise ValueError(f"rzini: iterations {iterations} is negative")
    start = _Zini(layout)
    best = start.clone().run(human=False, rng=None)
    for _ in range(iterations):
        best = min(best, start.clone().run(human=False, rng=rng))
    return best


@dataclass(frozen=True, slots=True)
class ZiniPlays:
    """The best of the ZiNi family's plays on a board (:func:`best_zini_plays`).

    ``moves``: the fewest useful moves of any run (they win through :meth:`Game.push
    <minesolver.game.Game.push>`); ``zini``, ``hzini`` and ``rzini``: the figures of the
    runs as ms-toollib counts them (``rzini`` the best of the deterministic run and the
    random ones); ``runs``: the random runs made; ``cut``: whether ``deadline`` stopped
    the random runs early."""

    moves: tuple[Move, ...]
    zini: int
    hzini: int
    rzini: int
    runs: int
    cut: bool


def best_zini_plays(
    layout: Layout,
    rng: random.Random,
    runs: int,
    deadline: float | None = None,
    mutations: int | None = None,
) -> ZiniPlays:
    """The plays of ZiNi, HZiNi and ``runs`` ZiNi runs with random ties (as ``cal_rzini``
    makes them), then ``mutations`` runs (by default ``runs``) that replay the ties of the
    best run so far up to a random point and break the later ones at random (a local
    search around the best play: restarts alone rarely find the best ties on expert), and
    the fewest useful moves among them: never more than any of their figures, since a
    run's useful moves are among its counted clicks. The runs stop early when
    ``time.monotonic()`` passes ``deadline`` (a safety net only: the answer then depends
    on the machine, and ``cut`` says so).

    O((runs + mutations + 2) * ZiNi): the board's set-up is made once and copied for each
    run, and a run's useful moves (a replay of its clicks) are worked out only when its
    figure could match the best so far.

    >>> p = best_zini_plays(Layout.from_cells(3, 3, [(1, 1)]), random.Random(1), 5)
    >>> len(p.moves), p.zini, p.hzini, p.rzini, p.runs, p.cut
    (5, 5, 6, 5, 5, False)
    """
    if runs < 0 or (mutations is not None and mutations < 0):
        raise ValueError(f"best_zini_plays: runs {runs}, mutations {mutations}: negative")
    return ZiniSearch(layout, rng).search(runs, runs if mutations is None else mutations, deadline)


class ZiniSearch:
    """:func:`best_zini_plays` in steps: ZiNi's and HZiNi's plays at the start, then each
    :meth:`search` goes on from where the last one stopped (the same runs as one call
    making them all), so a caller can make more runs only where they may help."""

    def __init__(self, layout: Layout, rng: random.Random) -> None:
        start = _Zini(layout)
        plays = [start.clone(), start.clone()]
        self.zini = plays[0].run(human=False, rng=None)
        self.hzini = plays[1].run(human=True, rng=None)
        self.best = min((p.useful_moves() for p in plays), key=len)
        self.rng, self.rzini, self.runs, self.cut = rng, self.zini, 0, False
        self.best_ties: list[int] | None = None
        self.best_states: dict[int, _Zini] = {}
        start.begin(human=False)
        self.start = start

    def search(self, runs: int, mutations: int, deadline: float | None = None) -> ZiniPlays:
        """``runs`` runs with random ties, then ``mutations`` around the best run so far
        (random ones while there is none), stopped at ``deadline``; the plays so far."""
        rng = self.rng
        for k in range(runs + mutations):
            if deadline is not None and time.monotonic() >= deadline:
                self.cut = True
                break
            if k < runs or self.best_ties is None:
                ties, states = _Ties(rng, []), {0: self.start}
            else:  # the best run's first ties, then new ones
                ties = _Ties(rng, self.best_ties[: rng.randrange(len(self.best_ties) + 1)])
                states = {a: z for a, z in self.best_states.items() if a <= len(ties.drawn)}
            # resumed from the best run's latest state before the new draws: the same run
            # as one replayed from the start (a state depends only on the draws before it)
            ties.at = max(states)
            z = states[ties.at].clone()
            count = z.play(ties, states)
            if k < runs:
                self.runs += 1
                self.rzini = min(self.rzini, count)
            if z.useful < len(self.best):
                self.best = z.useful_moves()
            if z.useful <= len(self.best):  # ties too: a plateau is a way on
                self.best_ties, self.best_states = ties.drawn, states
        return ZiniPlays(self.best, self.zini, self.hzini, self.rzini, self.runs, self.cut)


class _Ties(random.Random):
    """The random tie-breaks of a run: ``prefix`` replayed first, then fresh draws from
    ``rng``; every draw is kept in ``drawn``, so the run can be replayed up to any point.
    (A run given the same first draws makes the same first choices: the ties at each
    step depend only on the choices before it.)"""

    def __init__(self, rng: random.Random, prefix: list[int]) -> None:
        super().__init__(0)  # its own state is never drawn from
        self.rng = rng
        self.drawn = list(prefix)
        self.at = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is not None or step != 1:
            raise ValueError("only randrange(n) draws ties")
        if self.at < len(self.drawn) and self.drawn[self.at] < start:
            value = self.drawn[self.at]
        else:
            value = self.rng.randrange(start)
            del self.drawn[self.at :]
            self.drawn.append(value)
        self.at += 1
        return value


def zini_moves(
    layout: Layout, *, human: bool = False, rng: random.Random | None = None
) -> tuple[Move, ...]:
    """The clicks of one ZiNi run (HZiNi with ``human``; ties at random with ``rng``) as
    moves that replay through :meth:`Game.push <minesolver.game.Game.push>` to a won game.

    The moves that change nothing (a chord that opens no cell, the flags and chord made
    after the last cell opened) are left out, so there may be fewer of them than the
    figure :func:`zini` counts.

    >>> [(m.kind, m.cell) for m in zini_moves(Layout.from_cells(3, 1, [(2, 0)]))]
    [('open', (0, 0))]
    """
    z = _Zini(layout)
    z.run(human=human, rng=rng)
    return z.useful_moves()


class _Zini:
    """One run of the ZiNi family on a board: the original algorithm's state.

    Cells are indexed by columns (``column * height + row``), as the original scans them:
    the greedy choice takes the first best premium in that order, so the order is part of
    the figure. The original scans the whole board for that premium at every step; here a
    heap of ``(-premium, cell)`` (stale entries skipped as they surface) gives the same
    first best cell, each opening keeps the list of its cells, and a Fenwick tree over the
    cells still to click gives the first (or the k-th, for random ties) in O(log cells):
    the same clicks in O(cells log cells) instead of O(cells²).
    """

    def __init__(self, layout: Layout) -> None:
        w, h = layout.width, layout.height
        self.width, self.height = w, h
        n = w * h
        mine = [False] * n
        for i in layout.mine_indices:
            mine[(i % w) * h + i // w] = True
        self.mine = mine
        self.mines = len(layout.mine_indices)
        # the 3x3 box around each cell, itself included, in the original's order
        box: list[tuple[int, ...]] = []
        for c in range(w):
            for r in range(h):
                box.append(
                    tuple(
                        cc * h + rr
                        for rr in range(max(r - 1, 0), min(r + 1, h - 1) + 1)
                        for cc in range(max(c - 1, 0), min(c + 1, w - 1) + 1)
                    )
                )
        self.box = box
        number = [sum(mine[j] for j in box[i]) for i in range(n)]
        self.number = number
        opening = [0] * n
        opening2 = [0] * n
        ops = 0
        for i in range(n):
            if not mine[i] and number[i] == 0 and opening[i] == 0:
                ops += 1
                opening[i] = ops
                stack = [i]
                while stack:
                    for j in box[stack.pop()]:
                        if number[j] != 0:
                            if opening[j] == 0:
                                opening[j] = ops
                            elif opening[j] != ops and opening2[j] == 0:
                                opening2[j] = ops
                        elif opening[j] == 0:
                            opening[j] = ops
                            stack.append(j)
        self.opening, self.opening2 = opening, opening2
        # each opening's cells (its zeros and its border), in the scan's order
        members: list[list[int]] = [[] for _ in range(ops + 1)]
        for j in range(n):
            if opening[j]:
                members[opening[j]].append(j)
            if opening2[j]:
                members[opening2[j]].append(j)
        for cells in members:
            cells.sort()
        self.members = members
        premium = [-number[i] - 2 for i in range(n)]
        for i in range(n):
            if number[i] == 0:
                premium[i] += 1
            else:
                adj = sum(1 for j in box[i] if not mine[j] and opening[j] == 0)
                premium[i] += adj + (opening[i] != 0) + (opening2[i] != 0)
        self.premium = premium
        self.opened = [False] * n
        self.flagged = [False] * n
        self.closed = n
        self.count = 0
        self.moves: list[Move] = []
        self.human = False
        self.useful = 0
        self.flag_used = [False] * n
        self.heap: list[tuple[int, int]] = []
        # the cells a fallback click may take: safe, closed, a zero or in no opening
        self.left = _Fenwick(
            [not mine[j] and (number[j] == 0 or opening[j] == 0) for j in range(n)]
        )

    def clone(self) -> _Zini:
        """A fresh copy of this run's state, sharing the board's fixed structure (the
        boxes, digits, openings): a new run without the set-up's cost, O(cells)."""
        z = object.__new__(_Zini)
        z.__dict__.update(self.__dict__)
        z.premium = list(self.premium)
        z.opened = list(self.opened)
        z.flagged = list(self.flagged)
        z.flag_used = list(self.flag_used)
        z.moves = list(self.moves)
        z.heap = list(self.heap)
        z.left = self.left.clone()
        return z

    def _cell(self, i: int) -> Cell:
        return (i // self.height, i % self.height)

    def _bump(self, j: int, by: int) -> None:
        self.premium[j] += by
        if not self.mine[j] and (self.opened[j] or not self.human):
            heapq.heappush(self.heap, (-self.premium[j], j))

    def _open(self, i: int) -> None:
        # :meth:`_bump` written out on the hot path (most of a run's time): the same
        # premiums and the same heap entries
        opened, mine, premium, heap = self.opened, self.mine, self.premium, self.heap
        opened[i] = True
        if not mine[i] and (self.number[i] == 0 or self.opening[i] == 0):
            self.left.remove(i)
        premium[i] += 1
        if not mine[i]:
            heapq.heappush(heap, (-premium[i], i))
        if self.opening[i] == 0:
            human = self.human
            for j in self.box[i]:
                p = premium[j] - 1
                premium[j] = p
                if not mine[j] and (opened[j] or not human):
                    heapq.heappush(heap, (-p, j))
        self.closed -= 1

    def _reveal(self, i: int) -> None:
        opened = self.opened
        if opened[i] or self.flagged[i]:
            return
        if self.number[i] != 0:
            self._open(i)
            return
        mine, premium, heap, human = self.mine, self.premium, self.heap, self.human
        for j in self.members[self.opening[i]]:
            if not opened[j]:
                self._open(j)
            p = premium[j] - 1
            premium[j] = p
            if not mine[j] and (opened[j] or not human):
                heapq.heappush(heap, (-p, j))

    def _click(self, i: int) -> None:
        self._reveal(i)
        self.count += 1
        self.useful += 1
        self.moves.append(Move("open", self._cell(i)))

    def _flag_around(self, i: int) -> None:
        for j in self.box[i]:
            if self.mine[j] and not self.flagged[j]:
                self.count += 1
                self.flagged[j] = True
                self.moves.append(Move("flag", self._cell(j)))
                for k in self.box[j]:
                    self._bump(k, 1)

    def _chord(self, i: int) -> None:
        self.count += 1
        self.moves.append(Move("chord", self._cell(i)))
        for j in self.box[i]:
            self._reveal(j)

    def _best(self, rng: random.Random | None) -> int | None:
        """The cell the original's scan takes: the first of the highest premium when it is
        at least 0 (among them one at random with ``rng``), else None. O(log cells)
        amortised, plus the ties with ``rng``."""
        heap, premium, opened, mine = self.heap, self.premium, self.opened, self.mine
        while heap:
            p, i = heap[0]
            if -p != premium[i] or mine[i] or (self.human and not opened[i]):
                heapq.heappop(heap)  # stale: the premium moved on since
                continue
            if -p < 0:
                return None
            if rng is None:
                return i
            ties: set[int] = set()
            while heap and heap[0][0] == p:  # every live entry of that premium, once
                j = heapq.heappop(heap)[1]
                if premium[j] == -p and not mine[j] and (opened[j] or not self.human):
                    ties.add(j)
            order = sorted(ties)
            for j in order:  # put back without the stale entries and the duplicates
                heapq.heappush(heap, (p, j))
            return order[_below(rng, len(order))]
        return None

    def run(self, *, human: bool, rng: random.Random | None) -> int:
        """Play to the end and return the clicks counted (the original's figure).

        ``useful`` counts, of those clicks, the ones :meth:`useful_moves` keeps: the left
        clicks, the chords that opened something and the flags such a chord used."""
        self.begin(human=human)
        return self.play(rng)

    def begin(self, *, human: bool) -> None:
        """The run's start: HZiNi's clicks on every opening, the heap of premiums."""
        mine, opened, number = self.mine, self.opened, self.number
        n = len(mine)
        self.human = human
        if human:  # HZiNi clicks every opening first
            for j in range(n):
                if not mine[j] and number[j] == 0 and not opened[j]:
                    self._click(j)
        self.heap = [
            (-self.premium[i], i) for i in range(n) if not mine[i] and (opened[i] or not human)
        ]
        heapq.heapify(self.heap)

    def play(self, rng: random.Random | None, states: dict[int, _Zini] | None = None) -> int:
        """Play on from :meth:`begin` (or a state kept on the way) to the end and return
        the clicks counted. With ``states`` (and ``rng`` a :class:`_Ties`), a copy of the
        run's state is kept there before every :data:`_STATE_EVERY`-th tie drawn, keyed by
        the draws made, to resume from: O(cells) each, a tenth of a run on expert."""
        opened = self.opened
        while self.closed > self.mines:
            if (
                states is not None
                and isinstance(rng, _Ties)
                and rng.at % _STATE_EVERY == 0
                and rng.at not in states
            ):
                states[rng.at] = self.clone()
            i = self._best(rng)
            if i is not None:
                if not opened[i]:
                    self._click(i)
                before = self.closed
                self._flag_around(i)
                self._chord(i)
                if self.closed != before:
                    self.useful += 1
                    for j in self.box[i]:
                        if self.flagged[j] and not self.flag_used[j]:
                            self.flag_used[j] = True
                            self.useful += 1
                continue
            fallback = self._fallback(rng)
            if fallback is None:
                break
            self._click(fallback)
        return self.count

    def _fallback(self, rng: random.Random | None) -> int | None:
        """The cell the original clicks when no premium is positive: the first safe closed
        cell that is a zero or in no opening (one at random with ``rng``), else None."""
        size = self.left.total
        if size == 0:
            return None
        return self.left.kth(0 if rng is None else _below(rng, size))

    def useful_moves(self) -> tuple[Move, ...]:
        """The run's moves less those that change nothing (see :func:`zini_moves`): a
        flag is kept when a chord that opens something needs it, just before that chord."""
        game = Game.from_layout(_row_major(self))
        table = neighbour_table(self.width, self.height)
        mine = set(game.layout.mine_indices if game.layout else ())
        is_open: set[int] = set()
        pending: set[int] = set()
        kept: list[Move] = []
        w = self.width
        for move in self.moves:
            if game.over:
                break
            x, y = move.cell
            i = y * w + x
            if move.kind == "flag":
                pending.add(i)
                continue
            if move.kind == "chord":
                if all(j in is_open or j in mine for j in table[i]):
                    continue
                for j in sorted(pending.intersection(table[i])):
                    game.push(Move("flag", (j % w, j // w)))
                    kept.append(Move("flag", (j % w, j // w)))
                pending.difference_update(table[i])
            elif i in is_open:
                continue
            step = game.push(move)
            kept.append(move)
            is_open.update(cx + cy * w for cx, cy in step.opened)
        return tuple(kept)


_STATE_EVERY = 4
"""A run's state is kept before every this many tie draws (:meth:`_Zini.play`): about 13
copies on expert, where a run draws about 50 ties."""


def _below(rng: random.Random, n: int) -> int:
    return rng.randrange(n) if n > 1 else 0


class _Fenwick:
    """A set of cells 0..n-1 as a Fenwick tree: remove a cell, count them, find the k-th in
    index order, each O(log n)."""

    def __init__(self, members: list[bool]) -> None:
        n = len(members)
        tree = [0] * (n + 1)
        for i, inside in enumerate(members, start=1):
            if inside:
                tree[i] += 1
            parent = i + (i & -i)
            if parent <= n:
                tree[parent] += tree[i]
        self.tree, self.n, self.total = tree, n, sum(members)
        self.inside = list(members)
        self.top = 1 << max(n.bit_length() - 1, 0)

    def clone(self) -> _Fenwick:
        """An independent copy, O(n)."""
        f = object.__new__(_Fenwick)
        f.tree, f.n, f.total = list(self.tree), self.n, self.total
        f.inside, f.top = list(self.inside), self.top
        return f

    def remove(self, i: int) -> None:
        if not self.inside[i]:
            return
        self.inside[i] = False
        self.total -= 1
        i += 1
        while i <= self.n:
            self.tree[i] -= 1
            i += i & -i

    def kth(self, k: int) -> int:
        """The k-th member (0-based) in index order; ``k < total``."""
        pos, step, tree = 0, self.top, self.tree
        while step:
            nxt = pos + step
            if nxt <= self.n and tree[nxt] <= k:
                pos = nxt
                k -= tree[nxt]
            step >>= 1
        return pos


def _row_major(z: _Zini) -> Layout:
    w, h = z.width, z.height
    return Layout(w, h, tuple(sorted((i % h) * w + i // h for i in range(w * h) if z.mine[i])))
