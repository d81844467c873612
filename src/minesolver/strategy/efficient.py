"""``efficient``: ``best``'s guesses, and among certain moves the fewest clicks.

Speed players count clicks: a left click, a right click (a flag) and a chord each cost
one, and the efficiency of a won game is its 3BV over its clicks. ``efficient`` never
takes more risk than ``best``: every guess it makes is the guess ``best`` makes at the
same point of its own game (the guess is delegated to a ``best`` player, whichever
implementation :func:`~minesolver.strategy.get_player` gives). Between two guesses it
opens the same cells as ``best`` (see *Same guesses* below), but chooses how: left
clicks, flags and chords, one action at a time, for the fewest clicks.

**The certain moves.** After one exact analysis of the position (the certainly-safe
cells, the certain mines, the flags), each action is scored by its expected *gain*: the
cells it opens less the clicks it costs (a plain left click gains nothing; the fewest
clicks are the most gain over the game). In this order:

1. a safe cell that is a certain zero (every neighbour is open or safe) is opened: one
   click floods its whole opening;
2. each open digit whose closed neighbours are all certain, a safe one among them, is a
   possible chord: it opens its ``s`` safe neighbours for ``1 + f`` clicks, ``f`` the
   mines around it not yet flagged (flags are placed only for the chord that uses them),
   a gain of ``s - f - 1``; a chord of gain 0 that places flags counts too (it costs no
   more than left clicks, and its flags may serve a later chord, as in JSMinesweeper's
   efficiency mode);
3. each safe cell ``t`` may be opened in order to chord it next: with ``k`` known mines
   around it (``f`` of them unflagged) and ``h`` closed neighbours that are not known
   mines, if its digit turns out to be ``k`` the chord on it opens those ``h`` cells for
   ``f + 1`` clicks (a zero floods them for nothing more). The chance of that digit,
   ``P``, is an exact ratio of layout counts (one what-if analysis; 1 when every closed
   neighbour is certain). Opening ``t`` by a left click gains ``P * (h - f - [k > 0])``
   (offered only when ``P`` is at least :data:`LEAST_HOPE`, 3/20);
   opening it by a chord of step 2 next to it gains that chord's gain plus ``P`` times
   what the chord on ``t`` still opens after it (JSMinesweeper's "chord-chord");
4. the action of the highest gain above 0 is made: the flags then the chord, or the left
   click (on an equal gain a certain chord goes first);
5. with nothing to gain, a safe cell is left-clicked: among those that no flood can open
   later (their closed neighbours all have a known mine next to them), or all when there
   are none, the one with the fewest closed neighbours whose state is still unknown
   (first in reading order on a tie). A cell whose neighbourhood is settled has nothing
   to wait for; one next to unknown cells may yet become worth chording, or be opened by
   a chord, once they are settled, so it is clicked last (on expert about a quarter of a
   point of efficiency over taking the first in reading order).

**Same guesses.** Opening certain cells only adds information, so whatever the order,
repeating "open every certainly-safe cell" from a position reaches one and the same set
of open cells where no cell is certainly safe: ``efficient`` reaches the very cells
``best`` reaches before each guess. ``best``'s own moves also place flags, which its
decisions (the order of its candidates, its caches, its endgame search) may see, so
``efficient`` keeps a *shadow* of ``best``'s board: at each guess point it replays
``best``'s certain moves on the shadow, reading each cell ``best`` opens from the real
board (where it is open already), until ``best`` names its guess on exactly the
position it would see in its own game. ``best`` is thus called on the same positions in
the same order as in its own game, draws its tie-breaks from the same generator, and
makes the same guesses: a game ``efficient`` wins is a game ``best`` wins on the same
seed, and the reverse (checked game by game in the tests and the benchmark).

Cost per action: one exact analysis (with a component cache kept for the game), O(cells)
to find the certain zeros and the chords, and one native what-if analysis for each safe
cell whose digit is not known and that could gain something (step 3); at a guess point,
``best``'s own cost for the rounds of certain moves it would have made (one analysis
each) and its guess.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from fractions import Fraction
from typing import Any

from minesolver.analysis import Analysis, analyze, analyze_after
from minesolver.position import FLAG, HIDDEN, Cell, InconsistentPosition, Position
from minesolver.strategy.base import Move, Player
from minesolver.strategy.errors import PlayerError
from minesolver.strategy.reasons import Certain

__all__ = ["EfficientPlayer"]


class _Shadow:
    """``best``'s board: the cells it has opened and flagged in its own game, as it
    would see them, read from the real board (which has opened the same cells by then).

    ``pending`` is the guess ``best`` made last, opened on the shadow at the next sync.
    """

    __slots__ = ("cells", "neighbours", "pending")

    def __init__(self, view: Position) -> None:
        self.cells = list(view.cells)
        self.neighbours = view.neighbour_indices()
        self.pending: int | None = None

    def follows(self, view: Position) -> bool:
        """Whether ``view`` can be the real board of this shadow's game: every cell the
        shadow has open is open in ``view`` with the same digit. O(cells)."""
        real = view.cells
        if len(real) != len(self.cells):
            return False
        return all(v < 0 or real[i] == v for i, v in enumerate(self.cells))

    def open(self, index: int, view: Position) -> bool:
        """Open ``index`` as the game would (a zero floods; flags are left alone),
        reading the digits from ``view``; false when ``view`` has not opened a cell the
        shadow must open (the two boards no longer agree)."""
        cells, real = self.cells, view.cells
        if cells[index] != HIDDEN:
            return True
        stack = [index]
        if real[index] < 0:
            return False
        cells[index] = real[index]
        while stack:
            i = stack.pop()
            if cells[i] != 0:
                continue
            for j in self.neighbours[i]:
                if cells[j] == HIDDEN:
                    if real[j] < 0:
                        return False
                    cells[j] = real[j]
                    stack.append(j)
        return True

    def position(self, view: Position) -> Position:
        return Position(view.width, view.height, tuple(self.cells), view.mines)


class EfficientPlayer:
    """``best``'s guesses, and the certain moves that use the fewest clicks (see the
    module docstring). ``guesser`` is the ``best`` player the guesses are asked of
    (``get_player("efficient")`` gives it ``get_player("best")``); it plays its own
    game through this player, so it is not to be shared with another game."""

    name = "efficient"

    def __init__(self, guesser: Player) -> None:
        self.guesser = guesser
        self._shadow: _Shadow | None = None
        self._cache: dict[object, Any] = {}

    def reset(self, rng: random.Random) -> None:
        """Start a new game: the guesser starts one with ``rng`` (this player draws
        nothing itself); the shadow board and the analysis cache are forgotten."""
        self.guesser.reset(rng)
        self._shadow = None
        self._cache = {}

    def next_moves(self, view: Position) -> list[Move]:
        """One action: a left click, a chord with the flags it needs before it, or (no
        cell being certainly safe) ``best``'s guess."""
        analysis = analyze(view, cache=self._cache)
        if not analysis.safe:
            return [self._guess(view)]
        if self._shadow is None:  # best's board starts as the first one seen
            self._shadow = _Shadow(view)
        return _plan(view, analysis)

    def _guess(self, view: Position) -> Move:
        """``best``'s guess at this point of its own game (module docstring, *Same
        guesses*): the shadow is brought up to this position with ``best``'s own certain
        moves, then ``best`` names its guess."""
        shadow = self._shadow
        if (
            shadow is not None
            and shadow.pending is not None
            and not shadow.open(shadow.pending, view)
        ):
            shadow = None
        if shadow is None or not shadow.follows(view):
            shadow = _Shadow(view)
        self._shadow = shadow
        for _ in range(len(view.cells) + 1):  # each round opens or flags a cell at least
            moves = self.guesser.next_moves(shadow.position(view))
            if not moves:
                break
            last = moves[-1]
            for move in moves:
                index = view.index(move.cell)
                if move is last and move.guess:
                    shadow.pending = index
                    return last
                if move.kind == "flag":
                    shadow.cells[index] = FLAG
                elif move.kind == "open" and not shadow.open(index, view):
                    return self._fresh_guess(view)
        raise PlayerError(f"player {self.guesser.name!r} named no guess for\n{view.to_text()}")

    def _fresh_guess(self, view: Position) -> Move:
        """The guesser's guess on the real board itself, when the shadow has lost track
        (a position this player did not reach by its own moves)."""
        self._shadow = shadow = _Shadow(view)
        moves = self.guesser.next_moves(view)
        if not moves or not moves[-1].guess:
            raise PlayerError(f"player {self.guesser.name!r} named no guess for\n{view.to_text()}")
        shadow.pending = view.index(moves[-1].cell)
        return moves[-1]


