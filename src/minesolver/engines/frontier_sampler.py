"""Exact-weight sampling of one component's layouts: the frontier DP kept for drawing.

:class:`FrontierPlan` is the frontier DP's transitions without its values (the box order
of :func:`~minesolver.engines.exact.box_order` and, per step, how the clues' residues
move). :class:`ComponentSampler` runs the DP forward, keeping each state's predecessors,
and draws a uniformly random layout with a given mine number by walking back (exact
ints, never a float weight). :func:`dry_run_ops` walks the same transitions without
polynomials to estimate what an exact count would cost, so that the ``sampling`` and
``auto`` engines never start a count that would not end. :func:`choose` draws an index
with exact integer weights. Used by :mod:`~minesolver.engines.sampling` (i.i.d. draws)
and :mod:`~minesolver.engines.mcmc` (block moves).

Cost: building a sampler is the exact engine's forward pass, O(n * S * s * L) for ``n``
boxes, ``S`` states a step, box size ``s`` and polynomial length ``L``; a draw is
O(n * predecessors) once the cumulative weights it visits are memoised; a dry run costs
about ``1/L`` of the count and stops once over its limit.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from math import comb

from minesolver.constraints import Component
from minesolver.counting import Poly, poly_add_shifted
from minesolver.engines.exact import box_order

__all__ = ["ComponentSampler", "FrontierPlan", "State", "choose", "dry_run_ops"]

State = tuple[int, ...]
"""A frontier DP state: the mines still owed by each open clue, in clue order."""


def choose(weights: Sequence[int], rng: random.Random) -> int:
    """An index drawn with probability ``weights[i] / sum(weights)`` (exact ints)."""
    r = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    raise AssertionError("unreachable: r < sum(weights)")


class FrontierPlan:
    """A box order and, per step, how the clues' residues move: the frontier DP's
    transitions without its values (shared by :class:`ComponentSampler` and the cost
    estimate :func:`dry_run_ops`).

    The state before step ``i`` is the tuple of mines still owed by each clue *open* there
    (a box before ``i`` and one at or after it), in clue order. Building is
    O(n + sum of clue sizes) plus the open lists. ``order`` replaces the default box order
    (:func:`~minesolver.engines.exact.box_order`, which needs a connected component).
    """

    def __init__(self, component: Component, order: list[int] | None = None) -> None:
        order = box_order(component) if order is None else order
        self.order = order
        self.sizes = sizes = [len(component.boxes[b]) for b in order]
        n = len(order)
        pos = {b: i for i, b in enumerate(order)}
        self.values = [v for _, v in component.constraints]
        self.members = [frozenset(pos[b] for b in boxes) for boxes, _ in component.constraints]
        first = [min(m) for m in self.members]
        last = [max(m) for m in self.members]
        opens_at: list[list[int]] = [[] for _ in range(n + 1)]
        closes_at: list[list[int]] = [[] for _ in range(n)]
        for c in range(len(self.values)):
            if first[c] < last[c]:
                opens_at[first[c] + 1].append(c)
            closes_at[last[c]].append(c)
        self.opened: list[list[int]] = [[]]
        current: set[int] = set()
        for i in range(1, n + 1):
            current.update(opens_at[i])
            current.difference_update(closes_at[i - 1])
            self.opened.append(sorted(current))
        # per step: for each clue closing at the box, (source slot or -1, value, in box);
        # for each clue open after it, (source slot or -1, value, in box, cap after).
        self.steps: list[tuple[list[tuple[int, int, bool]], list[tuple[int, int, bool, int]]]] = []
        for i in range(n):
            src = {c: j for j, c in enumerate(self.opened[i])}
            closes = [(src.get(c, -1), self.values[c], i in self.members[c]) for c in closes_at[i]]
            carries = [
                (
                    src.get(c, -1),
                    self.values[c],
                    i in self.members[c],
                    sum(sizes[p] for p in self.members[c] if p > i),
                )
                for c in self.opened[i + 1]
            ]
            self.steps.append((closes, carries))

    def successors(self, i: int, key: State) -> list[tuple[int, State]]:
        """``(k, next state)`` for each mine number ``k`` of box ``i`` that neither
        over-fills a clue nor leaves one unfillable. O(sizes * open clues)."""
        closes, carries = self.steps[i]
        out: list[tuple[int, State]] = []
        for k in range(self.sizes[i] + 1):
            ok = True
            for j, v, inside in closes:
                if (key[j] if j >= 0 else v) - (k if inside else 0) != 0:
                    ok = False
                    break
            if not ok:
                continue
            nxt = []
            for j, v, inside, cap in carries:
                r = (key[j] if j >= 0 else v) - (k if inside else 0)
                if r < 0 or r > cap:
                    ok = False
                    break
                nxt.append(r)
            if ok:
                out.append((k, tuple(nxt)))
        return out


class ComponentSampler:
    """Uniform layouts of one component with a given mine number.

    A forward frontier DP over the boxes (:class:`FrontierPlan`; value: mine-count
    polynomial of the partial layouts) keeps, per step, each state's predecessors;
    drawing walks back from the final state choosing a predecessor with weight
    ``forward[prev][t - k] * C(s, k)``. Build O(n * S * s * L), draw O(n * edges).
    """

    def __init__(self, component: Component, order: list[int] | None = None) -> None:
        plan = FrontierPlan(component, order)
        self.order = plan.order
        self.sizes = plan.sizes
        self.forward: list[dict[State, Poly]] = [{(): [1]}]
        self.preds: list[dict[State, list[tuple[State, int]]]] = []
        for i, s in enumerate(self.sizes):
            nxt: dict[State, Poly] = {}
            preds: dict[State, list[tuple[State, int]]] = {}
            for key, poly in self.forward[i].items():
                for k, key2 in plan.successors(i, key):
                    acc = nxt.get(key2)
                    if acc is None:
                        acc = nxt[key2] = []
                        preds[key2] = []
                    poly_add_shifted(acc, poly, k, comb(s, k))
                    preds[key2].append((key, k))
            self.forward.append(nxt)
            self.preds.append(preds)
        self.layouts: Poly = self.forward[-1].get((), [])
        # cumulative predecessor weights by (step, state, mines left), built on demand.
        self._memo: dict[tuple[int, State, int], list[int]] = {}

    def draw(self, mines: int, rng: random.Random) -> dict[int, int]:
        """Mine number of each box (by the component's box index) of a uniformly random
        layout with ``mines`` mines."""
        state: State = ()
        t = mines
        out: dict[int, int] = {}
        memo = self._memo
        for i in range(len(self.order) - 1, -1, -1):
            options = self.preds[i][state]
            hit = memo.get((i, state, t))
            if hit is None:
                s = self.sizes[i]
                fwd = self.forward[i]
                cumulative = list(
                    accumulate(
                        fwd[prev][t - k] * comb(s, k) if 0 <= t - k < len(fwd[prev]) else 0
                        for prev, k in options
                    )
                )
                hit = memo[(i, state, t)] = cumulative
            state, k = options[bisect_right(hit, rng.randrange(hit[-1]))]
            out[self.order[i]] = k
            t -= k
        return out


def dry_run_ops(component: Component, limit: float) -> float:
    """Estimated operations of the exact count of ``component``: the frontier DP's
    transitions weighted by the polynomial length, or ``inf`` once above ``limit``.
    Cost: at most about ``limit / L`` tuple operations, plus building the plan (the box
    order, O(n^2) for ``n`` boxes), which is skipped when even the least possible work,
    one transition per step (``sum of (i + 1)`` over the ``n`` steps), is above ``limit``."""
    n = len(component.boxes)
    if n * (n + 3) / 2 > limit:
        return float("inf")
    plan = FrontierPlan(component)
    states: set[State] = {()}
    ops = 0.0
    placed = 0
    for i, s in enumerate(plan.sizes):
        nxt: set[State] = set()
        transitions = 0
        for key in states:
            for _, key2 in plan.successors(i, key):
                nxt.add(key2)
                transitions += 1
        placed += s
        ops += transitions * (placed + 1)
        if ops > limit:
            return float("inf")
        states = nxt
    return ops
