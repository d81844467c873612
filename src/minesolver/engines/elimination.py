"""Bucket elimination on the factor graph of a component, with all marginals from two passes.

The component is a factor graph over its boxes: box ``b`` of ``s`` cells is a variable
``k_b`` in ``0..s`` (its mine number) with the unary weight ``C(s, k) x^k``, and every
digit is a 0/1 clue factor ``[sum of its boxes == value]``. Factor values are mine-count
polynomials (:data:`~minesolver.counting.Poly`): multiplying two factors joins their tables
and convolves the values; summing a variable out adds the entries that differ only in it.
Each box's mine count ``x^k`` lives in its unary factor only, so a mine is counted once,
when its box is summed out, never in the clue factors.

Elimination order: min-fill (the box whose elimination adds the fewest new edges to the
interaction graph, ties to the fewest neighbours). Eliminating box ``b`` makes a bucket
(clique) ``{b} + separator``; the buckets form a junction tree whose parent of ``b`` is
the bucket of the earliest-eliminated box of its separator.

Two passes give every marginal: an upward pass (leaves to root) sends each bucket's
product summed over its own box to its parent; a downward pass sends each parent's
product of everything except that child, summed to the child's separator. A bucket's
belief (its factors times all incoming messages, without the box's own unary weight) then
gives, for each ``k``, the polynomial ``P_k`` of the rest; the layouts are
``sum_k C(s, k) x^k P_k`` and the layouts in which one given cell of the box is a mine
``sum_k C(s-1, k-1) x^k P_k``.

Tables are sparse (only assignments consistent with the clues are stored). Complexity:
O(n * T * L^2) big-integer operations for ``n`` boxes, ``T`` the largest table (at most
``prod (s+1)`` over a bucket: exponential only in the induced width of the order, not in
the number of cells) and ``L`` the polynomial length. Components whose largest bucket
would exceed :data:`MAX_TABLE` entries are refused with
:class:`~minesolver.engines.EngineLimitExceeded` before any table is built.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import comb, prod

from minesolver.constraints import Component
from minesolver.counting import ComponentCount, Poly, convolve, poly_add_shifted
from minesolver.engines.base import EngineLimitExceeded, check_deadline
from minesolver.engines.generic import ComponentEngineBase

__all__ = ["MAX_TABLE", "EliminationEngine", "Factor", "canonical_count", "min_fill_order"]

MAX_TABLE = 2_000_000
"""Largest dense size ``prod (s_b + 1)`` of a bucket the engine accepts."""

Assignment = tuple[int, ...]


class Factor:
    """A sparse table: ``scope`` (sorted box indices) and mine-count polynomial per
    assignment of the scope's mine numbers."""

    __slots__ = ("scope", "table")

    def __init__(self, scope: Sequence[int], table: dict[Assignment, Poly]) -> None:
        self.scope = tuple(scope)
        self.table = table

    def multiply(self, other: Factor) -> Factor:
        """The product: a join on the shared boxes, values convolved. O(|A| * |B| * L^2)
        at worst, O(|A| * matches * L^2) with the index on the shared boxes."""
        scope = tuple(sorted(set(self.scope) | set(other.scope)))
        shared = [b for b in other.scope if b in self.scope]
        pos_a = {b: i for i, b in enumerate(self.scope)}
        pos_b = {b: i for i, b in enumerate(other.scope)}
        key_a = [pos_a[b] for b in shared]
        key_b = [pos_b[b] for b in shared]
        index: dict[Assignment, list[tuple[Assignment, Poly]]] = {}
        for asg, poly in other.table.items():
            index.setdefault(tuple(asg[i] for i in key_b), []).append((asg, poly))
        take = [(0, pos_a[b]) if b in pos_a else (1, pos_b[b]) for b in scope]
        table: dict[Assignment, Poly] = {}
        for n, (asg, poly) in enumerate(self.table.items()):
            if n & 255 == 255:
                check_deadline()
            for asg2, poly2 in index.get(tuple(asg[i] for i in key_a), ()):
                pair = (asg, asg2)
                table[tuple(pair[s][i] for s, i in take)] = convolve(poly, poly2)
        return Factor(scope, table)

    def sum_out(self, keep: Iterable[int]) -> Factor:
        """Sum over every box not in ``keep``. O(|table| * L)."""
        scope = tuple(sorted(set(keep) & set(self.scope)))
        where = [self.scope.index(b) for b in scope]
        table: dict[Assignment, Poly] = {}
        for asg, poly in self.table.items():
            key = tuple(asg[i] for i in where)
            acc = table.get(key)
            if acc is None:
                table[key] = list(poly)
            else:
                poly_add_shifted(acc, poly, 0)
        return Factor(scope, table)


