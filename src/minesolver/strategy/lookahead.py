"""``efficient-lookahead``: ``efficient``, choosing among its best certain actions by
rollouts on layouts sampled exactly from the position.

``efficient`` ranks its certain actions by a one-step expected gain (see
:mod:`minesolver.strategy.efficient`, :func:`~minesolver.strategy.efficient._ranked`).
This player keeps its first ``candidates - 1`` actions of positive gain and step 5's
click with nothing to gain (a certain zero, or a single action, is played at once), and
plays each forward on ``samples`` layouts drawn uniformly from those consistent with the
position (exact weights: :func:`sample_layouts`), the same layouts for every candidate
(common random numbers). A rollout makes the candidate, then follows ``efficient``'s
rules (:func:`_greedy`) on a *static* picture of the position, near the candidates only
(the cells within ``radius`` of their cells):

* safe cells and mines are those certain now, grown only by what the digits the rollout
  opens settle by themselves (a digit with all its mines known frees its other closed
  neighbours; one whose closed neighbours are all needed makes them mines) and, with
  ``subsets``, by two digits whose unknown cells nest;
* the digits shown are the rollout's own layout's;
* the chance that a safe cell shows the digit it is hoped to show is read from
  ``particles`` sampled layouts, among those that agree with the digits the rollout has
  opened within two cells of it (all of them when fewer than four agree), its own layout
  left out (:class:`Chance`).

A rollout ends when no safe cell is left near the candidates (or after ``horizon``
actions, then adding ``rest`` clicks per safe cell still closed); its cost is its
clicks. Every order of certain moves opens the same cells, so the candidates are
compared on the same end. The first candidate (``efficient``'s own choice) is played
unless another saves more than ``margin`` clicks on average over the layouts (the one
saving most). With ``fallbacks`` above 1, a position where nothing gains weighs that
many of step 5's clicks the same way (measured no better; off by default).

Guesses, and the shadow of ``best``'s board, are ``efficient``'s: only the choice among
certain actions changes, so the wins and the guesses are ``best``'s, as for
``efficient`` (checked game by game in the tests and ``benchmarks/bench_efficient.py``).

Budgets count work, never seconds: at most ``candidates * samples`` rollouts of at most
``horizon`` actions each per action (about 2.3 s of CPU an expert game against 0.05 s
for ``efficient``). The layouts are drawn from a generator seeded by ``seed`` and the
position's bytes, so a game replays the same for a seed.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterable, Sequence

from minesolver.analysis import Analysis, analyze
from minesolver.constraints import build
from minesolver.counting import rest_weights
from minesolver.engines.frontier_sampler import ComponentSampler, choose
from minesolver.position import FLAG, HIDDEN, InconsistentPosition, Position
from minesolver.strategy.base import Move, Player
from minesolver.strategy.efficient import (
    EfficientPlayer,
    _chords,
    _next_to,
    _ranked,
    _Shadow,
    _tally,
    _unknown_around,
)
from minesolver.strategy.reasons import Certain

__all__ = ["LookaheadPlayer", "sample_layouts"]

Samplers = dict[object, ComponentSampler]


def sample_layouts(
    view: Position, count: int, rng: random.Random, samplers: Samplers | None = None
) -> list[bytearray]:
    """``count`` layouts drawn independently and uniformly from those consistent with
    ``view`` (flags trusted, the total known): per layout a ``bytearray`` of the board's
    cells, 1 for a mine. Each component's mine number is drawn from the exact joint law
    (its layout polynomial times the binomial of the interior), its boxes' mine numbers
    by :class:`~minesolver.engines.frontier_sampler.ComponentSampler`, then the cells of
    each box and of the interior uniformly. ``samplers`` caches the samplers by the
    components' shapes (one dict a game). Raises
    :class:`~minesolver.position.InconsistentPosition` when no layout fits."""
    if view.mines is None:
        raise ValueError("sampling layouts needs the total of mines")
    problem = build(view)
    cache: Samplers = {} if samplers is None else samplers
    comps = problem.components
    sampler_of = []
    for comp in comps:
        key = comp.key()
        sampler = cache.get(key)
        if sampler is None:
            sampler = cache[key] = ComponentSampler(comp)
        sampler_of.append(sampler)
    polys = [s.layouts for s in sampler_of]
    total = problem.mines_left
    assert total is not None
    interior = problem.interior
    rest = rest_weights(polys, len(interior), total, scaled=False)
    if rest is None:
        raise InconsistentPosition("no layout fits the position")
    base = bytearray(len(view.cells))
    for i, v in enumerate(view.cells):
        if v == FLAG:
            base[i] = 1
    for i in problem.forced_mines:
        base[i] = 1
    out = []
    for _ in range(count):
        mines = bytearray(base)
        used = 0
        for c, comp in enumerate(comps):
            k_c = choose(rest.draw_weights(c, polys[c], used), rng)
            used += k_c
            for b, k in sampler_of[c].draw(k_c, rng).items():
                if k:
                    for i in rng.sample(comp.boxes[b], k):
                        mines[i] = 1
        for i in rng.sample(interior, total - used):
            mines[i] = 1
        out.append(mines)
    return out


class _Rollout:
    """One rollout's board: the cells as the player sees them, the layout's mines, and
    the static picture of what is certain (``safe`` closed cells, ``mines``)."""

    __slots__ = (
        "cells",
        "clicks",
        "layout",
        "mines",
        "nbrs",
        "outside",
        "region",
        "revealed",
        "safe",
        "subsets",
    )

    def __init__(
        self,
        cells: Sequence[int],
        nbrs: tuple[tuple[int, ...], ...],
        safe: set[int],
        mines: set[int],
        layout: bytearray,
        region: set[int] | None = None,
        subsets: bool = False,
    ) -> None:
        self.subsets = subsets
        self.outside: set[int] = set()
        self.cells = list(cells)
        self.nbrs = nbrs
        self.region = region
        self.safe = set(safe) if region is None else safe & region
        self.revealed: set[int] = set()
        self.mines = set(mines)
        self.layout = layout
        self.clicks = 0

    def digit(self, i: int) -> int:
        layout = self.layout
        return sum(layout[j] for j in self.nbrs[i])

    def open(self, index: int) -> None:
        """Open a closed safe cell as the game does (a zero floods), then the
        single-digit deductions around what opened."""
        cells, nbrs, layout = self.cells, self.nbrs, self.layout
        if cells[index] != HIDDEN:
            return
        assert not layout[index], "a rollout opened a mine"
        opened = [index]
        cells[index] = self.digit(index)
        stack = [index]
        while stack:
            i = stack.pop()
            self.safe.discard(i)
            self.revealed.add(i)
            if cells[i] != 0:
                continue
            for j in nbrs[i]:
                if cells[j] == HIDDEN:
                    cells[j] = self.digit(j)
                    opened.append(j)
                    stack.append(j)
        self._deduce(opened)

    def _deduce(self, opened: Iterable[int]) -> None:
        """What the digits around ``opened`` settle: a digit whose known mines are all
        around it makes its other closed neighbours safe, one whose closed neighbours
        are all needed makes them mines, and (``subsets``) of two digits whose unknown
        neighbours nest, the difference holds the difference of their mines (all safe
        or all mines when it is 0 or its size). Repeated around what changed, at most
        four rounds. Safe cells outside ``region`` are remembered but never played."""
        cells, nbrs, safe, mines = self.cells, self.nbrs, self.safe, self.mines
        region, outside = self.region, self.outside
        todo = {j for i in opened for j in (i, *nbrs[i]) if cells[j] > 0}
        equations: dict[int, tuple[frozenset[int], int]] = {}

        def equation(d: int) -> tuple[frozenset[int], int]:
            got = equations.get(d)
            if got is None:
                known = 0
                free = []
                for j in nbrs[d]:
                    v = cells[j]
                    if v == FLAG or (v == HIDDEN and j in mines):
                        known += 1
                    elif v == HIDDEN and j not in safe and j not in outside:
                        free.append(j)
                got = equations[d] = (frozenset(free), cells[d] - known)
            return got

        def settle(free: Iterable[int], mine: bool) -> set[int]:
            changed = set(free)
            if mine:
                mines.update(changed)
            elif region is None:
                safe.update(changed)
            else:
                safe.update(region.intersection(changed))
                outside.update(changed.difference(region))
            return changed

        for _ in range(4):
            changed: set[int] = set()
            equations.clear()
            for d in todo:
                free, need = equation(d)
                if free and need == 0:
                    changed |= settle(free, False)
                elif free and need == len(free):
                    changed |= settle(free, True)
            if self.subsets and not changed:
                for d in todo:
                    free, need = equation(d)
                    if not free:
                        continue
                    for e in {k for j in free for k in nbrs[j] if cells[k] > 0 and k != d}:
                        other, more = equation(e)
                        if len(other) > len(free) and free <= other:
                            rest, extra = other - free, more - need
                            if extra == 0:
                                changed |= settle(rest, False)
                            elif extra == len(rest):
                                changed |= settle(rest, True)
                    if changed:
                        break
            if not changed:
                return
            todo = {k for j in changed for k in nbrs[j] if cells[k] > 0}

    def chord(self, d: int, flags: Iterable[int]) -> None:
        for m in flags:
            self.cells[m] = FLAG
            self.clicks += 1
        self.clicks += 1
        for j in self.nbrs[d]:
            if self.cells[j] == HIDDEN:
                self.open(j)


Action = tuple[str, int, tuple[int, ...]]
"""A rollout's action: ("open", cell, ()) or ("chord", digit, the mines it flags first)."""