def _plan(view: Position, analysis: Analysis) -> list[Move]:
    """The certain action of the highest expected gain (module docstring, steps 1-5)."""
    return _ranked(view, analysis)[0][1]


LEAST_HOPE = Fraction(3, 20)
"""Step 3 offers no left click on a cell whose hoped-for digit has a smaller chance (the
chord-chord hopes are still offered: their first chord gains by itself). Against none
(0), paired on the same 300 games, the same guesses: +0.17 +-0.16 points on expert games
of seed 2026 (130 won) and +0.17 +-0.14 on seed 7 (112 won), +0.05 +-0.13 on
intermediate (248 won), 0.00 on beginner (no game changed); 0.1 gave +0.10, 0.2 -0.10,
0.3 -0.08 and 0.5 -1.25 on expert seed 2026 (the threshold chosen there, then checked on
seed 7; those four runs are not stored)."""

Key = tuple[Fraction, int, int, int]
"""An action's rank: (expected gain, kind, tie-break, cell); kinds 2 a chord, 1 a chord
with the chord it may allow next, 0 a left click (on equal gain the certain one first)."""


def _ranked(view: Position, analysis: Analysis) -> list[tuple[Key | None, list[Move]]]:
    """The certain actions by rank, best first (module docstring, steps 1-5): a certain
    zero alone (key ``None``); else every action of positive gain by decreasing key, one
    entry per distinct action, then step 5's click (key ``None``) last. :func:`_plan`
    plays the first; the lookahead player weighs the first few."""
    width = view.width
    cells = view.cells
    nbrs = view.neighbour_indices()
    safe = {y * width + x for x, y in analysis.safe}
    mines = {y * width + x for x, y in analysis.certain_mines}

    def cell(i: int) -> Cell:
        return i % width, i // width

    ordered = sorted(safe)
    # 1. a certain zero: one click opens it and everything around it
    for s in ordered:
        if all(cells[j] >= 0 or j in safe for j in nbrs[s]):
            return [(None, [Move("open", cell(s), reason=Certain(mine=False))])]
    chords = _chords(cells, nbrs, safe, mines)
    # the best action as (gain, kind, tie-break, cell): kinds 2 a chord, 1 a chord with
    # the chord it may allow next, 0 a left click (on equal gain the certain one first)
    keys: dict[tuple[int, int], Key] = {}  # (kind, cell) -> its best key

    def offer(key: Key) -> None:
        known = keys.get((key[1], key[3]))
        if known is None or key > known:
            keys[(key[1], key[3])] = key

    for d, (net, _, flagged) in chords.items():
        if net > 0 or (net == 0 and flagged):  # 2.
            exposure = sum(
                1 for m in flagged for k in nbrs[m] if cells[k] == HIDDEN and k not in mines
            )
            offer((Fraction(net), 2, exposure, d))
    total: int | None = None
    for t in ordered:  # 3.
        known, unflagged, closed, uncertain = _tally(t, cells, nbrs, safe, mines)
        chord_cost = 1 if known else 0  # a zero floods by itself
        reward = closed - unflagged - chord_cost
        combos = []  # chords that open t, and the gain of the chord on t after them
        for d in nbrs[t]:
            if d in chords and chords[d][0] >= 0:
                net, opened, flagged = chords[d]
                closed_after = sum(
                    1 for j in nbrs[t] if cells[j] == HIDDEN and j not in mines and j not in opened
                )
                unflagged_after = sum(1 for j in nbrs[t] if j in mines and j not in flagged)
                after = closed_after - unflagged_after - chord_cost
                if after > 0:
                    combos.append((net, after, d))
        if reward <= 0 and not combos:
            continue
        if uncertain:
            if total is None:
                total = analysis.layout_count()
            try:
                count = analyze_after(analysis, cell(t), known).layout_count()
            except InconsistentPosition:  # the digit cannot be ``known``
                count = 0
            p = Fraction(count, total)
        else:
            p = Fraction(1)
        hopes: list[Key] = [(net + p * after, 1, 0, d) for net, after, d in combos]
        if reward > 0 and p >= LEAST_HOPE:
            hopes.append((p * reward, 0, 0, t))
        for key in hopes:
            if key[0] > 0:
                offer(key)
    ranked: list[tuple[Key | None, list[Move]]] = []
    for key in sorted(keys.values(), reverse=True):  # 4.
        if key[1] == 0:
            ranked.append((key, [Move("open", cell(key[3]), reason=Certain(mine=False))]))
            continue
        d = key[3]
        moves = [Move("flag", cell(m), reason=Certain(mine=True)) for m in sorted(chords[d][2])]
        moves.append(Move("chord", cell(d), reason=Certain(mine=False)))
        ranked.append((key, moves))
    # 5. nothing gains: a click that no flood can make for us (else any safe cell), the
    # one with the fewest closed neighbours still unknown
    unflooded = [
        s
        for s in ordered
        if all(cells[j] >= 0 or j in mines or _next_to(j, mines, cells, nbrs) for j in nbrs[s])
    ]
    pick = min(unflooded or ordered, key=lambda s: _unknown_around(s, cells, nbrs, safe, mines))
    ranked.append((None, [Move("open", cell(pick), reason=Certain(mine=False))]))
    return ranked


