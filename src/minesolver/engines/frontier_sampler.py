"""Exact-weight sampling of one component's layouts, on the frontier programme.

:class:`ComponentSampler` runs the frontier programme of :mod:`minesolver.engines.frontier`
(the exact engine's order, plan and transitions) forward, keeping each state's
predecessors, and draws a uniformly random layout with a given mine number by walking back
(exact ints, never a float weight). :func:`choose` draws an index with exact integer
weights. Used by :mod:`~minesolver.engines.sampling` (i.i.d. draws) and
:mod:`~minesolver.engines.mcmc` (block moves). The cost estimate that keeps the ``sampling``
and ``auto`` engines from starting a count that would not end is
:func:`~minesolver.engines.frontier.dry_run_ops` (importable from here too).

Cost: building a sampler is the exact engine's forward pass, O(n * S * s * L) for ``n``
boxes, ``S`` states a step, box size ``s`` and polynomial length ``L``; a draw is
O(n * predecessors) once the cumulative weights it visits are memoised.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from math import comb

from minesolver.constraints import Component
from minesolver.counting import Poly, poly_add_shifted
from minesolver.engines.base import check_deadline
from minesolver.engines.frontier import State, dry_run_ops, plan, transitions

__all__ = ["ComponentSampler", "State", "choose", "dry_run_ops"]


def choose(weights: Sequence[int], rng: random.Random) -> int:
    """An index drawn with probability ``weights[i] / sum(weights)`` (exact ints)."""
    r = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        r -= w
        if r < 0:
            return i
    raise AssertionError("unreachable: r < sum(weights)")


class ComponentSampler:
    """Uniform layouts of one component with a given mine number.

    A forward pass of the frontier programme over the boxes
    (:func:`~minesolver.engines.frontier.plan` and its
    :func:`~minesolver.engines.frontier.transitions`; value: mine-count polynomial of the
    partial layouts) keeps, per step, each state's predecessors; drawing walks back from
    the final state choosing a predecessor with weight ``forward[prev][t - k] * C(s, k)``.
    ``order`` replaces the default box order
    (:func:`~minesolver.engines.frontier.box_order`, which needs a connected component).
    Build O(n * S * s * L), draw O(n * edges).
    """

    def __init__(self, component: Component, order: list[int] | None = None) -> None:
        skeleton = plan(component, order)
        self.order = skeleton.order
        self.sizes = skeleton.sizes
        self._start = skeleton.start
        self.forward: list[dict[State, Poly]] = [{skeleton.start: [1]}]
        self.preds: list[dict[State, list[tuple[State, int]]]] = []
        for step, s in zip(skeleton.steps, self.sizes, strict=True):
            check_deadline()
            current = self.forward[-1]
            nxt: dict[State, Poly] = {}
            preds: dict[State, list[tuple[State, int]]] = {}
            for key, k, key2 in transitions(step, s, current):
                acc = nxt.get(key2)
                if acc is None:
                    acc = nxt[key2] = []
                    preds[key2] = []
                poly_add_shifted(acc, current[key], k, comb(s, k))
                preds[key2].append((key, k))
            self.forward.append(nxt)
            self.preds.append(preds)
        self.layouts: Poly = self.forward[-1].get(skeleton.start, [])
        # cumulative predecessor weights by (step, state, mines left), built on demand.
        self._memo: dict[tuple[int, State, int], list[int]] = {}

    def draw(self, mines: int, rng: random.Random) -> dict[int, int]:
        """Mine number of each box (by the component's box index) of a uniformly random
        layout with ``mines`` mines."""
        state: State = self._start
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
