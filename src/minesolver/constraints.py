"""The digits of a position as equations over its unknown cells.

Every revealed digit next to an unknown cell says: the unknown cells around me hold
exactly ``digit - flags around me`` mines. :func:`build` turns a :class:`Position` into
a :class:`Problem`:

1. the equations, checked one by one (a digit needing more mines than it has unknown
   neighbours, or fewer than the flags around it, is :class:`InconsistentPosition`);
2. cheap forced-cell propagation: an equation with value 0 makes all its cells safe, one
   with value equal to its size makes them all mines; repeated to a fixed point in rounds
   of set operations, equations with identical cell sets merged;
3. independent components by union-find over the cells of the remaining equations
   (every union done first, roots taken after);
4. boxes: within a component, cells with the same set of equations are interchangeable
   and counted together (a box of ``s`` cells holding ``k`` mines stands for
   ``C(s, k)`` layouts).

Unknown cells that touch no equation are the *interior*: they share one probability.
Nothing here counts; the engines do.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import compress

from minesolver.position import FLAG, HIDDEN, InconsistentPosition, Position

__all__ = ["Component", "Problem", "build", "reveal"]

_NEGATIVE = (0).__gt__  # hidden or flag: 0 > value
_DIGIT = (-1).__lt__  # a revealed digit: -1 < value
_POSITIVE = (0).__lt__  # a digit 1-8


@lru_cache(maxsize=16)
def _column_masks(width: int, height: int) -> tuple[int, int, int]:
    """Byte-per-cell masks (one byte per cell, value 1): cells not in the last column,
    not in the first column, and all cells."""
    not_last = bytes(1 if x != width - 1 else 0 for _ in range(height) for x in range(width))
    not_first = bytes(1 if x else 0 for _ in range(height) for x in range(width))
    return (
        int.from_bytes(not_last, "little"),
        int.from_bytes(not_first, "little"),
        int.from_bytes(b"\x01" * (width * height), "little"),
    )


def _dilate(mask: bytes, width: int, height: int) -> bytes:
    """Byte-per-cell mask of the cells with a neighbour set in ``mask`` (0/1 bytes).

    The mask is read as one big integer, a byte per cell, and shifted once per
    direction: eight big-integer operations instead of a Python loop over the cells.
    """
    not_last, not_first, every = _column_masks(width, height)
    bits = int.from_bytes(mask, "little")
    out = 0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx == 0 and dy == 0:
                continue
            offset = 8 * (dy * width + dx)
            shifted = bits >> offset if offset > 0 else bits << -offset
            if dx == 1:
                shifted &= not_last
            elif dx == -1:
                shifted &= not_first
            out |= shifted
    return (out & every).to_bytes(width * height, "little")


@dataclass(frozen=True, slots=True)
class Component:
    """An independent group of equations over boxes of interchangeable cells.

    ``boxes[b]`` lists the cell indices of box ``b``; ``constraints[c]`` is
    ``(box indices, mines)``: the boxes of equation ``c`` hold exactly ``mines`` mines.
    ``origins[c]`` is the cell index of a digit that gave equation ``c``.
    """

    boxes: tuple[tuple[int, ...], ...]
    constraints: tuple[tuple[tuple[int, ...], int], ...]
    origins: tuple[int, ...]

    @property
    def size(self) -> int:
        """Number of cells."""
        return sum(len(b) for b in self.boxes)

    @property
    def box_sizes(self) -> tuple[int, ...]:
        return tuple(len(b) for b in self.boxes)

    def key(self) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], int], ...]]:
        """Shape of the component (box sizes and equations), equal for isomorphic copies
        listed in the same order; used to share counts between identical components."""
        return self.box_sizes, self.constraints


@dataclass(frozen=True, slots=True)
class Problem:
    """A position reduced to what the engines count.

    ``unknown`` lists every cell index whose probability is asked for (hidden cells, and
    flags when flags are not trusted). ``mines_left`` is the number of mines among the
    unknown cells that are neither forced nor in any way fixed: the total minus trusted
    flags minus forced mines; ``None`` when the total is unknown.
    """

    position: Position
    unknown: tuple[int, ...]
    components: tuple[Component, ...]
    interior: tuple[int, ...]
    forced_safe: frozenset[int]
    forced_mines: frozenset[int]
    mines_left: int | None
    trusted_flags: int
    density: Fraction | None = None
    trust_flags: bool = True
    _index: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    def component_of(self) -> dict[int, int]:
        """Cell index -> index of the component holding it (built once, on demand)."""
        if not self._index and self.components:
            index = self._index
            for c, comp in enumerate(self.components):
                for box in comp.boxes:
                    for j in box:
                        index[j] = c
        return self._index


def _where(position: Position, index: int) -> str:
    x, y = position.coords(index)
    return f"({x}, {y})"


def build(
    position: Position, *, trust_flags: bool = True, density: Fraction | None = None
) -> Problem:
    """Reduce ``position`` to components, interior and forced cells.

    With ``trust_flags`` (the default) flags count as mines; otherwise they are unknown
    cells like hidden ones. ``density``, when given, replaces the total: each unknown cell
    is a mine independently with that probability (the total is then ignored).
    Raises :class:`InconsistentPosition` for a digit that no layout satisfies, or for more
    trusted flags than the total.
    Complexity: O(cells) plus the propagation, linear in the sum of equation sizes.
    """
    cells = position.cells
    nbrs = position.neighbour_indices()
    n = len(cells)
    if trust_flags:
        unknown = tuple(compress(range(n), map(HIDDEN.__eq__, cells)))
        flags = cells.count(FLAG)
    else:
        unknown = tuple(compress(range(n), map(_NEGATIVE, cells)))
        flags = 0
    mines_left = None if position.mines is None or density is not None else (
        position.mines - flags
    )
    if mines_left is not None and mines_left < 0:
        raise InconsistentPosition(
            f"{flags} flags exceed the total of {position.mines} mines"
        )

    # 1. equations: value and unknown cells of each digit touching an unknown cell.
    eq_cells: list[set[int]] = []
    eq_value: list[int] = []
    eq_origin: list[int] = []
    is_unknown = bytearray(n)
    for i in unknown:
        is_unknown[i] = 1
    split_flags = trust_flags and flags > 0
    # only digits next to a hidden or flagged cell carry an equation; any other digit
    # must be 0. Both sets come from byte-per-cell masks, without a loop over cells.
    near = _dilate(bytes(map(_NEGATIVE, cells)), position.width, position.height)
    lonely = next(compress(range(n), map(operator.gt, map(_POSITIVE, cells), near)), None)
    if lonely is not None:
        raise InconsistentPosition(
            f"digit {cells[lonely]} at {_where(position, lonely)} has no hidden or flagged "
            "neighbour to hold its mines"
        )
    for i in compress(range(n), map(operator.and_, map(_DIGIT, cells), near)):
        digit = cells[i]
        flagged = 0
        if split_flags:
            around = [j for j in nbrs[i] if cells[j] < 0]
            flagged = len(around)
            around = [j for j in around if is_unknown[j]]
            flagged -= len(around)
        else:
            around = [j for j in nbrs[i] if is_unknown[j]]
        need = digit - flagged
        if need < 0:
            raise InconsistentPosition(
                f"digit {digit} at {_where(position, i)} has {flagged} flags around it"
            )
        if need > len(around):
            raise InconsistentPosition(
                f"digit {digit} at {_where(position, i)} needs {need} more mines but has "
                f"only {len(around)} unknown neighbours"
            )
        if around:
            eq_cells.append(set(around))
            eq_value.append(need)
            eq_origin.append(i)

    components, forced_safe, forced_mines, constrained = _reduce(
        position, eq_cells, eq_value, eq_origin
    )
    if mines_left is not None:
        mines_left -= len(forced_mines)
        if mines_left < 0:
            raise InconsistentPosition(
                f"the digits force at least {len(forced_mines)} mines but only "
                f"{mines_left + len(forced_mines)} remain unflagged"
            )

    interior = tuple(sorted(set(unknown).difference(constrained, forced_safe, forced_mines)))
    return Problem(
        position=position,
        unknown=unknown,
        components=tuple(components),
        interior=interior,
        forced_safe=frozenset(forced_safe),
        forced_mines=frozenset(forced_mines),
        mines_left=mines_left,
        trusted_flags=flags,
        density=density,
        trust_flags=trust_flags,
    )


def _reduce(
    position: Position, eq_cells: list[set[int]], eq_value: list[int], eq_origin: list[int]
) -> tuple[list[Component], set[int], set[int], set[int]]:
    """Propagate forced cells, merge equal equations, split into components of boxes.

    Takes the equations (mutated in place) and returns the components, the cells
    forced safe, those forced to be mines, and every cell left in some equation.
    """
    cells = position.cells
    # 2. forced-cell propagation to a fixed point, in rounds of set operations: every
    # equation with value 0 makes its cells safe, every full one makes them mines; the
    # forced cells leave the other equations. O(rounds * equations), rounds are few.
    forced_safe: set[int] = set()
    forced_mines: set[int] = set()
    pending = list(range(len(eq_cells)))
    while True:
        zeros: set[int] = set()
        fulls: set[int] = set()
        rest: list[int] = []
        for e in pending:
            members = eq_cells[e]
            if not eq_value[e]:
                zeros |= members
            elif eq_value[e] == len(members):
                fulls |= members
            else:
                rest.append(e)
        if not zeros and not fulls:
            break
        clash = zeros & fulls
        if clash:
            where = _where(position, min(clash))
            raise InconsistentPosition(
                f"cell {where} must be both safe and a mine for the digits around it"
            )
        forced_safe |= zeros
        forced_mines |= fulls
        changed = zeros | fulls
        pending = []
        for e in rest:
            members = eq_cells[e]
            if members.isdisjoint(changed):
                pending.append(e)
                continue
            eq_value[e] -= len(members & fulls)
            members -= changed
            if eq_value[e] < 0 or eq_value[e] > len(members):
                raise InconsistentPosition(
                    f"digit {cells[eq_origin[e]]} at {_where(position, eq_origin[e])} cannot "
                    f"be satisfied: the digits around it force "
                    f"{'too many' if eq_value[e] < 0 else 'too few'} mines next to it"
                )
            pending.append(e)
    # merge equations over the same cells; drop the empty ones.
    by_cells: dict[frozenset[int], int] = {}
    live: list[int] = []
    for e in pending:
        if not eq_cells[e]:
            continue
        key = frozenset(eq_cells[e])
        other = by_cells.get(key)
        if other is None:
            by_cells[key] = e
            live.append(e)
        elif eq_value[other] != eq_value[e]:
            raise InconsistentPosition(
                f"digit {cells[eq_origin[e]]} at {_where(position, eq_origin[e])} and digit "
                f"{cells[eq_origin[other]]} at {_where(position, eq_origin[other])} need "
                f"{eq_value[e]} and {eq_value[other]} mines in the same cells"
            )

    # 3. union-find over the cells of the live equations.
    parent: dict[int, int] = {}

    def find(a: int) -> int:
        root = a
        while parent[root] != root:
            root = parent[root]
        while parent[a] != root:
            parent[a], a = root, parent[a]
        return root

    for e in live:
        it = iter(eq_cells[e])
        first = next(it)
        parent.setdefault(first, first)
        ra = find(first)
        for j in it:
            parent.setdefault(j, j)
            rb = find(j)
            if rb != ra:
                parent[rb] = ra
    groups: dict[int, list[int]] = {}
    for e in live:
        groups.setdefault(find(next(iter(eq_cells[e]))), []).append(e)

    # 4. boxes per component.
    components: list[Component] = []
    for eqs in groups.values():
        signature: dict[int, list[int]] = {}
        for local, e in enumerate(eqs):
            for j in eq_cells[e]:
                signature.setdefault(j, []).append(local)
        box_of: dict[tuple[int, ...], list[int]] = {}
        for j in sorted(signature):
            box_of.setdefault(tuple(signature[j]), []).append(j)
        boxes = list(box_of.values())
        box_index = {tuple(sig): b for b, sig in enumerate(box_of)}
        members_of: list[list[int]] = [[] for _ in eqs]
        for sig, b in box_index.items():
            for local in sig:
                members_of[local].append(b)
        components.append(
            Component(
                boxes=tuple(tuple(b) for b in boxes),
                constraints=tuple(
                    (tuple(members_of[local]), eq_value[e]) for local, e in enumerate(eqs)
                ),
                origins=tuple(eq_origin[e] for e in eqs),
            )
        )
    return components, forced_safe, forced_mines, set(parent)


def reveal(problem: Problem, cell: int, digit: int) -> Problem:
    """The problem after the unknown cell ``cell`` (an index) is opened and shows ``digit``.

    Only the components next to the cell are rebuilt (their equations, minus the cell,
    plus the new digit's, propagated and split again); every other component is kept as
    the same object, so a count cache keyed by shape finds it. Equal to
    ``build(position with the digit)`` but O(size of the neighbouring components)
    instead of O(board). Raises :class:`InconsistentPosition` when no layout of
    ``problem`` has the cell safe with ``digit`` mines around it.
    """
    position = problem.position
    cells = position.cells
    trust = problem.trust_flags
    value = cells[cell]
    if not (value == HIDDEN or (value == FLAG and not trust)):
        raise ValueError(f"cell {_where(position, cell)} is not an unknown cell")
    if not 0 <= digit <= 8:
        raise ValueError(f"digit {digit} is not 0-8")
    if cell in problem.forced_mines:
        raise InconsistentPosition(f"cell {_where(position, cell)} is certainly a mine")
    child = Position(
        position.width, position.height, (*cells[:cell], digit, *cells[cell + 1 :]),
        position.mines,
    )
    around_cell = position.neighbour_indices()[cell]
    index = problem.component_of()
    affected = sorted({index[j] for j in (cell, *around_cell) if j in index})
    eq_cells: list[set[int]] = []
    eq_value: list[int] = []
    eq_origin: list[int] = []
    for c in affected:
        comp = problem.components[c]
        for (boxes, need), origin in zip(comp.constraints, comp.origins, strict=True):
            members = {j for b in boxes for j in comp.boxes[b]}
            members.discard(cell)
            eq_cells.append(members)
            eq_value.append(need)
            eq_origin.append(origin)
    need = digit
    around: list[int] = []
    for j in around_cell:
        v = cells[j]
        if v >= 0:
            continue
        if (v == FLAG and trust) or j in problem.forced_mines:
            need -= 1
        elif j not in problem.forced_safe:
            around.append(j)
    if need < 0 or need > len(around):
        raise InconsistentPosition(
            f"cell {_where(position, cell)} cannot show {digit}: {len(around)} unknown "
            f"neighbours for {need} more mines"
        )
    if around:
        eq_cells.append(set(around))
        eq_value.append(need)
        eq_origin.append(cell)
    new_components, forced_safe, forced_mines, _ = _reduce(child, eq_cells, eq_value, eq_origin)
    mines_left = problem.mines_left
    if mines_left is not None:
        mines_left -= len(forced_mines)
        if mines_left < 0:
            raise InconsistentPosition(
                f"showing {digit} at {_where(position, cell)} forces more mines than remain"
            )
    skip = set(affected)
    components = [c for i, c in enumerate(problem.components) if i not in skip]
    components.extend(new_components)
    touched = {cell, *around}
    interior = problem.interior
    if not touched.isdisjoint(interior):
        interior = tuple(i for i in interior if i not in touched)
    unknown = problem.unknown
    k = bisect_left(unknown, cell)
    return Problem(
        position=child,
        unknown=unknown[:k] + unknown[k + 1 :],
        components=tuple(components),
        interior=interior,
        forced_safe=(problem.forced_safe - {cell}) | forced_safe,
        forced_mines=problem.forced_mines | forced_mines,
        mines_left=mines_left,
        trusted_flags=problem.trusted_flags,
        density=problem.density,
        trust_flags=trust,
    )
