"""The default exact engine: a frontier dynamic programme over boxes.

Boxes are taken in an order that keeps few equations *open* (some boxes placed, some
not); the state after ``i`` boxes is the tuple of mines still owed by each open equation,
and its value the mine-count polynomial of the partial layouts reaching it (each box of
``s`` cells with ``k`` mines weighs ``C(s, k)``). Two prunings keep states few: an
equation never owes a negative number of mines (over-full), nor more than its unplaced
cells can hold (can no longer be filled). A backward pass over the same states gives,
with the forward one, every box's mine polynomial: one forward and one backward sweep,
not one count per cell.

Complexity: O(n * S * s * L^2) big-integer operations for ``n`` boxes, at most ``S``
states per step, box size ``s`` and polynomial length ``L`` (<= cells + 1); ``S`` is
exponential only in the width of the order (the most equations open at once), which is
small for the strips and loops of a real frontier. A 150-cell strip takes milliseconds.
The order is chosen greedily: next the box that closes the most equations and opens the
fewest, starting from a peripheral box (found by breadth-first search).
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from math import comb

from minesolver.constraints import Component
from minesolver.counting import ComponentCount, Poly, convolve, poly_add_shifted

__all__ = ["FrontierEngine", "box_order"]

# One entry per equation containing a box: its slot in the state tuple, whether it
# opens at this box, its value, and how many mines its later boxes can still hold.
_Touch = tuple[int, bool, int, int]
_Step = list[_Touch]
_SMALL = 40
_TINY = 12
"""Components of at most this many boxes keep the order they were built in."""
"""Components of at most this many boxes are ordered breadth-first, without the greedy."""


def box_order(component: Component) -> list[int]:
    """A box order keeping few equations open at once (greedy, O(n^2 * degree))."""
    n = len(component.boxes)
    if n <= _TINY:
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

    if n <= _SMALL:
        # few boxes: any order keeps the states few; breadth-first from the periphery.
        return sorted(range(n), key=lambda b: (dist[b], b))
    unplaced = [len(boxes) for boxes, _ in component.constraints]
    opened = [False] * len(component.constraints)
    placed = [False] * n
    order: list[int] = []
    candidates = {last}
    while len(order) < n:
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


def _plan(component: Component, order: list[int]) -> tuple[list[_Step], int]:
    """For each box in ``order``, the equations it belongs to, each as
    ``(slot, opens, value, capacity left after the box)``, closing ones first; and the
    number of slots. An equation keeps one slot of the state tuple from the box that
    opens it to the box that closes it (then the slot is 0 and free again), so a step
    touches only the equations of its box. O(sum of equation sizes)."""
    n = len(order)
    pos = [0] * n
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
    steps: list[_Step] = []
    for i in range(n):
        touch: list[_Touch] = []
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
    return steps, slots


@lru_cache(maxsize=64)
def _binomials(size: int) -> tuple[int, ...]:
    """``C(size, k)`` for ``k = 0..size``."""
    return tuple(comb(size, k) for k in range(size + 1))


_State = tuple[int, ...]
_Edge = tuple[_State, int, _State]


class FrontierEngine:
    """Exact counts by a frontier dynamic programme (``exact-py``, the readable
    reference of the native ``exact``)."""

    name = "exact-py"

    def count(self, component: Component) -> ComponentCount:
        """The component's layouts by mine number and every box's mine polynomial: a
        forward pass (:func:`_forward`) and a backward one (:func:`_backward`) over the
        same states. Cost: see the module docstring."""
        if len(component.boxes) == 1:
            return _one_box(component)
        order = box_order(component)
        steps, slots = _plan(component, order)
        sizes = [len(component.boxes[b]) for b in order]
        states, edges = _forward(steps, sizes, slots)
        layouts, by_step = _backward(states, edges, sizes, slots)
        box_mines: list[Poly] = [[] for _ in order]
        for i, b in enumerate(order):
            box_mines[b] = by_step[i]
        _trim(layouts)
        for poly in box_mines:
            _trim(poly)
        return ComponentCount(layouts=layouts, box_mines=box_mines)


def _one_box(component: Component) -> ComponentCount:
    """One box: every equation covers exactly it (merged into one), O(1)."""
    size = len(component.boxes[0])
    value = component.constraints[0][1]
    layouts = [0] * value + [comb(size, value)]
    mines = [0] * value + [comb(size - 1, value - 1) if value else 0]
    _trim(mines)
    return ComponentCount(layouts=layouts, box_mines=[mines])


def _forward(
    steps: list[_Step], sizes: list[int], slots: int
) -> tuple[list[dict[_State, Poly]], list[list[_Edge]]]:
    """The forward pass: ``states[i]`` maps a state before box ``i`` (the mines still owed
    by each open equation, by slot) to the polynomial of the partial layouts reaching it;
    ``edges[i]`` lists the transitions ``(state, mines in box, next state)`` the two
    prunings keep. O(n * S * s * L) big-integer operations."""
    states: list[dict[_State, Poly]] = [{(0,) * slots: [1]}]
    edges: list[list[_Edge]] = []
    for touch, s in zip(steps, sizes, strict=True):
        row = _binomials(s)
        closing = touch[0] if touch[0][3] == 0 else None
        nxt: dict[_State, Poly] = {}
        step_edges: list[_Edge] = []
        for key, poly in states[-1].items():
            if closing is not None:
                # an equation closing here fixes the box's mine number outright.
                slot, opens, value, _ = closing
                k0 = value if opens else key[slot]
                choices: range | tuple[int, ...] = (k0,) if k0 <= s else ()
            else:
                choices = range(s + 1)
            for k in choices:
                new = list(key)
                for slot, opens, value, cap in touch:
                    r = (value if opens else new[slot]) - k
                    if r < 0 or r > cap:
                        break
                    new[slot] = r
                else:
                    key2 = tuple(new)
                    step_edges.append((key, k, key2))
                    factor = row[k]
                    acc = nxt.get(key2)
                    if acc is None:
                        nxt[key2] = [0] * k + [factor * v for v in poly]
                    else:
                        poly_add_shifted(acc, poly, k, factor)
        states.append(nxt)
        edges.append(step_edges)
    return states, edges


def _backward(
    states: list[dict[_State, Poly]], edges: list[list[_Edge]], sizes: list[int], slots: int
) -> tuple[Poly, list[Poly]]:
    """The backward pass over the forward pass's edges: the completions of boxes ``i..``
    from each state, and with the forward polynomials, each step's box mine polynomial
    (one given cell of the box is a mine). Returns the component's layouts by mine number
    and the box mine polynomials by step. O(n * S * s * L^2) big-integer operations (one
    convolution per edge)."""
    n = len(sizes)
    # back[key] = polynomial of completions of boxes i.. from state key.
    back: dict[_State, Poly] = {key: [1] for key in states[n]}
    by_step: list[Poly] = [[] for _ in range(n)]
    for i in range(n - 1, -1, -1):
        s = sizes[i]
        row, row1 = _binomials(s), _binomials(s - 1)
        fwd = states[i]
        new_back: dict[_State, Poly] = {}
        marginal: Poly = []
        for key, k, key2 in edges[i]:
            tail = back.get(key2)
            if tail is None:
                continue
            factor = row[k]
            acc = new_back.get(key)
            if acc is None:
                new_back[key] = [0] * k + [factor * v for v in tail]
            else:
                poly_add_shifted(acc, tail, k, factor)
            if k:
                # one given cell of the box is a mine: C(s-1, k-1) of the C(s, k) ways.
                poly_add_shifted(marginal, convolve(fwd[key], tail), k, row1[k - 1])
        back = new_back
        by_step[i] = marginal
    return back.get((0,) * slots, []), by_step


def _trim(poly: Poly) -> None:
    while poly and poly[-1] == 0:
        poly.pop()
