"""Per-component backtracking with two prunings: the articles' enumeration, made exact.

Boxes are assigned a mine number one after another (in the frontier order of
:func:`minesolver.engines.frontier.box_order`, so clues close early). Two prunings cut a
branch as soon as a clue is

* over-full: its boxes already hold more mines than its digit asks, or
* unfillable: the mines it still needs exceed what its unassigned boxes can hold.

Each leaf is one assignment of mine numbers to boxes, standing for
``w = prod C(s_b, k_b)`` layouts with ``m = sum k_b`` mines; the same leaf adds ``w`` to
``layouts[m]`` and, for every box with ``k_b`` mines, ``w * k_b / s_b`` (the layouts in
which one given cell of the box is a mine, ``C(s-1, k-1) * rest``) to ``box_mines[b][m]``.
Exact Python ints throughout.

Complexity: O(leaves * n) for ``n`` boxes, the leaves being the consistent box
assignments (exponential in the length of the component, unlike the frontier DP and
bucket elimination). The search is refused with
:class:`~minesolver.engines.EngineLimitExceeded` once it has visited :data:`MAX_NODES`
nodes (or at once for more than :data:`MAX_BOXES` boxes), so it never hangs; use it
for comparison and small components.
"""

from __future__ import annotations

from math import comb

from minesolver.constraints import Component
from minesolver.counting import ComponentCount, Poly
from minesolver.engines.base import EngineLimitExceeded, check_deadline
from minesolver.engines.elimination import canonical_count
from minesolver.engines.frontier import box_order
from minesolver.engines.generic import ComponentEngineBase

__all__ = ["MAX_BOXES", "MAX_NODES", "EnumerationEngine"]

MAX_BOXES = 400
"""Most boxes in a component (the search recurses once per box)."""

MAX_NODES = 1_000_000
"""Most search nodes (partial assignments) visited before the engine gives up."""


class EnumerationEngine(ComponentEngineBase):
    """Exact counts by backtracking over box mine numbers (``enumerate``)."""

    name = "enumerate"

    def __init__(self, max_nodes: int = MAX_NODES) -> None:
        self.max_nodes = max_nodes

    def count(self, component: Component) -> ComponentCount:
        check_deadline()
        if len(component.boxes) > MAX_BOXES:
            raise EngineLimitExceeded(
                f"enumerate: component of {len(component.boxes)} boxes exceeds its limit of "
                f"{MAX_BOXES} boxes; use the exact or elimination engine"
            )
        order = box_order(component)
        sizes = [len(component.boxes[b]) for b in order]
        n = len(order)
        pos = {b: i for i, b in enumerate(order)}
        cons_of: list[list[int]] = [[] for _ in range(n)]
        need = [v for _, v in component.constraints]
        room = [0] * len(need)  # cells of a clue in boxes not yet assigned
        for c, (boxes, _) in enumerate(component.constraints):
            for b in boxes:
                cons_of[pos[b]].append(c)
                room[c] += sizes[pos[b]]
        total_cells = sum(sizes)
        layouts: Poly = [0] * (total_cells + 1)
        box_mines: list[Poly] = [[0] * (total_cells + 1) for _ in range(n)]
        ks = [0] * n
        nodes = 0
        limit = self.max_nodes

        def search(i: int, weight: int, mines: int) -> None:
            nonlocal nodes
            nodes += 1
            if nodes & 1023 == 1023:
                check_deadline()
            if nodes > limit:
                raise EngineLimitExceeded(
                    f"enumerate: component of {n} boxes ({total_cells} cells) needs more "
                    f"than {limit} search nodes; use the exact or elimination engine"
                )
            if i == n:
                layouts[mines] += weight
                for j in range(n):
                    k = ks[j]
                    if k:
                        box_mines[j][mines] += weight * k // sizes[j]
                return
            s = sizes[i]
            cons = cons_of[i]
            for c in cons:
                room[c] -= s
            lo, hi = 0, s
            for c in cons:  # both prunings, as bounds on k: need - room <= k <= need.
                lo = max(lo, need[c] - room[c])
                hi = min(hi, need[c])
            for k in range(lo, hi + 1):
                for c in cons:
                    need[c] -= k
                ks[i] = k
                search(i + 1, weight * comb(s, k), mines + k)
                for c in cons:
                    need[c] += k
            ks[i] = 0
            for c in cons:
                room[c] += s

        search(0, 1, 0)
        out: list[Poly] = [[] for _ in range(n)]
        for i, b in enumerate(order):
            out[b] = box_mines[i]
        return canonical_count(layouts, out)