def _greedy(r: _Rollout, chance: Chance) -> Action | None:
    """``efficient``'s rules on the rollout's static picture (steps 1-5); ``None`` when
    no safe cell is left. ``chance(t, k)``: the chance that ``t`` shows ``k``."""
    cells, nbrs, safe, mines = r.cells, r.nbrs, r.safe, r.mines
    if not safe:
        return None
    for s in safe:  # 1.
        if all(cells[j] >= 0 or j in safe for j in nbrs[s]):
            return ("open", s, ())
    chords = _chords(cells, nbrs, safe, mines)
    best: tuple[float, int, int] | None = None
    for d, (net, _, flagged) in chords.items():
        if net > 0 or (net == 0 and flagged):
            key = (float(net), 2, d)
            if best is None or key > best:
                best = key
    for t in safe:
        known, unflagged, closed, uncertain = _tally(t, cells, nbrs, safe, mines)
        cost = 1 if known else 0
        reward = closed - unflagged - cost
        combos = []
        for d in nbrs[t]:
            chord = chords.get(d)
            if chord is not None and chord[0] >= 0:
                net, opened, flagged = chord
                after = (
                    sum(
                        1
                        for j in nbrs[t]
                        if cells[j] == HIDDEN and j not in mines and j not in opened
                    )
                    - sum(
                        1 for j in nbrs[t] if j in mines and j not in flagged and cells[j] != FLAG
                    )
                    - cost
                )
                if after > 0:
                    combos.append((net, after, d))
        if reward <= 0 and not combos:
            continue
        p = chance(r, t, known) if uncertain else 1.0
        for net, after, d in combos:
            key = (net + p * after, 1, d)
            if key[0] > 0 and (best is None or key > best):
                best = key
        if reward > 0:
            key = (p * reward, 0, t)
            if key[0] > 0 and (best is None or key > best):
                best = key
    if best is not None:
        if best[1] == 0:
            return ("open", best[2], ())
        return ("chord", best[2], tuple(chords[best[2]][2]))
    unflooded = [
        s
        for s in safe
        if all(
            cells[j] >= 0
            or j in mines
            or cells[j] == FLAG
            or any(k in mines or cells[k] == FLAG for k in nbrs[j])
            for j in nbrs[s]
        )
    ]

    def unknown(s: int) -> tuple[int, int]:
        return (
            sum(1 for j in nbrs[s] if cells[j] == HIDDEN and j not in safe and j not in mines),
            s,
        )

    return ("open", min(unflooded or safe, key=unknown), ())


