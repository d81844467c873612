"""Positions cut from real random games, and hypothesis strategies built on them.

A game is played the way a person starts one: mines are laid with a seeded
``random.Random`` (never on the first cell, and not around it when there is room, so the
first click opens an area), the first cell is opened with the flood fill of zeros, then
further safe cells next to the opened area are opened (each with its own flood fill), and
some of the mines a player could see are flagged (correct, trusted flags). The position
is what the player sees at that moment; the hidden layout is kept beside it so a test can
check that the true layout is among the counted ones.

``cut_position`` can keep opening cells until the brute-force oracle's work
(``C(unknown, mines left)`` placements, or ``2**unknown`` under a density) fits a
budget, so that oracle comparisons stay fast. Everything is reproducible from the seed.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from hypothesis import HealthCheck, reject, settings
from hypothesis import strategies as st

from minesolver.constraints import build
from minesolver.position import FLAG, HIDDEN, Position

__all__ = [
    "Case",
    "Cut",
    "brute_cost",
    "cases",
    "ci_settings",
    "cut_position",
    "game_positions",
    "open_cell",
]

DENSITIES = (Fraction(1, 10), Fraction(1, 5), Fraction(1, 3), Fraction(1, 2), Fraction(3, 4))
"""Densities drawn by the strategies (exact, and varied on both sides of 1/2)."""


@dataclass(frozen=True)
class Cut:
    """A position cut from a game, with the game's true mine layout (cell indices)."""

    position: Position
    layout: frozenset[int]


@dataclass(frozen=True)
class Case:
    """One oracle comparison: a position and how to analyse it."""

    position: Position
    layout: frozenset[int]
    density: Fraction | None
    trust_flags: bool


def _neighbours(width: int, height: int, i: int) -> list[int]:
    x, y = i % width, i // width
    return [
        yy * width + xx
        for yy in range(max(0, y - 1), min(height, y + 2))
        for xx in range(max(0, x - 1), min(width, x + 2))
        if (xx, yy) != (x, y)
    ]


def open_cell(
    cells: list[int], width: int, height: int, layout: frozenset[int], start: int
) -> list[int]:
    """Open the safe cell ``start`` in place, flood-filling through zeros; return the
    cells opened. O(opened cells)."""
    assert start not in layout
    stack = [start]
    opened: list[int] = []
    while stack:
        i = stack.pop()
        if cells[i] >= 0:
            continue
        around = _neighbours(width, height, i)
        cells[i] = sum(1 for j in around if j in layout)
        opened.append(i)
        if cells[i] == 0:
            stack.extend(j for j in around if cells[j] == HIDDEN and j not in layout)
    return opened


def brute_cost(cells: list[int], mines: int, density: bool, trust_flags: bool) -> int:
    """Placements the brute-force oracle tries on these cells."""
    hidden = cells.count(HIDDEN)
    flags = cells.count(FLAG)
    unknown = hidden if trust_flags else hidden + flags
    if density:
        return 1 << unknown
    left = mines - flags if trust_flags else mines
    return comb(unknown, left)


def cut_position(
    rng: random.Random,
    width: int,
    height: int,
    mines: int,
    *,
    openings: int = 0,
    flag_fraction: float = 0.0,
    budget: int | None = None,
    density: bool = False,
    trust_flags: bool = True,
    header: bool = True,
    first_opening: bool = True,
) -> Cut:
    """Play the start of a random game and return what the player sees.

    The first click is safe, and a zero (it opens an area) when ``first_opening`` and
    there is room for the mines elsewhere. ``openings`` safe cells next to the opened
    area are opened after the first click; then ``flag_fraction`` of the mines next to a
    revealed digit are flagged; then, when ``budget`` is given, more cells are opened
    (next to the opened area, or anywhere when mines wall it in) until
    :func:`brute_cost` is within it or every safe cell is open. ``header`` false leaves
    the total unknown.
    """
    n = width * height
    if not 0 <= mines < n:
        raise ValueError(f"{mines} mines on a {width}x{height} board leave no safe cell")
    first = rng.randrange(n)
    keep_clear = {first, *_neighbours(width, height, first)}
    if not first_opening or n - len(keep_clear) < mines:
        keep_clear = {first}
    layout = frozenset(rng.sample([i for i in range(n) if i not in keep_clear], mines))
    cells = [HIDDEN] * n
    opened = open_cell(cells, width, height, layout, first)

    def frontier_safe() -> list[int]:
        """Safe hidden cells next to an opened one, in index order. O(opened cells)."""
        return sorted(
            {
                j
                for i in opened
                for j in _neighbours(width, height, i)
                if cells[j] == HIDDEN and j not in layout
            }
        )

    for _ in range(openings):
        candidates = frontier_safe()
        if not candidates:
            break
        opened += open_cell(cells, width, height, layout, rng.choice(candidates))
    seen = sorted(i for i in layout if any(cells[j] >= 0 for j in _neighbours(width, height, i)))
    for i in rng.sample(seen, round(flag_fraction * len(seen))):
        cells[i] = FLAG
    if budget is not None:
        while brute_cost(cells, mines, density, trust_flags) > budget:
            # next to the opened area if possible, else anywhere (a wall of mines).
            candidates = frontier_safe() or [
                i for i in range(n) if cells[i] == HIDDEN and i not in layout
            ]
            if not candidates:
                break
            opened += open_cell(cells, width, height, layout, rng.choice(candidates))
    return Cut(Position(width, height, tuple(cells), mines if header else None), layout)


