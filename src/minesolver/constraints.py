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

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import compress

from minesolver.errors import plural
from minesolver.position import FLAG, HIDDEN, InconsistentPosition, Position

__all__ = ["Component", "Problem", "build", "reveal"]


def _table(**bytes_to: int) -> bytes:
    """A ``bytes.translate`` table over :meth:`Position.raw` bytes: digits 0-8, ``flag``
    (254) and ``hidden`` (255) map to the given values, ``digit`` to itself unless given."""
    digit = bytes_to.get("digit")
    out = bytearray(range(256)) if digit is None else bytearray([digit] * 256)
    out[254] = bytes_to["flag"]
    out[255] = bytes_to["hidden"]
    return bytes(out)


_HIDDEN_T = _table(digit=0, flag=0, hidden=1)
_NEGATIVE_T = _table(digit=0, flag=1, hidden=1)
_FLAG_T = _table(digit=0, flag=1, hidden=0)
_IS_DIGIT_T = _table(digit=1, flag=0, hidden=0)
_DIGIT_OR_0_T = _table(flag=0, hidden=0)
_DIGIT_OR_8_T = _table(flag=8, hidden=8)
_NONZERO_T = bytes([0] + [1] * 255)


@lru_cache(maxsize=16)
def _lanes(n: int) -> tuple[int, int]:
    """``0x7F`` and ``0x80`` repeated in each of ``n`` byte lanes."""
    return int.from_bytes(b"\x7f" * n, "little"), int.from_bytes(b"\x80" * n, "little")


def _first_greater(a: bytes, b: bytes) -> int | None:
    """The first index where ``a[i] > b[i]``, for bytes of at most 127 each, or ``None``.

    All lanes at once: ``0x7F + a - b`` stays within its byte (0..254) and has its high
    bit set exactly where ``a > b``. A few big-integer operations instead of a loop.
    """
    sevens, highs = _lanes(len(a))
    diff = (sevens + int.from_bytes(a, "little") - int.from_bytes(b, "little")) & highs
    if not diff:
        return None
    return ((diff & -diff).bit_length() - 1) // 8


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


def _neighbour_counts(mask: bytes, width: int, height: int) -> bytes:
    """For each cell, how many of its neighbours are set in ``mask`` (0/1 bytes).

    The mask is read as one big integer, a byte per cell, and shifted once per direction;
    the eight shifted copies are added (a byte never exceeds 8, so nothing carries):
    eight big-integer operations instead of a Python loop over the cells.
    """
    not_last, not_first, every = _column_masks(width, height)
    bits = int.from_bytes(mask, "little")
    out = 0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx == 0 and dy == 0:
                continue
            offset = 8 * (dy * width + dx)
            shifted = bits >> offset if offset > 0 else (bits << -offset) & every
            if dx == 1:
                shifted &= not_last
            elif dx == -1:
                shifted &= not_first
            out += shifted
    return out.to_bytes(width * height, "little")


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


def _no_check() -> None:
    pass


def build(
    position: Position,
    *,
    trust_flags: bool = True,
    density: Fraction | None = None,
    check: Callable[[], None] = _no_check,
) -> Problem:
    """Reduce ``position`` to components, interior and forced cells.

    With ``trust_flags`` (the default) flags count as mines; otherwise they are unknown
    cells like hidden ones. ``density``, when given, replaces the total: each unknown cell
    is a mine independently with that probability (the total is then ignored).
    Raises :class:`InconsistentPosition` for a digit that no layout satisfies, or for more
    trusted flags than the total. ``check`` is called every few thousand steps of the
    loops (a time limit raises from it: the reduction of a 250,000-cell board takes
    seconds in Python).
    Complexity: O(cells) plus the propagation, linear in the sum of equation sizes.
    """
    cells = position.cells
    n = len(cells)
    raw = position.raw()  # a byte per cell: digit, 254 flag, 255 hidden
    hidden = raw.translate(_HIDDEN_T)
    negative = raw.translate(_NEGATIVE_T)  # hidden or flag
    flags = raw.count(254)
    is_unknown = hidden if trust_flags else negative
    unknown = tuple(compress(range(n), is_unknown))
    if not trust_flags:
        flags = 0
    mines_left = None if position.mines is None or density is not None else (position.mines - flags)
    if mines_left is not None and mines_left < 0:
        raise InconsistentPosition(
            f"{plural(flags, 'flag')} but the total is {plural(position.mines or 0, 'mine')}"
        )

    # 1. equations: value and unknown cells of each digit touching an unknown cell.
    split_flags = trust_flags and flags > 0
    eq_cells, eq_value, eq_origin = _equations(
        position, raw, negative, is_unknown, split_flags, check
    )
    check()
    components, forced_safe, forced_mines, constrained = _reduce(
        position, eq_cells, eq_value, eq_origin, check
    )
    if mines_left is not None:
        mines_left -= len(forced_mines)
        if mines_left < 0:
            raise InconsistentPosition(
                f"the digits force at least {plural(len(forced_mines), 'mine')} but the "
                f"total leaves {mines_left + len(forced_mines)} unflagged"
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
        density=density,
        trust_flags=trust_flags,
    )