def _tally(
    t: int,
    cells: Sequence[int],
    nbrs: Sequence[Sequence[int]],
    safe: AbstractSet[int],
    mines: AbstractSet[int],
) -> tuple[int, int, int, int]:
    """Around ``t``: the known mines (flagged or certain), those of them not flagged yet,
    the closed neighbours that are no known mine, and those of them not certainly safe
    (what step 3 weighs a chord on ``t`` by). O(neighbours)."""
    known = unflagged = closed = uncertain = 0
    for j in nbrs[t]:
        v = cells[j]
        if v == FLAG:
            known += 1
        elif v == HIDDEN:
            if j in mines:
                known += 1
                unflagged += 1
            else:
                closed += 1
                uncertain += j not in safe
    return known, unflagged, closed, uncertain


def _unknown_around(
    s: int,
    cells: tuple[int, ...],
    nbrs: tuple[tuple[int, ...], ...],
    safe: set[int],
    mines: set[int],
) -> int:
    """How many of the closed neighbours of ``s`` are neither certainly safe nor certain
    mines: a cell with none has nothing left to wait for, while one next to unknown cells
    may yet be worth chording, or be opened by a chord, once they are settled (step 5
    clicks it last)."""
    return sum(1 for j in nbrs[s] if cells[j] == HIDDEN and j not in safe and j not in mines)


def _chords(
    cells: Sequence[int],
    nbrs: tuple[tuple[int, ...], ...],
    safe: set[int],
    mines: set[int],
) -> dict[int, tuple[int, set[int], set[int]]]:
    """Every safe chord: open digit -> (its net gain, the safe cells it opens, the mines
    it must flag first), for each digit next to a safe cell whose closed neighbours are
    all certain. O(safe cells)."""
    chords: dict[int, tuple[int, set[int], set[int]]] = {}
    for d in sorted({j for s in safe for j in nbrs[s] if cells[j] > 0}):
        opened: set[int] = set()
        flagged: set[int] = set()
        for j in nbrs[d]:
            if cells[j] != HIDDEN:
                continue
            if j in safe:
                opened.add(j)
            elif j in mines:
                flagged.add(j)
            else:
                break
        else:
            chords[d] = (len(opened) - len(flagged) - 1, opened, flagged)
    return chords


def _next_to(
    j: int, mines: set[int], cells: tuple[int, ...], nbrs: tuple[tuple[int, ...], ...]
) -> bool:
    """Whether cell ``j`` is a known mine (certain or flagged) or has one next to it: it is
    no zero."""
    return cells[j] == FLAG or any(k in mines or cells[k] == FLAG for k in nbrs[j])
