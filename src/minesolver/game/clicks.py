"""The proved fewest clicks that clear a known board, with the clicks themselves.

A click is a left click (opens a closed cell; a zero floods), a right click (a flag) or a
chord (on an open digit whose mines are all flagged: opens its other neighbours); the
first click counts. ZiNi and its kin (:mod:`minesolver.game.efficiency`) are greedy upper
bounds; :func:`min_clicks` finds the minimum and proves it.

**The model.** Call the openings and the digits next to no zero (the *island* digits) the
board's *units*: the 3BV counts one left click per unit. Only three kinds of click are
worth making: a left click inside an opening (any zero of it: it opens at least what a
click on one of its border digits would, and more open cells never hurt) or on an island
digit; a flag on a mine (a flag on a safe cell only blocks: a chord around it explodes);
a chord on a digit. So a plan is three sets: units clicked ``x``, mines flagged ``f``,
digits chorded ``c``, and it costs ``|x| + |f| + |c|``. It clears the board iff, in the
graph whose arcs are *click → unit*, *opening → each border digit* and *chorded digit →
each neighbouring digit and each opening with a zero next to it*, every unit and every
chorded digit is reached from the clicks, and every mine around a chorded digit is
flagged: then the flags go first and the chords in the order the cells are reached.

**The programme.** Minimise ``Σx + Σf + Σc`` subject to ``c_d → f_m`` for each mine
``m`` around each digit ``d``, and the *cuts* of reachability: for each set ``S`` of
units and digits that no opening outside ``S`` borders, a click inside ``S`` or a chord of
a digit outside ``S`` next to it (for a set holding no unit, only when a digit ``t`` in it
is chorded). Every constraint is a clause and every cost 1, so this is weighted MaxSAT,
solved by RC2 (python-sat, a dependency of the package), a core-guided solver whose cost rises
through proved lower bounds to the optimum. The cuts are exponentially many and added
lazily: the formula starts with each unit's own cut (and each island's, each pair of
island digits', each opening's with its border, and each connected set of up to three
chord candidates', pairs only on a budget under 40 steps a cell:
:mod:`~minesolver.game.click_cuts`), and each answer that leaves something
unreached adds the cut of every unreached group (the nodes whose arcs in the answer lead
to it) and is solved again, incrementally, until an answer reaches everything. Each
answer is optimal for a relaxation, so its cost is a lower bound, and the last one is
feasible: optimal. On a budget of :data:`ORDER_WORK_PER_CELL` steps a cell or more,
the order of the chords is also stated whole, up front, compactly
(:mod:`~minesolver.game.click_order`: each chorded digit opened by something made
before it, the "before" acyclic by vertex elimination), so the first answer reaches
everything: one round, the cuts a safety net (and the loop for a board too large for
the whole order). One more clause, a flag only beside a chord, is
no cut: it holds for every plan without a wasted flag (removing one keeps a plan
winning and makes it cheaper), so the optimum, and every bound, is unchanged by it; it
prunes the search.
The SAT oracle is CaDiCaL (``cd19``): on four intermediate boards that Glucose left
unproved at 100,000 conflicts, it raised the bound by one or two clicks more on the same
budget (and, with these cuts, proved two of them).

Integer programming with HiGHS was tried first: its relaxation, even with lifted cover
cuts and max-flow separation of the fractional reach cuts, left each round's solve slow
and the rounds many (no intermediate board proved in 10 s, where RC2 proves most).

**The first sequence.** The best of ZiNi's, HZiNi's and :data:`ZINI_RUNS` ZiNi runs with
random ties (as ``cal_rzini`` makes them), then as many again (and, once the search is cut
unproved, one per :data:`WORK_PER_RUN` steps) that replay the best run's ties up to a
random point (:class:`~minesolver.game.efficiency.ZiniSearch`): never above their figures.

**The bound without search.** Units no one click can open two of (a left click opens one
unit; a chord only the units with a cell next to its digit) need one click each; a greedy
packing of them is a proved bound before any search (:func:`bound_without_search`), and
at least 1 on a board with a safe cell, so no answer's bound is ever 0 or below it.

**Bounded in work.** ``work`` counts the search's steps: each SAT conflict is one unit,
each call of the SAT oracle (a solve, or one propagation as RC2's detection of
at-most-one relations makes one per soft clause) a few units growing with the formula,
and each round its own share (its plan played, its unreached groups, its cuts added), so
every unit takes a bounded time (at most about 100 microseconds of CPU on the standard
levels) however many rounds a board makes. The same board and budget give the same
clicks, bound and proof on any machine and under any load: the steps are counted, never
timed. Past the budget the answer is the best winning sequence found (the first
sequence, or a round's answer with the units it leaves unreached clicked) with the best
proved lower bound (RC2's cost when stopped: each of its rises follows a call proved
unsatisfiable; a call stopped early never raises it), and ``cut`` is ``"work"``.
``seconds`` is only a safety deadline, checked between the first sequence's runs, before
each oracle call and round, and between slices of
100,000 conflicts of the SAT calls; an answer it cut
says so (``cut == "deadline"``), and only then may it differ.

Every answer's clicks replay through :meth:`Game.push <minesolver.game.Game.push>` to a
won game with exactly that many moves.

>>> from minesolver.game import Layout
>>> plan = min_clicks(Layout.from_cells(5, 1, [(2, 0)]))
>>> plan.count, plan.optimal, plan.lower_bound, plan.notation()
(2, True, 2, ['L 0,0', 'L 4,0'])

Cost: the runs are O(runs * cells log cells) (about 5 s on an unproved expert board at
the default 100 + 100 + 4,000, at most :data:`MAX_RUNS_AROUND` around the best); the
formula O(cells); each round one MaxSAT call (NP-hard; incremental, so later rounds
reuse the cores found) plus an O(cells²) search for the unreached groups. A beginner
board is proved in a few hundred steps; an intermediate one in thousands to tens of
thousands; an expert one, on more than half of the boards measured, within
:data:`DEFAULT_WORK` (the others' bounds are then reported;
``benchmarks/bench_efficiency.py``). 12,000 to 25,000 steps take a CPU second."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from minesolver.game._click_work import Cut, Meter, OutOfWork, round_work
from minesolver.game.click_cuts import CHORD_SET_SIZE, chord_sets, set_size
from minesolver.game.click_order import order_clauses
from minesolver.game.efficiency import MINE, ZiniSearch, board_digits
from minesolver.game.layouts import Layout
from minesolver.game.move import Move
from minesolver.game.rules import Game
from minesolver.position import neighbour_table

__all__ = [
    "DEFAULT_SECONDS",
    "DEFAULT_WORK",
    "MAX_RUNS_AROUND",
    "ORDER_WORK_PER_CELL",
    "WORK_PER_RUN",
    "ZINI_RUNS",
    "Cut",
    "MinClicks",
    "bound_without_search",
    "min_clicks",
    "move_notation",
    "parse_notation",
]

ZINI_RUNS = 100
"""ZiNi runs with random tie-breaks tried for the first sequence (as many as the usual
``cal_rzini``), and as many again around the best of them: about a millisecond each."""

WORK_PER_RUN = 25
"""One more run around the best ZiNi run per this many steps of work, on a board the search
leaves unproved (a run costs about as much time as 20 conflicts on expert), up to
:data:`MAX_RUNS_AROUND`."""

MAX_RUNS_AROUND = 4_000
"""The most runs around the best ZiNi run once the search is cut unproved (the default
budget's number before it grew: 4,000 such runs reached the best of 20,000 ``cal_rzini``
runs on the expert boards measured, docs/efficiency.md), so a larger budget goes to the
proof, not to them."""

DEFAULT_WORK = 500_000
"""The default work budget of :func:`min_clicks`: units of its search (a SAT conflict is
one; see the module docstring). On the 24 boards a level of
``benchmarks/bench_efficiency.py`` it proves 15 expert boards and 23 intermediate ones
(100,000 proved 1 of the first 12 expert boards and 10 of the first 12 intermediate
ones), at most about 55 seconds of CPU on an expert board (docs/efficiency.md)."""

DEFAULT_SECONDS = 600.0
"""The default safety deadline of :func:`min_clicks`, in seconds: far beyond what the
default work takes on the standard levels (up to about a minute of CPU on expert), even
on a machine several times busier; past it an answer says it was cut."""

_LETTER = {"open": "L", "flag": "R", "chord": "C"}
_KIND = {letter: kind for kind, letter in _LETTER.items()}


def move_notation(move: Move) -> str:
    """A click as players write it: ``L x,y`` (left), ``R x,y`` (right), ``C x,y`` (chord).

    >>> move_notation(Move("chord", (4, 2)))
    'C 4,2'
    """
    letter = _LETTER.get(move.kind)
    if letter is None:
        raise ValueError(f"move {move.kind!r} is not a click (open, flag or chord)")
    return f"{letter} {move.cell[0]},{move.cell[1]}"


def parse_notation(text: str) -> Move:
    """The click ``text`` names (:func:`move_notation`'s inverse).

    >>> parse_notation("R 5,5")
    Move(kind='flag', cell=(5, 5), guess=False, risk=0.0, reason=None)
    """
    letter, _, rest = text.strip().partition(" ")
    x, comma, y = rest.strip().partition(",")
    kind = _KIND.get(letter.upper())
    if kind is None or not comma or not x.isdigit() or not y.isdigit():
        raise ValueError(f"click {text!r}: expected 'L x,y', 'R x,y' or 'C x,y'")
    return Move(kind, (int(x), int(y)))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class MinClicks:
    """The fewest clicks found for a board, and what is proved about them.

    ``clicks`` clears the board (replayed through :meth:`Game.push
    <minesolver.game.Game.push>` it wins with exactly ``count`` moves); ``lower_bound``
    is proved: no sequence clears the board in fewer clicks. ``optimal`` is true when the
    two meet. ``rounds`` counts the MaxSAT programmes solved to the end, ``work`` the
    steps spent (SAT conflicts, oracle calls, rounds: see the module), ``seconds`` the
    time spent (the one figure that depends on the machine); ``cut`` what stopped the
    search short of a proof (``None`` when proved).
    """

    clicks: tuple[Move, ...]
    lower_bound: int
    rounds: int = 0
    seconds: float = 0.0
    work: int = 0
    cut: Cut | None = None

    @property
    def count(self) -> int:
        """The number of clicks of :attr:`clicks`."""
        return len(self.clicks)

    @property
    def optimal(self) -> bool:
        """Whether :attr:`count` is proved to be the minimum."""
        return self.lower_bound >= self.count

    def notation(self) -> list[str]:
        """The clicks as ``L x,y`` / ``R x,y`` / ``C x,y`` (:func:`move_notation`)."""
        return [move_notation(move) for move in self.clicks]


@dataclass(frozen=True, slots=True)
class _Board:
    """A board's structure for the programme (row-major cell indices).

    ``units``: each opening's zeros and then each island digit as a one-cell unit;
    ``unit_of[i]``: the unit a zero or island digit belongs to (-1 for other cells);
    ``border``: each opening's border digits; ``bordering[d]``: the openings a digit ``d``
    borders, in order (empty for other cells: a look-up instead of a scan of every
    opening); ``chords``: the digits worth chording (those with a safe neighbour)."""

    width: int
    digits: tuple[int, ...]
    table: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    openings: int
    unit_of: tuple[int, ...]
    border: tuple[frozenset[int], ...]
    bordering: tuple[tuple[int, ...], ...]
    chords: tuple[int, ...]
    mines_of: dict[int, tuple[int, ...]]

    @classmethod
    def of(cls, layout: Layout) -> _Board:
        digits = board_digits(layout)
        table = neighbour_table(layout.width, layout.height)
        n = len(digits)
        unit_of = [-1] * n
        units: list[tuple[int, ...]] = []
        border: list[frozenset[int]] = []
        for start in range(n):
            if digits[start] != 0 or unit_of[start] != -1:
                continue
            k = len(units)
            unit_of[start] = k
            zeros, edge, stack = [start], set(), [start]
            while stack:
                for j in table[stack.pop()]:
                    if digits[j] == 0 and unit_of[j] == -1:
                        unit_of[j] = k
                        zeros.append(j)
                        stack.append(j)
                    elif digits[j] > 0:
                        edge.add(j)
            units.append(tuple(sorted(zeros)))
            border.append(frozenset(edge))
        openings = len(units)
        bordering: list[tuple[int, ...]] = [()] * n
        for k, cells in enumerate(border):
            for b in cells:
                bordering[b] += (k,)
        for i in range(n):
            if digits[i] > 0 and all(digits[j] != 0 for j in table[i]):
                unit_of[i] = len(units)
                units.append((i,))
        chords = tuple(
            i for i in range(n) if digits[i] > 0 and any(digits[j] != MINE for j in table[i])
        )
        mines_of = {d: tuple(j for j in table[d] if digits[j] == MINE) for d in chords}
        return cls(
            layout.width, digits, table, tuple(units), openings, tuple(unit_of),
            tuple(border), tuple(bordering), chords, mines_of,
        )  # fmt: skip

    def chord_targets(self, d: int) -> set[tuple[str, int]]:
        """The nodes a chord on ``d`` reaches: ('u', unit) and ('d', digit)."""
        out: set[tuple[str, int]] = set()
        for j in self.table[d]:
            if self.digits[j] == 0:
                out.add(("u", self.unit_of[j]))
            elif self.digits[j] > 0:
                out.add(("d", j))
                if self.unit_of[j] >= 0:
                    out.add(("u", self.unit_of[j]))
        return out


def _reach(board: _Board, clicked: Iterable[int], chorded: set[int]) -> set[tuple[str, int]]:
    """The nodes reached from the clicked units through the borders and the chords."""
    seen: set[tuple[str, int]] = set()
    stack = [("u", u) for u in clicked]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        kind, v = node
        nxt: set[tuple[str, int]] = set()
        if kind == "u":
            if v < board.openings:
                nxt = {("d", b) for b in board.border[v]}
            else:
                nxt = {("d", board.units[v][0])}
        else:
            if board.unit_of[v] >= 0:
                nxt.add(("u", board.unit_of[v]))
            if v in chorded:
                nxt |= board.chord_targets(v)
        stack.extend(nxt - seen)
    return seen


def _sequence(board: _Board, layout: Layout, clicks: Sequence[int], chords: set[int]) -> list[Move]:
    """The plan (units clicked, digits chorded) as moves that win, made on a real game.

    Chords go as soon as their digit is open and they would open a cell (their mines
    flagged just before); the planned clicks fill in when no chord can go; then, while
    cells stay closed, :func:`_repair_click` clicks a unit (so a plan that does not reach
    everything is mended). Moves that would change nothing are left out."""
    w = board.width
    game = Game.from_layout(layout)
    digits, table, units = board.digits, board.table, board.units
    opened: set[int] = set()
    flagged: set[int] = set()
    moves: list[Move] = []
    todo = sorted(chords)
    planned = list(clicks)

    def push(move: Move) -> None:
        moves.append(move)
        opened.update(x + y * w for x, y in game.push(move).opened)

    while not game.over:
        ready = next(
            (
                d
                for d in todo
                if d in opened and any(digits[j] >= 0 and j not in opened for j in table[d])
            ),
            None,
        )
        if ready is not None:
            todo.remove(ready)
            for m in board.mines_of[ready]:
                if m not in flagged:
                    flagged.add(m)
                    push(Move("flag", (m % w, m // w)))
            push(Move("chord", (ready % w, ready // w)))
            continue
        cell = (
            _click_cell(board, units[planned.pop(0)])
            if planned
            else _repair_click(board, opened, todo)
        )
        if cell is None:
            break
        if cell not in opened:
            push(Move("open", (cell % w, cell // w)))
    return moves


def _repair_click(board: _Board, opened: set[int], todo: Sequence[int]) -> int | None:
    """The click that mends a plan left stuck: the closed unit that opens the most
    planned chords' digits still closed, else the first closed unit (None: all open)."""
    digits, table = board.digits, board.table
    gain: dict[int, int] = {}
    for d in todo:
        if d in opened or all(digits[j] < 0 or j in opened for j in table[d]):
            continue
        if board.unit_of[d] >= 0:
            gain[board.unit_of[d]] = gain.get(board.unit_of[d], 0) + 1
        for k in board.bordering[d]:
            if board.units[k][0] not in opened:
                gain[k] = gain.get(k, 0) + 1
    if gain:
        return _click_cell(board, board.units[max(gain, key=lambda u: (gain[u], -u))])
    for unit in board.units:
        if unit[0] not in opened:
            return _click_cell(board, unit)
    return None


def _click_cell(board: _Board, unit: tuple[int, ...]) -> int:
    """Where to click a unit: an opening's zero with the most zero neighbours (its
    middle, as a player would), or the island digit."""
    digits, table = board.digits, board.table
    return max(unit, key=lambda i: (sum(digits[j] == 0 for j in table[i]), -i))


def min_clicks(
    layout: Layout,
    *,
    work: int = DEFAULT_WORK,
    seconds: float | None = DEFAULT_SECONDS,
    zini_runs: int = ZINI_RUNS,
    on_work: Callable[[int], None] | None = None,
) -> MinClicks:
    """The fewest clicks that open every safe cell of ``layout``, with a proved lower
    bound (see the module docstring for the model and the proof).

    ``work`` bounds the search in steps (SAT conflicts, oracle calls and rounds), so the
    answer (clicks, bound, proof) is the same on every machine and under any load;
    ``zini_runs`` is the number of ZiNi runs with random ties, and of runs around the
    best of them, that give the first sequence (seeded), with one more run around the
    best per :data:`WORK_PER_RUN` steps of ``work`` (at most :data:`MAX_RUNS_AROUND`)
    once the search is cut unproved
    (none on a proved board: they could not beat it). ``seconds`` is only a safety
    deadline (``None``: none); an answer it cut says so (``cut == "deadline"``) and may
    then differ from run to run. ``on_work``, when given, is told the steps spent so far as
    the search goes (for a progress bar; the answer is the same without it).

    Raises :class:`ImportError` naming python-sat when it is missing.
    """
    if isinstance(work, bool) or not isinstance(work, int) or work < 0:
        raise ValueError(f"min_clicks: work must be a whole number of steps >= 0, not {work}")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"min_clicks: seconds must be positive, not {seconds}")
    if zini_runs < 0:
        raise ValueError(f"min_clicks: zini_runs {zini_runs} is negative")
    start = time.monotonic()
    deadline = None if seconds is None or math.isinf(seconds) else start + seconds
    board = _Board.of(layout)
    if not board.units:  # no safe cell: nothing to click
        return MinClicks((), 0, 0, time.monotonic() - start)
    runs = ZiniSearch(layout, random.Random(0))
    plays = runs.search(zini_runs, zini_runs, deadline)
    best = list(plays.moves)
    lower = bound_without_search(board)
    cut: Cut | None = "deadline" if plays.cut else None
    rounds = used = 0
    if lower < len(best) and cut is None and work == 0:
        cut = "work"  # no step to take: the formula is not even built
    if lower < len(best) and cut is None:
        cells = len(board.digits)
        formula = _Formula(board, work >= ORDER_WORK_PER_CELL * cells, set_size(work, cells))
        solver = formula.solver()
        meter = Meter(solver, work, deadline, on_work)
        try:
            while lower < len(best):
                meter.spend(round_work(cells))
                try:
                    model = solver.compute()
                finally:
                    lower = max(lower, int(solver.cost))  # a relaxation's bound so far
                solver.adapt = False  # at-most-one relations: looked for in the first round
                rounds += 1
                if model is None:
                    raise AssertionError("the fewest clicks' programme has no solution")
                clicked, chorded = formula.plan(model)
                moves = _sequence(board, layout, clicked, chorded)
                if len(moves) < len(best):
                    best = moves
                cuts = _unreached_groups(board, clicked, chorded)
                if not cuts:
                    break  # a relaxation's optimum that is feasible: optimal
                clauses = [formula.cut(group, target) for group, target in cuts]
                meter.spend(round_work(0, sum(map(len, clauses))))
                for clause in clauses:
                    solver.add_clause(clause)
        except OutOfWork as stop:
            cut = stop.why
        finally:
            used = meter.used()
            meter.close()
            solver.delete()
    if lower < len(best) and cut == "work":  # unproved: more runs around the best play
        plays = runs.search(0, min(work // WORK_PER_RUN, MAX_RUNS_AROUND), deadline)
        best, cut = min(best, list(plays.moves), key=len), "deadline" if plays.cut else cut
    if lower >= len(best):
        cut = None  # proved: nothing was left to search
    return MinClicks(tuple(best), lower, rounds, time.monotonic() - start, used, cut)


def bound_without_search(board: _Board) -> int:
    """A lower bound on the clicks that needs no search: a set of units no one click
    can open two of, each then needing its own click; at least 1 on a board with a safe
    cell.

    A unit (an opening, or a digit next to no zero) is opened only by a left click on
    one of its cells or by a chord on a digit next to one of its cells (an opening's
    flood stops at its border, so it never opens another unit). A left click opens one
    unit; a chord may open several, even several openings, but only units with a cell
    next to the chorded digit. So units whose sets of such digits are pairwise disjoint
    need one click each: a greedy packing, the units with the fewest such digits first.
    O(cells)."""
    digits, table = board.digits, board.table
    chorders: list[tuple[int, int, frozenset[int]]] = []
    for u, cells in enumerate(board.units):
        around = frozenset(j for i in cells for j in table[i] if digits[j] > 0)
        chorders.append((len(around), u, around - set(cells)))
    taken: set[int] = set()
    packed = 0
    for _, _, around in sorted(chorders, key=lambda t: (t[0], t[1])):
        if taken.isdisjoint(around):
            taken |= around
            packed += 1
    return max(packed, 1 if board.units else 0)


ORDER_WORK_PER_CELL = 150
"""The least budget, in steps a cell, that states the chords' order up front
(:mod:`~minesolver.game.click_order`; below it the cuts alone): its clauses make each
oracle call cost more and the first cores come later, so it bounds worse on a short
budget (expert: better at 208 steps a cell, worse at 104; intermediate: better at 195;
docs/efficiency.md). The default budget states it on the standard levels."""

_ADAPT_LIMIT = 5_000
"""The most variables for which RC2 looks for at-most-one relations among the clicks
(``adapt``, in the first round only): it raises the bound on the standard levels (an
intermediate board left unproved without it), at the cost of one propagation call per
variable (counted as work). Past this size those calls would eat the budget before any
core is found. Expert has about 600 variables."""

_Node = tuple[str, int]
"""A node of the reach graph: ``("u", unit)`` or ``("d", digit cell)``."""


class _Formula:
    """The programme of :func:`min_clicks` as weighted clauses (MaxSAT).

    Variables (numbered from 1): ``x_u`` per unit, then ``f_m`` per mine next to a chord
    candidate, then ``c_d`` per chord candidate. Hard clauses: ``c_d → f_m`` and the cuts
    (a cut is a clause: one of its clicks or chords, or not ``c_target``). Soft: each
    variable false, weight 1, so the cost is the number of clicks. ``order``: the chords'
    order stated whole (:mod:`~minesolver.game.click_order`); ``sets``: the largest
    connected set of chord candidates given its cuts at the start
    (:mod:`~minesolver.game.click_cuts`)."""

    def __init__(self, board: _Board, order: bool = True, sets: int = CHORD_SET_SIZE) -> None:
        self.board = board
        nu = self.units = len(board.units)
        flag_cells = sorted({m for d in board.chords for m in board.mines_of[d]})
        self.fvar = {m: nu + 1 + k for k, m in enumerate(flag_cells)}
        self.cvar = {d: nu + 1 + len(flag_cells) + k for k, d in enumerate(board.chords)}
        self.size = nu + len(flag_cells) + len(board.chords)
        hard = [[-self.cvar[d], self.fvar[m]] for d in board.chords for m in board.mines_of[d]]
        hard += [self.cut(self._unit_nodes(u), None) for u in range(nu)]
        for group in _island_groups(board):
            hard.append(self.cut({node for u in group for node in self._unit_nodes(u)}, None))
        island = {board.units[u][0]: u for u in range(board.openings, nu)}
        for i, u in island.items():  # two island digits side by side
            for j in board.table[i]:
                if j > i and j in island:
                    pair = self._unit_nodes(u) | self._unit_nodes(island[j])
                    hard.append(self.cut(pair, None))
        for k in range(board.openings):  # an opening with the digits bordering it alone
            alone = {b for b in board.border[k] if len(board.bordering[b]) == 1}
            hard.append(self.cut({("u", k)} | {("d", b) for b in alone}, None))
            hard += [self.cut({("u", k), ("d", b)}, None) for b in sorted(alone)]
        for m, v in self.fvar.items():  # a flag only beside a chord (else it is wasted)
            hard.append([-v, *sorted(self.cvar[d] for d in board.table[m] if d in self.cvar)])
        cuts = chord_sets(board.chords, board.table, board.bordering, board.unit_of, sets)
        hard += [self.cut(nodes, target) for nodes, target in cuts]
        self.hard = hard
        self.order: list[list[int]] = []  # the chords' order, when stated up front
        self.arcs: dict[tuple[_Node, _Node], int] = {}
        if order:
            self.order, self.arcs = order_clauses(
                board.chords, board.table, board.border, board.unit_of, board.openings,
                lambda u: u + 1, self.cvar.__getitem__, self.size + 1,
            )  # fmt: skip

    def _unit_nodes(self, u: int) -> set[_Node]:
        if u < self.board.openings:
            return {("u", u)}
        return {("u", u), ("d", self.board.units[u][0])}

    def cut(self, nodes: set[_Node], target: int | None) -> list[int]:
        """The clause of the cut of ``nodes``: a click inside, or a chord of a digit
        outside with an arc into them (or, for a chorded digit's cut, no chord on it)."""
        board = self.board
        cells: set[int] = set()
        for kind, v in nodes:
            cells.update(board.units[v] if kind == "u" else (v,))
        near = {j for i in cells for j in board.table[i]}
        clause = sorted(v + 1 for kind, v in nodes if kind == "u")
        clause += sorted(self.cvar[d] for d in near if d in self.cvar and d not in cells)
        if target is not None:
            clause.append(-self.cvar[target])
        return clause

    def solver(self) -> Any:
        """An RC2 MaxSAT solver on the formula (python-sat)."""
        try:
            from pysat.examples.rc2 import RC2
            from pysat.formula import WCNF
        except ImportError as exc:
            raise ImportError(
                "the fewest clicks need python-sat, a dependency of minesolver: "
                "pip install python-sat"
            ) from exc
        wcnf = WCNF()
        for clause in self.hard + self.order:
            wcnf.append(clause)
        for v in range(1, self.size + 1):
            wcnf.append([-v], weight=1)
        adapt = self.size <= _ADAPT_LIMIT
        return RC2(wcnf, solver="cd19", adapt=adapt, exhaust=True, minz=True)

    def plan(self, model: Sequence[int]) -> tuple[list[int], set[int]]:
        """The units clicked and the digits chorded in a model."""
        true = {lit for lit in model if lit > 0}
        clicked = [u for u in range(self.units) if u + 1 in true]
        chorded = {d for d, v in self.cvar.items() if v in true}
        return clicked, chorded


def _island_groups(board: _Board) -> list[list[int]]:
    """The island units grouped by 8-connection (each group needs a click or a chord
    from outside it)."""
    island = {board.units[u][0]: u for u in range(board.openings, len(board.units))}
    groups: list[list[int]] = []
    left = set(island)
    while left:
        stack = [left.pop()]
        group = []
        while stack:
            i = stack.pop()
            group.append(island[i])
            for j in board.table[i]:
                if j in left:
                    left.remove(j)
                    stack.append(j)
        groups.append(group)
    return groups


def _unreached_groups(
    board: _Board, clicked: list[int], chorded: set[int]
) -> list[tuple[set[tuple[str, int]], int | None]]:
    """The cuts a plan breaks, the smallest of their kind: for each unreached unit or
    chorded digit ``t``, the nodes from which the plan's arcs lead to ``t`` (no arc of the
    plan enters that set, and no click is in it): a cut ``>= 1`` for a unit, ``>= c_t``
    for a chorded digit. Each node's arcs in are listed once a call (a round met
    hundreds of groups, each listing them again)."""
    seen = _reach(board, clicked, chorded)
    nodes: list[tuple[str, int]] = [("u", u) for u in range(len(board.units))]
    nodes += [("d", i) for i, v in enumerate(board.digits) if v > 0]
    out: list[tuple[set[tuple[str, int]], int | None]] = []
    known: set[frozenset[tuple[str, int]]] = set()
    arcs: dict[tuple[str, int], set[tuple[str, int]]] = {}  # _into, once per node
    for start in nodes:
        if start in seen:
            continue
        group = {start}
        stack = [start]
        while stack:
            node = stack.pop()
            into = arcs.get(node)
            if into is None:
                into = arcs[node] = _into(board, node, chorded)
            for other in into:
                if other not in group:
                    group.add(other)
                    stack.append(other)
        key = frozenset(group)
        if key in known:
            continue
        known.add(key)
        if any(kind == "u" for kind, _ in group):
            out.append((group, None))
        else:
            out.extend((group, v) for _, v in sorted(group) if v in chorded)
    return out


def _into(board: _Board, node: tuple[str, int], chorded: set[int]) -> set[tuple[str, int]]:
    """The nodes with an arc of the plan into ``node``: the chorded digits next to it,
    an opening it borders, an island digit's own unit and digit."""
    kind, v = node
    out: set[tuple[str, int]] = set()
    cells = board.units[v] if kind == "u" else (v,)
    for i in cells:
        out |= {("d", j) for j in board.table[i] if j in chorded}
    if kind == "u":
        if v >= board.openings:
            out.add(("d", cells[0]))
    else:
        if board.unit_of[v] >= 0:
            out.add(("u", board.unit_of[v]))
        out |= {("u", k) for k in board.bordering[v]}
    out.discard(node)
    return out
