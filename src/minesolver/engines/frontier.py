"""The frontier dynamic programme's skeleton: box order, plan and transitions, written once.

Three users walk the same programme: the exact engine counts with it
(:class:`~minesolver.engines.exact_py.ExactPyEngine`), the exact-weight sampler draws with it
(:class:`~minesolver.engines.frontier_sampler.ComponentSampler`), and the cost estimate
(:func:`dry_run_ops`) walks it without values to bound what a count would cost before it
starts. They all take their transitions from :func:`transitions`, so the estimate walks
exactly what the engine does.

Boxes are taken in an order that keeps few equations *open* (some of their boxes placed,
some not): :func:`box_order`. The state before box ``i`` is the tuple of mines still owed
by each open equation, one *slot* per equation from the box that opens it to the box that
closes it (a closed equation's slot is 0 and free for the next one), so a step touches
only the equations of its box (:func:`plan`). A transition places ``k`` mines in the box;
two prunings keep the states few: an equation never owes a negative number of mines
(over-full), nor more than its unplaced boxes can hold (can no longer be filled). An
equation closing at the box fixes ``k`` outright.

Cost: the order is greedy, O(n^2 * degree) for ``n`` boxes (breadth-first, O(n * degree),
up to :data:`SMALL` boxes); the plan is O(sum of equation sizes); a step's transitions are
O(S * s * d) tuple operations for ``S`` states, box size ``s`` and ``d`` equations at the
box. ``S`` is exponential only in the width of the order (the most equations open at once),
which is small for the strips and loops of a real frontier. :func:`dry_run_ops` costs the
transitions alone, about ``1/L`` of a count (``L`` the polynomial length), and stops once
over its limit; :func:`sampled_components` and :func:`check_exact_fits` turn it into
seconds (:data:`SECONDS_PER_OP`), for ``auto`` and the Python engines under a time limit.

Two digits 1 share two cells (one box) and each has a cell of its own (two more boxes):

>>> from minesolver.constraints import build
>>> from minesolver.position import Position
>>> comp = build(Position.from_text("3x2x2\\n1H1\\nHHH")).components[0]
>>> skeleton = plan(comp)
>>> skeleton.steps[0]
[(0, True, 1, 1), (1, True, 1, 1)]
>>> list(transitions(skeleton.steps[0], skeleton.sizes[0], [skeleton.start]))
[((0, 0), 0, (1, 1)), ((0, 0), 1, (0, 0))]
>>> dry_run_ops(comp, float("inf"))
24.0
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import NamedTuple

from minesolver.constraints import Component, Problem
from minesolver.engines.base import EngineLimitExceeded, check_deadline

__all__ = [
    "SECONDS_PER_OP",
    "SMALL",
    "TINY",
    "Edge",
    "Plan",
    "State",
    "Touch",
    "box_order",
    "check_exact_fits",
    "dry_run_ops",
    "plan",
    "sampled_components",
    "transitions",
]

State = tuple[int, ...]
"""A state of the programme: the mines still owed by each open equation, by slot."""
Touch = tuple[int, bool, int, int]
"""One equation containing a step's box: its slot, whether it opens at this box, its value,
and how many mines its later boxes can still hold (0: it closes at this box)."""
Edge = tuple[State, int, State]
"""A transition kept by the prunings: ``(state, mines in the box, next state)``."""

TINY = 12
"""Components of at most this many boxes keep the order they were built in."""
SMALL = 40
"""Components of at most this many boxes are ordered breadth-first, without the greedy."""


def box_order(component: Component) -> list[int]:
    """A box order keeping few equations open at once (greedy, O(n^2 * degree)): next the
    box that closes the most equations and opens the fewest, starting from a peripheral
    box (found by breadth-first search)."""
    n = len(component.boxes)
    if n <= TINY:
        # a handful of boxes: any order keeps the states few; build() lists the boxes in
        # reading order of their cells, which is already spatially coherent.
        return list(range(n))
    box_cons: list[list[int]] = [[] for _ in range(n)]
    for c, (boxes, _) in enumerate(component.constraints):
        for b in boxes:
            box_cons[b].append(c)
    # peripheral start: the box farthest from box 0 by breadth-first search.
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for boxes, _ in component.constraints:
        for b in boxes:
            neighbours[b].update(boxes)
    dist = [-1] * n
    dist[0] = 0
    queue = deque([0])
    last = 0
    while queue:
        last = b = queue.popleft()
        for o in neighbours[b]:
            if dist[o] < 0:
                dist[o] = dist[b] + 1
                queue.append(o)
    dist = [-1] * n
    dist[last] = 0
    queue = deque([last])
    while queue:
        b = queue.popleft()
        for o in neighbours[b]:
            if dist[o] < 0:
                dist[o] = dist[b] + 1
                queue.append(o)

    if n <= SMALL:
        # few boxes: any order keeps the states few; breadth-first from the periphery.
        return sorted(range(n), key=lambda b: (dist[b], b))
    unplaced = [len(boxes) for boxes, _ in component.constraints]
    opened = [False] * len(component.constraints)
    placed = [False] * n
    order: list[int] = []
    candidates = {last}
    while len(order) < n:
        check_deadline()  # each step scans every candidate: thousands on a wide board
        if not candidates:  # a disconnected part (not from build(), but accepted)
            candidates.add(next(b for b in range(n) if not placed[b]))
        best = min(
            candidates,
            key=lambda b: (
                sum(1 for c in box_cons[b] if not opened[c] and unplaced[c] > 1)
                - sum(1 for c in box_cons[b] if unplaced[c] == 1),
                dist[b],
                b,
            ),
        )
        candidates.discard(best)
        placed[best] = True
        order.append(best)
        for c in box_cons[best]:
            opened[c] = True
            unplaced[c] -= 1
            if unplaced[c]:
                for o in component.constraints[c][0]:
                    if not placed[o]:
                        candidates.add(o)
    return order


class Plan(NamedTuple):
    """The programme of one component: the box ``order``, each step's box ``sizes``, each
    step's equations (``steps[i]``, a list of :data:`Touch`, a closing one first), the
    number of ``slots`` of a state, and the state before the first box and after the last
    (``start``: nothing owed, ``(0,) * slots``)."""

    order: list[int]
    sizes: list[int]
    steps: list[list[Touch]]
    slots: int
    start: State


def plan(component: Component, order: list[int] | None = None) -> Plan:
    """The programme of ``component`` in ``order`` (by default :func:`box_order`): for
    each box, the equations it belongs to, each as ``(slot, opens, value, capacity left
    after the box)``, a closing one first. An equation keeps one slot of the state tuple
    from the box that opens it to the box that closes it (then the slot is 0 and free
    again). O(sum of equation sizes)."""
    if order is None:
        order = box_order(component)
    n = len(order)
    pos = [0] * len(component.boxes)
    for i, b in enumerate(order):
        pos[b] = i
    sizes = [len(component.boxes[b]) for b in order]
    box_cons: list[list[int]] = [[] for _ in range(n)]
    last: list[int] = []
    capacity: list[int] = []
    for c, (boxes, _) in enumerate(component.constraints):
        ps = [pos[b] for b in boxes]
        last.append(max(ps))
        capacity.append(sum(sizes[p] for p in ps))
        for p in ps:
            box_cons[p].append(c)
    values = [v for _, v in component.constraints]
    slot_of: dict[int, int] = {}
    free: list[int] = []
    slots = 0
    steps: list[list[Touch]] = []
    for i in range(n):
        touch: list[Touch] = []
        for c in box_cons[i]:
            capacity[c] -= sizes[i]
            opens = c not in slot_of
            if opens:
                if free:
                    slot_of[c] = free.pop()
                else:
                    slot_of[c] = slots
                    slots += 1
            touch.append((slot_of[c], opens, values[c], capacity[c]))
        for t, entry in enumerate(touch):  # a closing equation (capacity 0) first
            if entry[3] == 0:
                touch[0], touch[t] = entry, touch[0]
                break
        steps.append(touch)
        for c in box_cons[i]:
            if last[c] == i:
                free.append(slot_of[c])
    return Plan(order, sizes, steps, slots, (0,) * slots)


def transitions(step: list[Touch], size: int, states: Iterable[State]) -> list[Edge]:
    """The transitions of one step from each of ``states`` in turn, ``k`` rising: every
    ``(state, k, next state)`` placing ``k`` mines in the step's box of ``size`` cells that
    neither over-fills an equation nor leaves one unfillable. The one transition function
    of the programme (a list, not a generator: the count keeps it for its backward pass,
    and building it is the hot loop). O(states * size * equations at the box). Checks the
    current deadline (:func:`~minesolver.engines.base.check_deadline`) every 1024 states,
    as :func:`box_order` does at every box."""
    closing = step[0] if step and step[0][3] == 0 else None
    every = range(size + 1)
    out: list[Edge] = []
    add = out.append
    for n, key in enumerate(states):
        if n & 1023 == 1023:
            check_deadline()
        choices: range | tuple[int, ...]
        if closing is not None:
            # an equation closing here fixes the box's mine number outright.
            slot, opens, value, _ = closing
            k0 = value if opens else key[slot]
            choices = (k0,) if 0 <= k0 <= size else ()
        else:
            choices = every
        for k in choices:
            new = list(key)
            for slot, opens, value, cap in step:
                r = (value if opens else new[slot]) - k
                if r < 0 or r > cap:
                    break
                new[slot] = r
            else:
                add((key, k, tuple(new)))
    return out


def dry_run_ops(component: Component, limit: float) -> float:
    """Estimated operations of the exact count of ``component``: the programme's
    transitions (:func:`transitions`, the ones the count takes) weighted by the polynomial
    length, or ``inf`` once above ``limit``. Cost: at most about ``limit / L`` tuple
    operations, plus building the plan (the box order, O(n^2) for ``n`` boxes), which is
    skipped when even the least possible work, one transition per step
    (``sum of (i + 1)`` over the ``n`` steps), is above ``limit``."""
    n = len(component.boxes)
    if n * (n + 3) / 2 > limit:
        return float("inf")
    skeleton = plan(component)
    states: set[State] = {skeleton.start}
    ops = 0.0
    placed = 0
    for step, s in zip(skeleton.steps, skeleton.sizes, strict=True):
        edges = transitions(step, s, states)
        nxt = {key2 for _, _, key2 in edges}
        placed += s
        ops += len(edges) * (placed + 1)
        if ops > limit:
            return float("inf")
        states = nxt
    return ops


SECONDS_PER_OP = 3e-7
"""Seconds per estimated big-integer operation of the frontier DP (forward and backward
passes together), measured by ``benchmarks/bench_engines.py --calibrate``."""


def sampled_components(problem: Problem, seconds: float) -> frozenset[int]:
    """Indices of the components whose exact count would not fit in ``seconds`` (after
    the cheaper ones): cheapest first, identical components costed once.

    Cost: one dry run per distinct component, each stopped once it exceeds the budget.
    """
    budget_ops = seconds / SECONDS_PER_OP
    costs: dict[object, float] = {}
    order: list[tuple[float, int]] = []
    for j, comp in enumerate(problem.components):
        key = comp.key()
        if key not in costs:
            costs[key] = dry_run_ops(comp, budget_ops)
            order.append((costs[key], j))
        else:
            order.append((0.0, j))
    used = 0.0
    out: set[int] = set()
    for cost, j in sorted(order):
        if used + cost > budget_ops:
            out.add(j)
        else:
            used += cost
    return frozenset(out)


def check_exact_fits(problem: Problem, seconds: float) -> None:
    """Raise :class:`EngineLimitExceeded` when the exact count of ``problem`` is estimated
    to take more than ``seconds`` (the ``exact`` engine under a time limit)."""
    over = sampled_components(problem, seconds)
    if over:
        boxes = max(len(problem.components[j].boxes) for j in over)
        raise EngineLimitExceeded(
            f"the exact count would take more than the limit of {seconds:g} s (a component "
            f"of {boxes} boxes); use engine 'auto' for an approximate answer with its error"
        )