@st.composite
def game_positions(
    draw: st.DrawFn,
    *,
    min_side: int = 3,
    max_side: int = 8,
    budget: int | None = 3000,
    density: bool = False,
    trust_flags: bool = True,
    frontier: bool = False,
) -> Cut:
    """A position cut from a random game on a small board (see :func:`cut_position`).

    Mines cover an eighth to 30 % of the board; the first click opens an area half of
    the time; 0-4 further openings; none, a quarter, half or all of the visible mines
    flagged. With the default budget about a third of the positions keep a frontier
    that needs counting (not only forced cells), a quarter also an interior. With
    ``frontier`` the game is replayed with the next seeds until one does (rejected after
    12 tries: some sizes seldom keep one within the budget).
    """
    width = draw(st.integers(min_side, max_side), label="width")
    height = draw(st.integers(min_side, max_side), label="height")
    n = width * height
    mines = draw(st.integers(n // 8, max(n // 8, n * 3 // 10)), label="mines")
    openings = draw(st.integers(0, 4), label="openings")
    flag_fraction = draw(st.sampled_from([0.0, 0.0, 0.25, 0.5, 1.0]), label="flag_fraction")
    first_opening = draw(st.booleans(), label="first_opening")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    for attempt in range(12):
        cut = cut_position(
            random.Random(seed + attempt),
            width,
            height,
            mines,
            openings=openings,
            flag_fraction=flag_fraction,
            budget=budget,
            density=density,
            trust_flags=trust_flags,
            header=not density,
            first_opening=first_opening,
        )
        if not frontier or build(cut.position, trust_flags=trust_flags).components:
            return cut
    reject()


@st.composite
def cases(
    draw: st.DrawFn,
    *,
    density: bool | None = None,
    trust_flags: bool | None = None,
    budget: int = 3000,
    frontier: bool = False,
) -> Case:
    """An oracle comparison case; ``None`` for a mode lets hypothesis choose it.

    ``frontier``: only positions whose reduced problem keeps a component (digits that
    need counting, not only forced cells).
    """
    dens_mode = draw(st.booleans(), label="density mode") if density is None else density
    trust = draw(st.booleans(), label="trust_flags") if trust_flags is None else trust_flags
    # under a density the oracle weighs every subset: 2**unknown, so a smaller budget
    # (2**10: up to 10 unknown cells).
    cut = draw(
        game_positions(
            budget=budget // 3 if dens_mode else budget,
            density=dens_mode,
            trust_flags=trust,
            frontier=frontier,
        )
    )
    dens = draw(st.sampled_from(DENSITIES), label="density") if dens_mode else None
    return Case(cut.position, cut.layout, dens, trust)


def ci_settings(max_examples: int) -> settings:
    """The property-test profile: derandomized (a fixed seed per test, the same on every
    run and machine), no example database, no deadline. ``MINESOLVER_EXAMPLES_SCALE``
    (a float, default 1) scales ``max_examples`` for a longer search on a quiet machine."""
    scale = float(os.environ.get("MINESOLVER_EXAMPLES_SCALE", "1"))
    return settings(
        max_examples=max(1, round(max_examples * scale)),
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