TABLE_CELLS = 40_000
"""Boards of at most this many cells (200x200) take their neighbours from the shared
table (:func:`~minesolver.position.neighbour_table`, built once per size); larger ones
list the neighbours of their digits only, under the caller's ``check`` (building the
table of a 1000x250 board takes about a second)."""


def _equations(
    position: Position,
    raw: bytes,
    negative: bytes,
    is_unknown: bytes,
    split_flags: bool,
    check: Callable[[], None] = _no_check,
) -> tuple[list[set[int]], list[int], list[int]]:
    """The equations of :func:`build`'s step 1: for each digit touching an unknown cell,
    its unknown neighbours, the mines they hold (the digit less the trusted flags around
    it when ``split_flags``) and the digit's cell (``raw``: a byte per cell;
    ``negative``, ``is_unknown``: 0/1 bytes of the hidden-or-flagged and of the unknown
    cells). The checks (:func:`_check_digits`) and
    the choice of digits use byte-per-cell masks, without a Python loop over the cells;
    then O(equations) to list the neighbours."""
    cells = position.cells
    n = len(cells)
    near, flags_near = _check_digits(position, raw, negative, split_flags)
    frontier = int.from_bytes(raw.translate(_IS_DIGIT_T), "little") & int.from_bytes(
        near.translate(_NONZERO_T), "little"
    )
    origins = list(compress(range(n), frontier.to_bytes(n, "little")))
    if n <= TABLE_CELLS:
        nbrs = position.neighbour_indices()
        eq_cells = [{j for j in nbrs[i] if is_unknown[j]} for i in origins]
    else:
        eq_cells = _unknown_around(position, origins, is_unknown, check)
    if split_flags:
        eq_value = [cells[i] - flags_near[i] for i in origins]
        keep = [e for e, members in enumerate(eq_cells) if members]
        if len(keep) < len(origins):
            eq_cells = [eq_cells[e] for e in keep]
            eq_value = [eq_value[e] for e in keep]
            origins = [origins[e] for e in keep]
    else:
        eq_value = [cells[i] for i in origins]
    return eq_cells, eq_value, origins


def _unknown_around(
    position: Position, origins: list[int], is_unknown: bytes, check: Callable[[], None]
) -> list[set[int]]:
    """The unknown neighbours of each cell of ``origins``, without the board's table;
    ``check`` every 4096 cells. O(len(origins))."""
    w, h = position.width, position.height
    out: list[set[int]] = []
    for e, i in enumerate(origins):
        if e & 4095 == 4095:
            check()
        x, y = i % w, i // w
        x0, x1 = max(0, x - 1), min(w, x + 2)
        out.append(
            {
                j
                for yy in range(max(0, y - 1), min(h, y + 2))
                for j in range(yy * w + x0, yy * w + x1)
                if j != i and is_unknown[j]
            }
        )
    return out


