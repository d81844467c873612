"""The ``exact-py`` engine, the readable reference of the native ``exact``: a frontier
dynamic programme over boxes.

Boxes are taken in an order that keeps few equations *open* (some boxes placed, some
not); the state after ``i`` boxes is the tuple of mines still owed by each open equation,
and its value the mine-count polynomial of the partial layouts reaching it (each box of
``s`` cells with ``k`` mines weighs ``C(s, k)``). Two prunings keep states few: an
equation never owes a negative number of mines (over-full), nor more than its unplaced
cells can hold (can no longer be filled). A backward pass over the same states gives,
with the forward one, every box's mine polynomial: one forward and one backward sweep,
not one count per cell. The order, the plan of slots and the transitions are the ones of
:mod:`minesolver.engines.frontier`, which the sampler and the cost estimate share; this
module adds the values.

Complexity: O(n * S * s * L^2) big-integer operations for ``n`` boxes, at most ``S``
states per step, box size ``s`` and polynomial length ``L`` (<= cells + 1); ``S`` is
exponential only in the width of the order (the most equations open at once), which is
small for the strips and loops of a real frontier. A 150-cell strip takes milliseconds.
The order is chosen greedily: next the box that closes the most equations and opens the
fewest, starting from a peripheral box (found by breadth-first search).

>>> from minesolver.constraints import build
>>> from minesolver.position import Position
>>> comp = build(Position.from_text("3x2x2\\n1H1\\nHHH")).components[0]
>>> ExactPyEngine().count(comp).layouts  # by mine number: 2 layouts of 1 mine, 1 of 2
[0, 2, 1]
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from minesolver.constraints import Component
from minesolver.counting import ComponentCount, Poly, convolve, poly_add_shifted
from minesolver.engines.base import EngineLimitExceeded, check_deadline
from minesolver.engines.frontier import Edge, State, Touch, plan, transitions
from minesolver.engines.frontier import box_order as box_order  # its former home
from minesolver.engines.generic import ComponentEngineBase

__all__ = ["MAX_TERMS", "ExactPyEngine"]

MAX_TERMS = 10_000_000
"""Most polynomial terms (and transitions) the forward pass keeps (about a gigabyte of
Python ints at worst): past it :class:`EngineLimitExceeded`, never memory without end.
The native engine's cap is 40 million (its terms are smaller)."""


@lru_cache(maxsize=64)
def _binomials(size: int) -> tuple[int, ...]:
    """``C(size, k)`` for ``k = 0..size``."""
    return tuple(comb(size, k) for k in range(size + 1))


class ExactPyEngine(ComponentEngineBase):
    """Exact counts by a frontier dynamic programme (``exact-py``, the readable
    reference of the native ``exact``)."""

    name = "exact-py"

    def count(self, component: Component) -> ComponentCount:
        """The component's layouts by mine number and every box's mine polynomial: a
        forward pass (:func:`_forward`) and a backward one (:func:`_backward`) over the
        same states. Cost: see the module docstring."""
        if len(component.boxes) == 1:
            return _one_box(component)
        skeleton = plan(component)
        states, edges = _forward(skeleton.steps, skeleton.sizes, skeleton.start)
        layouts, by_step = _backward(states, edges, skeleton.sizes, skeleton.start)
        box_mines: list[Poly] = [[] for _ in skeleton.order]
        for i, b in enumerate(skeleton.order):
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
    steps: list[list[Touch]], sizes: list[int], start: State
) -> tuple[list[dict[State, Poly]], list[list[Edge]]]:
    """The forward pass: ``states[i]`` maps a state before box ``i`` (the mines still owed
    by each open equation, by slot) to the polynomial of the partial layouts reaching it;
    ``edges[i]`` lists the transitions of :func:`~minesolver.engines.frontier.transitions`
    (``(state, mines in box, next state)``). O(n * S * s * L) big-integer operations."""
    states: list[dict[State, Poly]] = [{start: [1]}]
    edges: list[list[Edge]] = []
    terms = 0
    for touch, s in zip(steps, sizes, strict=True):
        check_deadline()
        row = _binomials(s)
        current = states[-1]
        nxt: dict[State, Poly] = {}
        step_edges = transitions(touch, s, current)
        last: State | None = None
        poly: Poly = []
        for key, k, key2 in step_edges:
            if key is not last:  # the edges of one state come together: one lookup
                last, poly = key, current[key]
            factor = row[k]
            acc = nxt.get(key2)
            if acc is None:  # a new list either way (factor 1: every k of a 1-cell box)
                nxt[key2] = [0] * k + (poly if factor == 1 else [factor * v for v in poly])
            else:
                poly_add_shifted(acc, poly, k, factor)
        terms += sum(map(len, nxt.values())) + len(step_edges)
        if terms > MAX_TERMS:
            raise EngineLimitExceeded(
                f"exact-py: the count would hold more than {MAX_TERMS} polynomial terms in "
                "memory; use engine 'auto' for an approximate answer with its error"
            )
        states.append(nxt)
        edges.append(step_edges)
    return states, edges


def _backward(
    states: list[dict[State, Poly]], edges: list[list[Edge]], sizes: list[int], start: State
) -> tuple[Poly, list[Poly]]:
    """The backward pass over the forward pass's edges: the completions of boxes ``i..``
    from each state, and with the forward polynomials, each step's box mine polynomial
    (one given cell of the box is a mine). Returns the component's layouts by mine number
    and the box mine polynomials by step. O(n * S * s * L^2) big-integer operations (one
    convolution per edge)."""
    n = len(sizes)
    # back[key] = polynomial of completions of boxes i.. from state key.
    back: dict[State, Poly] = {key: [1] for key in states[n]}
    by_step: list[Poly] = [[] for _ in range(n)]
    for i in range(n - 1, -1, -1):
        s = sizes[i]
        row, row1 = _binomials(s), _binomials(s - 1)
        fwd = states[i]
        new_back: dict[State, Poly] = {}
        marginal: Poly = []
        check_deadline()
        for e, (key, k, key2) in enumerate(edges[i]):
            if e & 1023 == 1023:
                check_deadline()
            tail = back.get(key2)
            if tail is None:
                continue
            factor = row[k]
            acc = new_back.get(key)
            if acc is None:
                new_back[key] = [0] * k + (tail if factor == 1 else [factor * v for v in tail])
            else:
                poly_add_shifted(acc, tail, k, factor)
            if k:
                # one given cell of the box is a mine: C(s-1, k-1) of the C(s, k) ways.
                poly_add_shifted(marginal, convolve(fwd[key], tail), k, row1[k - 1])
        back = new_back
        by_step[i] = marginal
    return back.get(start, []), by_step


def _trim(poly: Poly) -> None:
    while poly and poly[-1] == 0:
        poly.pop()