class Chance:
    """The chance that a safe cell ``t`` shows ``k`` in a rollout, read from sampled
    layouts (the particles): among those that agree with the digits the rollout has
    opened within two cells of ``t``, leaving out the rollout's own layout (``own``), the
    share where ``t`` shows ``k``; with fewer than ``least`` such layouts, the share among
    all (again without its own). Memoised by (cell, digit, the digits it agreed with)."""

    __slots__ = ("_digits", "_layouts", "_memo", "_nbrs", "_near", "least", "own", "width")

    def __init__(
        self,
        layouts: list[bytearray],
        nbrs: tuple[tuple[int, ...], ...],
        width: int,
        least: int = 4,
    ) -> None:
        self._layouts = layouts
        self._nbrs = nbrs
        self.width = width
        self.least = least
        self._digits: list[dict[int, int]] = [{} for _ in layouts]
        self._memo: dict[object, tuple[int, int, list[int]]] = {}
        self._near: dict[int, frozenset[int]] = {}
        self.own = -1

    def digit(self, q: int, c: int) -> int:
        """Cell ``c``'s digit in particle ``q`` (-1 for a mine)."""
        got = self._digits[q].get(c)
        if got is None:
            lay = self._layouts[q]
            got = self._digits[q][c] = -1 if lay[c] else sum(lay[j] for j in self._nbrs[c])
        return got

    def near(self, t: int) -> frozenset[int]:
        got = self._near.get(t)
        if got is None:
            got = self._near[t] = frozenset(k for j in self._nbrs[t] for k in self._nbrs[j]) | {t}
        return got

    def __call__(self, r: _Rollout, t: int, k: int) -> float:
        seen = tuple(sorted((c, r.cells[c]) for c in self.near(t) if c in r.revealed))
        key = (t, k, seen)
        hit = self._memo.get(key)
        if hit is None:
            agree = [
                q for q in range(len(self._layouts)) if all(self.digit(q, c) == d for c, d in seen)
            ]
            if len(agree) < self.least:
                agree = list(range(len(self._layouts)))
            yes = [q for q in agree if self.digit(q, t) == k]
            hit = self._memo[key] = (len(agree), len(yes), yes)
        n, count, yes = hit
        if self.own < 0:
            return count / n
        return (count - (self.own in yes)) / (n - 1)  # its own layout always agrees


