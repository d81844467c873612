"""The first cuts of the fewest clicks' programme: every small connected set of chords.

:func:`minesolver.game.clicks.min_clicks` solves a relaxation of reachability and adds
the cut of each set of nodes a plan leaves unreached, round by round (see that module).
On expert boards most of its budget went into rounds whose relaxed plans chorded small
loops of digits that open each other and nothing opens: the cut of each such loop is
known before any search, so the programme starts with the cuts of every connected set of
up to :data:`CHORD_SET_SIZE` chord candidates (pairs only on a budget under
:data:`TRIPLES_WORK_PER_CELL` steps a cell: :func:`set_size`) (8-connected on the
board), each set with the openings its digits border and the island digits' own units.

**Soundness.** Let ``S`` be such a set of digits and ``N`` its nodes: the digits, the
openings they border, the units of the island digits among them. No opening outside
``N`` borders a digit of ``N``, so in a winning play the first node of ``N`` to open is
opened by a left click on a unit of ``N`` or by a chord on a digit outside ``N`` with a
neighbour in ``N``'s cells. A digit ``t`` of ``S`` that is chorded must be open before
its chord, so "a unit of ``N`` clicked, or such a chord from outside, or ``t`` not
chorded" holds for every winning plan: the clause :meth:`_Formula.cut
<minesolver.game.clicks._Formula.cut>` of ``(N, t)``. A clause every winning plan
satisfies removes no plan, so the optimum, and every bound RC2 proves, is unchanged
(only reached sooner). Sets of one and two digits were the first cuts already.

Cost: a king-move neighbourhood has 8 cells, so a digit lies in at most 8 pairs and
a few tens of connected triples: O(cells) sets, ``|S|`` clauses each.

>>> table = ((1,), (0, 2), (1,))  # three digits in a row, each bordering opening 0
>>> sets = chord_sets((0, 1, 2), table, ((0,), (0,), (0,)), (-1, -1, -1), 3)
>>> len(sets), [(sorted(n), t) for n, t in sets if len(n) == 4][0]
(10, ([('d', 0), ('d', 1), ('d', 2), ('u', 0)], 0))
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["CHORD_SET_SIZE", "TRIPLES_WORK_PER_CELL", "chord_sets", "set_size"]

CHORD_SET_SIZE = 3
"""The largest connected set of chord candidates given its cuts before any search: on the
12 expert boards of ``benchmarks/bench_efficiency.py`` triples raised the bound by 1.1
clicks on average at 100,000 steps (then the default) over pairs alone (and the fewest found fell on
three boards); sets of four, tried on two of them, raised it no further."""

TRIPLES_WORK_PER_CELL = 40
"""The least budget, in steps a cell, given the triples' cuts; below it, pairs only. The
triples' clauses make RC2's first cores come later, so on a short budget they lower the
bound: on the 12 expert boards of ``benchmarks/bench_efficiency.py`` the sum of the
bounds is 1,162 with pairs against 854 with triples at a replay report's 6,000 steps
(12.5 a cell), 1,195 against 1,181 at 12,000 (25 a cell), 1,227 against 1,238 at 20,000
(42 a cell) and 1,259 against 1,268 at 40,000; intermediate, 542 against 534 at 6,000
(23 a cell), 546 against 544 at 10,000 (39 a cell)."""


def set_size(work: int, cells: int) -> int:
    """The largest set given its cuts on a budget of ``work`` steps for ``cells`` cells:
    :data:`CHORD_SET_SIZE`, or pairs below :data:`TRIPLES_WORK_PER_CELL` steps a cell.

    >>> set_size(6_000, 30 * 16), set_size(100_000, 30 * 16), set_size(6_000, 8 * 8)
    (2, 3, 3)
    """
    return CHORD_SET_SIZE if work >= TRIPLES_WORK_PER_CELL * cells else 2


_Node = tuple[str, int]


def chord_sets(
    chords: Sequence[int],
    table: Sequence[Sequence[int]],
    bordering: Sequence[Sequence[int]],
    unit_of: Sequence[int],
    size: int = CHORD_SET_SIZE,
) -> list[tuple[set[_Node], int]]:
    """The cuts of every connected set of up to ``size`` chord candidates: for each set
    (in a fixed order) its nodes and each of its digits as the target.

    ``chords`` are the chord candidates (cells), ``table`` each cell's neighbours,
    ``bordering[d]`` the openings a digit borders and ``unit_of[d]`` an island digit's
    own unit (-1 otherwise). O(cells * 8^(size-1)) sets at most."""
    chordable = set(chords)
    found: set[frozenset[int]] = set()
    layer = {frozenset((d,)) for d in chords}
    found |= layer
    for _ in range(size - 1):
        grown: set[frozenset[int]] = set()
        for group in layer:
            for d in group:
                grown.update(group | {e} for e in table[d] if e in chordable and e not in group)
        found |= grown
        layer = grown
    out: list[tuple[set[_Node], int]] = []
    for group in sorted(found, key=sorted):
        nodes: set[_Node] = {("d", d) for d in group}
        for d in group:
            nodes.update(("u", k) for k in bordering[d])
            if unit_of[d] >= 0:
                nodes.add(("u", unit_of[d]))
        out += [(nodes, d) for d in sorted(group)]
    return out