def _check_digits(
    position: Position, raw: bytes, negative: bytes, split_flags: bool
) -> tuple[bytes, bytes]:
    """Each cell's count of hidden-or-flagged neighbours and (with ``split_flags``) of
    flagged ones, after checking every digit against them: a digit with more flags
    around it than its value, or with more than it has hidden or flagged neighbours, is
    :class:`InconsistentPosition` (the first in reading order is reported). Eight
    big-integer shifts per count (:func:`_neighbour_counts`)."""
    cells = position.cells
    w, h = position.width, position.height
    near = _neighbour_counts(negative, w, h)  # unknown + flags around each cell
    flags_near = _neighbour_counts(raw.translate(_FLAG_T), w, h) if split_flags else b""
    over = _first_greater(flags_near, raw.translate(_DIGIT_OR_8_T)) if split_flags else None
    short = _first_greater(raw.translate(_DIGIT_OR_0_T), near)
    if over is not None and (short is None or over < short):
        raise InconsistentPosition(
            f"digit {cells[over]} at {_where(position, over)} has "
            f"{plural(flags_near[over], 'flag')} around it"
        )
    if short is not None:
        digit = cells[short]
        if not near[short]:
            raise InconsistentPosition(
                f"digit {digit} at {_where(position, short)} has no hidden or flagged "
                "neighbour to hold its mines"
            )
        flagged = flags_near[short] if split_flags else 0
        raise InconsistentPosition(
            f"digit {digit} at {_where(position, short)} needs "
            f"{plural(digit - flagged, 'more mine')} but has only "
            f"{plural(near[short] - flagged, 'unknown neighbour')}"
        )
    return near, flags_near


def _reduce(
    position: Position,
    eq_cells: list[set[int]],
    eq_value: list[int],
    eq_origin: list[int],
    check: Callable[[], None] = _no_check,
) -> tuple[list[Component], set[int], set[int], set[int]]:
    """Propagate forced cells, merge equal equations, split into components of boxes.

    Takes the equations (mutated in place) and returns the components, the cells
    forced safe, those forced to be mines, and every cell left in some equation. Steps:
    :func:`_propagate` (O(rounds * equations)), :func:`_merge` (O(sum of equation
    sizes)), :func:`_boxes` (one pass over the cells) and :func:`_components`
    (union-find, near-linear).
    """
    forced_safe, forced_mines, pending = _propagate(position, eq_cells, eq_value, eq_origin, check)
    check()
    live = _merge(position, eq_cells, eq_value, eq_origin, pending)
    check()
    box_of, constrained = _boxes(eq_cells, live, check)
    check()
    components = _components(live, box_of, eq_value, eq_origin, check)
    return components, forced_safe, forced_mines, constrained


def _propagate(
    position: Position,
    eq_cells: list[set[int]],
    eq_value: list[int],
    eq_origin: list[int],
    check: Callable[[], None] = _no_check,
) -> tuple[set[int], set[int], list[int]]:
    """Forced-cell propagation to a fixed point, in rounds of set operations: every
    equation with value 0 makes its cells safe, every full one makes them mines; the
    forced cells leave the other equations (mutated in place). Returns the cells forced
    safe, those forced mines, and the equations still pending. O(rounds * equations),
    rounds are few."""
    cells = position.cells
    forced_safe: set[int] = set()
    forced_mines: set[int] = set()
    pending = list(range(len(eq_cells)))
    while True:
        check()
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
            return forced_safe, forced_mines, pending
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


def _merge(
    position: Position,
    eq_cells: list[set[int]],
    eq_value: list[int],
    eq_origin: list[int],
    pending: list[int],
) -> list[int]:
    """The pending equations with equations over the same cells merged and empty ones
    dropped; two over the same cells with different values are
    :class:`InconsistentPosition`. O(sum of equation sizes)."""
    cells = position.cells
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
    return live


def _boxes(
    eq_cells: list[set[int]], live: list[int], check: Callable[[], None] = _no_check
) -> tuple[dict[tuple[int, ...], list[int]], set[int]]:
    """Boxes: cells grouped by the equations they are in (signature -> cells in order),
    and every cell in some equation. One pass over the cells of the equations."""
    signature: dict[int, list[int]] = {}
    for n, e in enumerate(live):
        if n % 4096 == 4095:
            check()
        for j in eq_cells[e]:
            if j in signature:
                signature[j].append(e)
            else:
                signature[j] = [e]
    box_of: dict[tuple[int, ...], list[int]] = {}
    for n, j in enumerate(sorted(signature)):
        if n % 4096 == 4095:
            check()
        sig = tuple(signature[j])
        if sig in box_of:
            box_of[sig].append(j)
        else:
            box_of[sig] = [j]
    return box_of, set(signature)


