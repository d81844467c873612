"""Seeded generators of benchmark positions, cut from simulated play.

Three families (issue 2, item 8):

* **expert mid-game** (:func:`expert_position`): 30x16 with 99 mines laid uniformly at
  random, except that a random first click is forced to be an opening (the clicked cell and
  its neighbours are mine-free); then random safe cells next to the opened area are opened
  (zeros flood-filled, as a real game does) until a target fraction of the safe cells,
  drawn uniformly in 30-65 %, is open; finally some of the mines that are certain by the
  single-digit rule (a digit with exactly that many unopened neighbours) are flagged. The
  result has what real play has: an irregular frontier with many digits, a few certain
  cells, and flags only on certain mines (so every engine reads them the same way).
* **large components**: a 152x3 strip whose middle row is revealed (one component of 304
  frontier cells in 152 boxes, no interior), 1-wide corridors (straight and a serpentine of
  ~150 cells on a 30x16 board), and dense 30x16 boards with 150-170 mines, partially opened.
* **big boards**: 200x200 with 8,000 mines and a few openings, expanded to mid-game.

Every generator takes a ``random.Random``; :func:`rng_for` derives one per position from
the run's seed and the position's name, so a position does not change when the number of
positions asked for does. Generation is O(cells) per position.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from minesolver.position import FLAG, HIDDEN, Position, neighbour_table

__all__ = [
    "STUCK_CAP",
    "BenchPosition",
    "big_position",
    "big_positions",
    "corridor_position",
    "dense_position",
    "expert_position",
    "expert_positions",
    "large_component_positions",
    "midgame_position",
    "rng_for",
    "snake_position",
    "strip_position",
]


STUCK_CAP = 0.8
"""A "stuck" position has at most this fraction of the safe cells open (still mid-game)."""


@dataclass(frozen=True, slots=True)
class BenchPosition:
    """A named benchmark position; ``kind`` is its family (expert, strip, corridor, ...)."""

    name: str
    kind: str
    position: Position

    @property
    def text(self) -> str:
        """The position in the JSMinesweeper text format (what the benchmark parses)."""
        return self.position.to_text()


def rng_for(seed: int, name: str) -> random.Random:
    """A generator seeded by the run's ``seed`` and a position's ``name`` (string seeds are
    hashed with SHA-512 by :mod:`random`, independent of ``PYTHONHASHSEED``)."""
    return random.Random(f"{seed}:{name}")


class _IndexedSet:
    """A set of ints with O(1) add, discard and uniform random choice (list + positions)."""

    def __init__(self) -> None:
        self._items: list[int] = []
        self._where: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._items)

    def add(self, item: int) -> None:
        if item not in self._where:
            self._where[item] = len(self._items)
            self._items.append(item)

    def discard(self, item: int) -> None:
        at = self._where.pop(item, None)
        if at is None:
            return
        last = self._items.pop()
        if at < len(self._items):
            self._items[at] = last
            self._where[last] = at

    def choice(self, rng: random.Random) -> int:
        return self._items[rng.randrange(len(self._items))]


class _Game:
    """A hidden layout being opened: mine flags, neighbour counts, revealed cells."""

    def __init__(self, width: int, height: int, mine: bytearray) -> None:
        self.width = width
        self.height = height
        self.nbrs = neighbour_table(width, height)
        self.mine = mine
        self.count = [sum(mine[j] for j in nb) for nb in self.nbrs]
        self.revealed = bytearray(width * height)
        self.opened = 0
        self.safe_total = width * height - sum(mine)
        self.candidates = _IndexedSet()  # hidden safe cells next to a revealed cell

    def open(self, start: int) -> None:
        """Reveal a safe cell, flood-filling zeros; O(cells revealed * 8)."""
        assert not self.mine[start]
        stack = [start]
        while stack:
            i = stack.pop()
            if self.revealed[i]:
                continue
            self.revealed[i] = 1
            self.opened += 1
            self.candidates.discard(i)
            zero = self.count[i] == 0
            for j in self.nbrs[i]:
                if self.revealed[j] or self.mine[j]:
                    continue
                if zero:
                    stack.append(j)
                else:
                    self.candidates.add(j)

    def expand(self, rng: random.Random, target: int) -> None:
        """Open random safe cells adjacent to the opened area until ``target`` are open."""
        while self.opened < target and len(self.candidates):
            self.open(self.candidates.choice(rng))

    def deduce(self) -> tuple[set[int], set[int]]:
        """Hidden cells certain by the single-digit rules, iterated to a fixed point: a digit
        with as many unopened neighbours as its value makes them all mines; a digit with
        that many known mines around it makes its other unopened neighbours safe.
        Returns (mines, safe). O(revealed cells * 8) per round."""
        mines: set[int] = set()
        safe: set[int] = set()
        changed = True
        while changed:
            changed = False
            for i, r in enumerate(self.revealed):
                if not r or not self.count[i]:
                    continue
                closed = [j for j in self.nbrs[i] if not self.revealed[j] and j not in safe]
                known = sum(1 for j in closed if j in mines)
                if len(closed) == self.count[i] and known < len(closed):
                    mines.update(closed)
                    changed = True
                elif known == self.count[i] and known < len(closed):
                    safe.update(j for j in closed if j not in mines)
                    changed = True
        return mines, safe

    def play_until_stuck(self, rng: random.Random, target: int) -> bool:
        """Play like a simple player: open every cell the single-digit rules prove safe;
        when none is left, guess a random safe cell next to the opened area (a lucky
        guess), and stop at the first such moment with at least ``target`` cells open.
        False when the game is won first (or no safe cell touches the opened area).
        O(width * height) per round."""
        while self.opened < self.safe_total:
            _, safe = self.deduce()
            if safe:
                for i in sorted(safe):
                    self.open(i)
            elif self.opened >= target or not len(self.candidates):
                return self.opened >= target
            else:
                self.open(self.candidates.choice(rng))
        return False

    def position(self, rng: random.Random, flag_fraction: float) -> Position:
        """The player's view; each mine certain by the single-digit rules is flagged with
        probability ``flag_fraction``."""
        certain, _ = self.deduce()
        flags = {i for i in sorted(certain) if rng.random() < flag_fraction}
        cells = tuple(
            self.count[i] if self.revealed[i] else (FLAG if i in flags else HIDDEN)
            for i in range(self.width * self.height)
        )
        return Position(self.width, self.height, cells, sum(self.mine))


def midgame_position(
    rng: random.Random,
    width: int,
    height: int,
    mines: int,
    *,
    open_fraction: float,
    clicks: int = 1,
    flag_fraction: float = 0.5,
    stuck: bool = False,
) -> Position:
    """A mid-game position: ``clicks`` random opening clicks (each click's 3x3 block kept
    mine-free, the ``mines`` laid uniformly on the other cells), then random safe cells next
    to the opened area opened until ``open_fraction`` of the safe cells is open, then a
    ``flag_fraction`` of the certain mines flagged. With ``stuck``, the cells are opened by
    :meth:`_Game.play_until_stuck` instead: the position is the first one past the target
    where a single-digit player must guess (the engine's harder case; a game won first, or
    first stuck past :data:`STUCK_CAP` of the safe cells, is replayed on a new layout).
    O(width * height), times the rounds of play when ``stuck``."""
    while True:
        game = _new_game(rng, width, height, mines, clicks)
        target = round(open_fraction * game.safe_total)
        if not stuck:
            game.expand(rng, target)
            return game.position(rng, flag_fraction)
        if game.play_until_stuck(rng, target) and game.opened <= STUCK_CAP * game.safe_total:
            return game.position(rng, flag_fraction)


def _new_game(rng: random.Random, width: int, height: int, mines: int, clicks: int) -> _Game:
    """A uniform layout with ``clicks`` random opening clicks made (their 3x3 kept free)."""
    n = width * height
    nbrs = neighbour_table(width, height)
    starts = rng.sample(range(n), clicks)
    excluded = set(starts)
    for s in starts:
        excluded.update(nbrs[s])
    free = [i for i in range(n) if i not in excluded]
    if mines > len(free):
        raise ValueError(f"{mines} mines do not fit {width}x{height} with {clicks} openings")
    mine = bytearray(n)
    for i in rng.sample(free, mines):
        mine[i] = 1
    game = _Game(width, height, mine)
    for s in starts:
        game.open(s)
    return game


def expert_position(rng: random.Random, stuck: bool = False) -> Position:
    """A mid-game expert position (30x16, 99 mines): opening first click, 30-65 % of the safe
    cells open, a random 25-100 % of the certain mines flagged (``stuck``: see
    :func:`midgame_position`)."""
    fraction = rng.uniform(0.30, 0.65)
    flag_fraction = rng.uniform(0.25, 1.0)
    return midgame_position(
        rng, 30, 16, 99, open_fraction=fraction, flag_fraction=flag_fraction, stuck=stuck
    )


def expert_positions(seed: int, count: int, stuck: bool = False) -> Iterator[BenchPosition]:
    """``count`` expert mid-game positions, each from its own seeded generator; with
    ``stuck`` the "stuck" variant (kind ``expert-stuck``)."""
    prefix = "expert-stuck" if stuck else "expert"
    for k in range(count):
        name = f"{prefix}-{k}"
        yield BenchPosition(name, prefix, expert_position(rng_for(seed, name), stuck))


def _fix_zeros(
    mine: bytearray,
    revealed: Iterable[int],
    hidden: set[int],
    nbrs: tuple[tuple[int, ...], ...],
    rng: random.Random,
) -> None:
    """Give every revealed cell that touches a hidden cell at least one mine among its
    hidden neighbours (a revealed 0 would have opened them in a real game)."""
    for i in revealed:
        closed = [j for j in nbrs[i] if j in hidden]
        if closed and not any(mine[j] for j in closed):
            mine[rng.choice(closed)] = 1


def _fixed_view(
    width: int, height: int, mine: bytearray, hidden: set[int], nbrs: tuple[tuple[int, ...], ...]
) -> Position:
    cells = tuple(
        HIDDEN if i in hidden else sum(mine[j] for j in nbrs[i]) for i in range(width * height)
    )
    return Position(width, height, cells, sum(mine))


def strip_position(rng: random.Random, length: int = 152, density: float = 0.4) -> Position:
    """A ``length`` x 3 board whose middle row is revealed: the top and bottom rows form one
    component of ``2 * length`` frontier cells (``length`` boxes of two), no interior."""
    width, height = length, 3
    nbrs = neighbour_table(width, height)
    hidden = set(range(width)) | set(range(2 * width, 3 * width))
    mine = bytearray(width * height)
    for i in sorted(hidden):
        mine[i] = rng.random() < density
    _fix_zeros(mine, range(width, 2 * width), hidden, nbrs, rng)
    return _fixed_view(width, height, mine, hidden, nbrs)


def _pocket(
    hidden: set[int], nbrs: tuple[tuple[int, ...], ...], gap: float, rng: random.Random
) -> set[int]:
    """The corridor ``hidden`` plus each cell next to it kept hidden with probability
    ``gap`` (pockets that break the chain of digits, so the corridor is not all forced)."""
    around = sorted({j for i in hidden for j in nbrs[i]} - hidden)
    return hidden | {j for j in around if rng.random() < gap}


def _corridor_view(
    width: int,
    height: int,
    corridor: set[int],
    density: float,
    gap: float,
    rng: random.Random,
) -> Position:
    nbrs = neighbour_table(width, height)
    hidden = _pocket(corridor, nbrs, gap, rng)
    mine = bytearray(width * height)
    for i in sorted(hidden):
        mine[i] = rng.random() < density
    revealed = [i for i in range(width * height) if i not in hidden]
    _fix_zeros(mine, revealed, hidden, nbrs, rng)
    return _fixed_view(width, height, mine, hidden, nbrs)


def corridor_position(
    rng: random.Random,
    length: int = 150,
    density: float = 0.35,
    two_sided: bool = True,
    gap: float = 0.0,
) -> Position:
    """A 1-wide hidden corridor of ``length`` cells along a revealed row (``two_sided``: a
    revealed row on each side, a ``length`` x 3 board; else ``length`` x 2). With
    ``gap = 0`` every digit is there and propagation alone decides the corridor; ``gap > 0``
    leaves pockets of hidden cells beside it, and real uncertainty."""
    height = 3 if two_sided else 2
    corridor = {length + x for x in range(length)}  # row 1: the middle, or the bottom of 2
    return _corridor_view(length, height, corridor, density, gap, rng)


def snake_position(rng: random.Random, density: float = 0.35, gap: float = 0.0) -> Position:
    """A 30x16 board whose hidden cells form one serpentine 1-wide corridor (~150 cells:
    rows 1, 4, 7, 10, 13 joined at alternating ends), every other cell revealed (but for
    pockets, as in :func:`corridor_position`)."""
    width = 30
    corridor: set[int] = set()
    rows = [1, 4, 7, 10, 13]
    for k, y in enumerate(rows):
        corridor.update(y * width + x for x in range(1, width - 1))
        if k + 1 < len(rows):
            x = width - 2 if k % 2 == 0 else 1
            corridor.update(yy * width + x for yy in range(y + 1, rows[k + 1]))
    return _corridor_view(width, 16, corridor, density, gap, rng)


def dense_position(rng: random.Random, stuck: bool = False) -> Position:
    """30x16 with 150-170 mines (about a third of the cells), 30-65 % of safe cells open
    (``stuck``: see :func:`midgame_position`)."""
    mines = rng.randint(150, 170)
    fraction = rng.uniform(0.30, 0.65)
    return midgame_position(
        rng, 30, 16, mines, open_fraction=fraction, flag_fraction=0.5, stuck=stuck
    )


def big_position(rng: random.Random, clicks: int = 4, open_fraction: float = 0.1) -> Position:
    """200x200 with 8,000 mines: ``clicks`` openings grown to ``open_fraction`` of the safe
    cells (several large frontier components and a huge interior)."""
    return midgame_position(
        rng, 200, 200, 8000, open_fraction=open_fraction, clicks=clicks, flag_fraction=0.5
    )


def large_component_positions(seed: int, dense: int = 10) -> Iterator[BenchPosition]:
    """The large-component set: the 152x3 strip (first), corridors, the snake, and
    ``dense`` dense boards opened at random plus ``dense`` where a simple player is stuck."""
    yield BenchPosition("strip-152x3", "strip", strip_position(rng_for(seed, "strip-152x3")))
    yield BenchPosition(
        "strip-300x3", "strip", strip_position(rng_for(seed, "strip-300x3"), length=300)
    )
    for name, two_sided, gap in [
        ("corridor-150x3", True, 0.0),
        ("corridor-150x2", False, 0.0),
        ("corridor-150x3-pockets", True, 0.3),
        ("corridor-150x2-pockets", False, 0.3),
    ]:
        pos = corridor_position(rng_for(seed, name), two_sided=two_sided, gap=gap)
        yield BenchPosition(name, "corridor", pos)
    for name, gap in [("snake-30x16", 0.0), ("snake-30x16-pockets", 0.3)]:
        yield BenchPosition(name, "corridor", snake_position(rng_for(seed, name), gap=gap))
    for stuck in (False, True):
        for k in range(dense):
            name = f"dense-stuck-{k}" if stuck else f"dense-{k}"
            yield BenchPosition(name, "dense", dense_position(rng_for(seed, name), stuck))


def big_positions(seed: int, count: int = 1) -> Iterator[BenchPosition]:
    """``count`` 200x200/8000 mid-game positions."""
    for k in range(count):
        name = f"big-200x200-{k}"
        yield BenchPosition(name, "big", big_position(rng_for(seed, name)))