def _clue(boxes: Sequence[int], sizes: Sequence[int], value: int) -> Factor:
    """The 0/1 indicator ``[sum of k_b over boxes == value]`` as a sparse table."""
    scope = tuple(sorted(boxes))
    caps = [sizes[b] for b in scope]
    table: dict[Assignment, Poly] = {}
    suffix = [0] * (len(scope) + 1)
    for i in range(len(scope) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + caps[i]

    def place(i: int, left: int, asg: list[int]) -> None:
        if i == len(scope):
            if left == 0:
                table[tuple(asg)] = [1]
            return
        for k in range(max(0, left - suffix[i + 1]), min(caps[i], left) + 1):
            asg.append(k)
            place(i + 1, left - k, asg)
            asg.pop()

    place(0, value, [])
    return Factor(scope, table)


def min_fill_order(n: int, edges: Iterable[Sequence[int]]) -> tuple[list[int], list[set[int]]]:
    """A min-fill elimination order of ``n`` variables and each one's separator.

    ``edges`` lists the variable groups that interact (a clue's boxes). Greedy: eliminate
    the variable adding the fewest fill edges, ties to the fewest neighbours then the
    lowest index. O(n^2 * d^2) for neighbourhoods of size ``d``.
    """
    adj: list[set[int]] = [set() for _ in range(n)]
    for group in edges:
        for a in group:
            adj[a].update(b for b in group if b != a)
    alive = set(range(n))
    order: list[int] = []
    separators: list[set[int]] = [set() for _ in range(n)]

    def fill(v: int) -> int:
        nb = list(adj[v])
        return sum(1 for i, a in enumerate(nb) for b in nb[i + 1 :] if b not in adj[a])

    while alive:
        check_deadline()  # each step scores every vertex left
        v = min(alive, key=lambda u: (fill(u), len(adj[u]), u))
        nb = adj[v]
        separators[v] = set(nb)
        for a in nb:
            adj[a].discard(v)
            adj[a].update(b for b in nb if b != a)
        alive.discard(v)
        adj[v] = set()
        order.append(v)
    return order, separators


def _product(factors: Sequence[Factor]) -> Factor:
    """Product of factors, smallest tables first (keeps intermediate joins sparse)."""
    out = Factor((), {(): [1]})
    for f in sorted(factors, key=lambda f: len(f.table)):
        out = out.multiply(f)
    return out


class EliminationEngine(ComponentEngineBase):
    """Exact counts by bucket elimination with a two-pass junction tree (``elimination``)."""

    name = "elimination"

    def count(self, component: Component) -> ComponentCount:
        sizes = [len(b) for b in component.boxes]
        n = len(sizes)
        order, seps = min_fill_order(n, (boxes for boxes, _ in component.constraints))
        rank = {b: i for i, b in enumerate(order)}
        for b in order:
            dense = prod(sizes[a] + 1 for a in seps[b]) * (sizes[b] + 1)
            if dense > MAX_TABLE:
                raise EngineLimitExceeded(
                    f"elimination: a bucket of {len(seps[b]) + 1} boxes has up to {dense} "
                    f"entries, more than its limit of {MAX_TABLE} (induced width too large)"
                )
        # each clue goes to the bucket of its earliest-eliminated box.
        local: list[list[Factor]] = [[] for _ in range(n)]
        for boxes, value in component.constraints:
            first = min(boxes, key=rank.__getitem__)
            local[first].append(_clue(boxes, sizes, value))
        for b in range(n):
            if not any(b in f.scope for f in local[b]):
                # a box with no clue bucket of its own still needs its variable.
                local[b].append(Factor((b,), {(k,): [1] for k in range(sizes[b] + 1)}))
        unary = [
            Factor((b,), {(k,): [0] * k + [comb(sizes[b], k)] for k in range(sizes[b] + 1)})
            for b in range(n)
        ]
        parent: list[int | None] = [
            min(seps[b], key=rank.__getitem__) if seps[b] else None for b in range(n)
        ]
        children: list[list[int]] = [[] for _ in range(n)]
        for b in order:
            p = parent[b]
            if p is not None:
                children[p].append(b)

        # upward pass, in elimination order (children before parents).
        one = Factor((), {(): [1]})
        up: list[Factor] = [one] * n
        for b in order:
            inner = local[b] + [up[c] for c in children[b]]
            up[b] = _product([*inner, unary[b]]).sum_out(seps[b])
        roots = [b for b in order if parent[b] is None]
        totals = {r: up[r].table.get((), []) for r in roots}

        # downward pass, parents before children.
        down: list[Factor] = [one] * n
        for r in roots:
            rest: Poly = [1]
            for other in roots:
                if other != r:
                    rest = convolve(rest, totals[other])
            down[r] = Factor((), {(): rest})
        layouts: Poly = []
        box_mines: list[Poly] = [[] for _ in range(n)]
        for b in reversed(order):
            incoming = [up[c] for c in children[b]]
            base = [*local[b], down[b]]
            # belief without b's own unary weight, summed to b alone.
            belief = _product([*base, *incoming]).sum_out((b,))
            marginal = box_mines[b]
            total: Poly = []
            s = sizes[b]
            for (k,), poly in belief.table.items():
                poly_add_shifted(total, poly, k, comb(s, k))
                if k:
                    poly_add_shifted(marginal, poly, k, comb(s - 1, k - 1))
            if b == order[-1]:
                layouts = total
            for c in children[b]:
                others = [up[o] for o in children[b] if o != c]
                down[c] = _product([*base, *others, unary[b]]).sum_out(seps[c])
        return canonical_count(layouts, box_mines)


def canonical_count(layouts: Poly, box_mines: list[Poly]) -> ComponentCount:
    """The count with trailing zero coefficients dropped from every polynomial: the form
    the exact engines share, so equal counts compare equal."""

    def strip(poly: Poly) -> Poly:
        end = len(poly)
        while end and poly[end - 1] == 0:
            end -= 1
        return poly[:end]

    return ComponentCount(layouts=strip(layouts), box_mines=[strip(p) for p in box_mines])