def _components(
    live: list[int],
    box_of: dict[tuple[int, ...], list[int]],
    eq_value: list[int],
    eq_origin: list[int],
    check: Callable[[], None] = _no_check,
) -> list[Component]:
    """Components: union-find over the equations, joined through shared boxes (every
    union first, roots taken after), each written as boxes and local equations.
    Near-linear in the number of boxes and equations."""
    parent = {e: e for e in live}

    def find(a: int) -> int:
        root = a
        while parent[root] != root:
            root = parent[root]
        while parent[a] != root:
            parent[a], a = root, parent[a]
        return root

    for n, sig in enumerate(box_of):
        if n % 4096 == 4095:
            check()
        if len(sig) > 1:
            ra = find(sig[0])
            for e in sig[1:]:
                rb = find(e)
                if rb != ra:
                    parent[rb] = ra
    comp_boxes: dict[int, list[tuple[int, ...]]] = {}
    for sig in box_of:
        root = find(sig[0])
        if root in comp_boxes:
            comp_boxes[root].append(sig)
        else:
            comp_boxes[root] = [sig]
    check()
    components: list[Component] = []
    for sigs in comp_boxes.values():
        check()
        local: dict[int, int] = {}
        members_of: list[list[int]] = []
        for b, sig in enumerate(sigs):
            if b % 4096 == 4095:
                check()
            for e in sig:
                k = local.get(e)
                if k is None:
                    k = local[e] = len(members_of)
                    members_of.append([])
                members_of[k].append(b)
        components.append(
            Component(
                boxes=tuple(tuple(box_of[sig]) for sig in sigs),
                constraints=tuple(
                    (tuple(members), eq_value[e])
                    for e, members in zip(local, members_of, strict=True)
                ),
                origins=tuple(eq_origin[e] for e in local),
            )
        )
    return components


def _without(cells: tuple[int, ...], drop: set[int]) -> tuple[int, ...]:
    """The sorted tuple ``cells`` without ``drop`` (a few cells): bisection, not a scan."""
    out = cells
    for j in sorted(drop, reverse=True):
        k = bisect_left(out, j)
        if k < len(out) and out[k] == j:
            out = out[:k] + out[k + 1 :]
    return out


def _reveal_equations(
    problem: Problem, cell: int, digit: int
) -> tuple[list[int], list[set[int]], list[int], list[int], list[int]]:
    """What :func:`reveal` rebuilds: the indices of the components next to ``cell``,
    their equations without the cell plus the new digit's (cells, values, origins), and
    the digit's unknown neighbours that are not forced. Raises
    :class:`InconsistentPosition` when the digit cannot be shown. O(size of the
    neighbouring components)."""
    position = problem.position
    cells = position.cells
    around_cell = position.neighbour_indices()[cell]
    index = problem.component_of()
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
        if (v == FLAG and problem.trust_flags) or j in problem.forced_mines:
            need -= 1
        elif j not in problem.forced_safe:
            around.append(j)
    if need < 0:
        raise InconsistentPosition(
            f"cell {_where(position, cell)} cannot show {digit}: it already has "
            f"{plural(digit - need, 'mine')} around it"
        )
    if need > len(around):
        raise InconsistentPosition(
            f"cell {_where(position, cell)} cannot show {digit}: "
            f"{plural(len(around), 'unknown neighbour')} for {plural(need, 'more mine')}"
        )
    if around:
        eq_cells.append(set(around))
        eq_value.append(need)
        eq_origin.append(cell)
    return affected, eq_cells, eq_value, eq_origin, around


def reveal(problem: Problem, cell: int, digit: int, child: Position | None = None) -> Problem:
    """The problem after the unknown cell ``cell`` (an index) is opened and shows ``digit``.

    Only the components next to the cell are rebuilt (their equations, minus the cell,
    plus the new digit's, propagated and split again); every other component is kept as
    the same object, so a count cache keyed by shape finds it. Equal to
    ``build(position with the digit)`` but O(size of the neighbouring components)
    instead of O(board). Raises :class:`InconsistentPosition` when no layout of
    ``problem`` has the cell safe with ``digit`` mines around it. ``child``, the revealed
    position, may be passed when the caller has built it already.
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
    if child is None:
        child = Position(
            position.width,
            position.height,
            (*cells[:cell], digit, *cells[cell + 1 :]),
            position.mines,
        )
    affected, eq_cells, eq_value, eq_origin, around = _reveal_equations(problem, cell, digit)
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
    interior = _without(problem.interior, {cell, *around})
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
        density=problem.density,
        trust_flags=trust,
    )