def _fallbacks(view: Position, analysis: Analysis, count: int) -> list[list[Move]]:
    """With nothing to gain, the first ``count`` left clicks in step 5's order (the
    cells no flood can open first, then by fewest unknown neighbours); none when a
    certain zero is the move."""
    width, cells = view.width, view.cells
    nbrs = view.neighbour_indices()
    safe = {y * width + x for x, y in analysis.safe}
    mines = {y * width + x for x, y in analysis.certain_mines}
    if any(all(cells[j] >= 0 or j in safe for j in nbrs[s]) for s in safe):
        return []

    def order(s: int) -> tuple[bool, int, int]:
        flooded = not all(
            cells[j] >= 0 or j in mines or _next_to(j, mines, cells, nbrs) for j in nbrs[s]
        )
        return flooded, _unknown_around(s, cells, nbrs, safe, mines), s

    return [
        [Move("open", (s % width, s // width), reason=Certain(mine=False))]
        for s in sorted(safe, key=order)[:count]
    ]


def _apply(r: _Rollout, action: Action) -> None:
    kind, cell, flags = action
    if kind == "open":
        r.clicks += 1
        r.open(cell)
    else:
        r.chord(cell, flags)


def _as_action(view: Position, moves: list[Move]) -> Action:
    last = moves[-1]
    flags = tuple(view.index(m.cell) for m in moves[:-1])
    return (last.kind, view.index(last.cell), flags)


class LookaheadPlayer(EfficientPlayer):
    """``efficient`` choosing among its ``candidates`` best certain actions by
    ``samples`` rollouts each of at most ``horizon`` actions (module docstring)."""

    name = "efficient-lookahead"

    def __init__(
        self,
        guesser: Player,
        *,
        samples: int = 16,
        particles: int = 32,
        radius: int = 3,
        candidates: int = 3,
        horizon: int = 300,
        rest: float = 0.6,
        margin: float = 0.3,
        subsets: bool = True,
        fallbacks: int = 1,
        seed: int = 0,
    ) -> None:
        super().__init__(guesser)
        if samples < 2 or candidates < 2 or horizon < 0 or fallbacks < 1:
            raise ValueError("samples >= 2, candidates >= 2, horizon >= 0, fallbacks >= 1")
        self.samples = samples
        self.particles = max(particles, samples)
        self.radius = radius
        self.candidates = candidates
        self.horizon = horizon
        self.rest = rest
        self.margin = margin
        self.subsets = bool(subsets)
        self.fallbacks = fallbacks
        self.seed = seed
        self._samplers: Samplers = {}
        self.rollouts = 0

    def reset(self, rng: random.Random) -> None:
        super().reset(rng)
        self._samplers = {}

    def next_moves(self, view: Position) -> list[Move]:
        analysis = analyze(view, cache=self._cache)
        if not analysis.safe:
            return [self._guess(view)]
        if self._shadow is None:
            self._shadow = _Shadow(view)
        ranked = _ranked(view, analysis)
        options: list[list[Move]] = []
        for _, moves in ranked:
            if moves not in options:
                options.append(moves)
        if len(ranked) == 1 and self.fallbacks > 1:  # nothing gains: which click?
            options = _fallbacks(view, analysis, self.fallbacks)
            if len(options) > 1:
                return self._choose(view, analysis, options)
        if ranked[0][0] is None or len(options) == 1:  # a certain zero, or no choice
            return ranked[0][1]
        chosen = [*options[: self.candidates - 1], options[-1]]
        if len(chosen) > len(options):
            chosen = options
        return self._choose(view, analysis, chosen)

    def _choose(self, view: Position, analysis: Analysis, options: list[list[Move]]) -> list[Move]:
        width = view.width
        nbrs = view.neighbour_indices()
        safe = {y * width + x for x, y in analysis.safe}
        mines = {y * width + x for x, y in analysis.certain_mines}
        rng = random.Random(self.seed * 1_000_003 + zlib.crc32(view.raw()))
        layouts = sample_layouts(view, self.particles, rng, self._samplers)
        chance = Chance(layouts, nbrs, width)
        actions = [_as_action(view, moves) for moves in options]
        region = None
        if self.radius >= 0:
            centres = {a[1] for a in actions} | {
                j for a in actions if a[0] == "chord" for j in nbrs[a[1]]
            }
            region = set(centres)
            for _ in range(self.radius):
                region |= {j for i in region for j in nbrs[i]}
        costs: list[list[float]] = []  # per candidate, the cost on each layout
        for action in actions:
            row = []
            for k, layout in enumerate(layouts[: self.samples]):
                chance.own = k
                r = _Rollout(view.cells, nbrs, safe, mines, layout, region, self.subsets)
                _apply(r, action)
                for _ in range(self.horizon):
                    step = _greedy(r, chance)
                    if step is None:
                        break
                    _apply(r, step)
                row.append(r.clicks + self.rest * len(r.safe))
                self.rollouts += 1
            costs.append(row)
        pick, most = 0, 0.0
        for i in range(1, len(costs)):  # the mean saving over the first, paired
            saved = [a - b for a, b in zip(costs[0], costs[i], strict=True)]
            mean = sum(saved) / len(saved)
            if mean > self.margin and mean > most:
                pick, most = i, mean
        return options[pick]
