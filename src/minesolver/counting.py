"""The shared exact arithmetic: mine-count polynomials and the global combination.

A *mine-count polynomial* is a ``list[int]`` whose entry ``m`` counts layouts with ``m``
mines. Every exact engine reports, per component, such a polynomial and, per box, the
polynomial of layouts in which one given cell of the box is a mine
(:class:`ComponentCount`). This module alone turns those into probabilities under the
global mine total, so every exact engine shares one treatment of the total.

Combination under a known total ``M`` (``I`` interior cells, components ``1..n``):
the layout count is ``sum_t F[t] * C(I, M - t)`` with ``F`` the product of the component
polynomials. For component ``j`` the "rest" weight ``R_j[k]`` (ways for every other
component and the interior to hold ``M - k`` mines) comes from a prefix product of the
components before ``j`` and a suffix of those after ``j`` already folded with the
interior binomials (:func:`rest_weights`: the same suffix tables give the sampling
engines their exact draw weights), so each component's rest costs one pass:
O(len(F) * sum of component mine ranges) big-integer operations in all.
Identical components (same shape) are counted once, by the caller.

Under a mine density ``p`` instead of a total, cells are independent a priori and each
component is weighted on its own by ``p^m (1-p)^(size-m)``; interior cells keep ``p``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from operator import mul
from typing import TypeVar

from minesolver.errors import plural

__all__ = [
    "Combination",
    "ComponentCount",
    "Poly",
    "RestWeights",
    "combine",
    "combine_density",
    "combine_total",
    "convolve",
    "poly_add_shifted",
    "rest_weights",
    "total_mismatch",
]

Poly = list[int]
"""Mine-count polynomial: entry ``m`` counts layouts with ``m`` mines."""

_Number = TypeVar("_Number", int, float)


@dataclass(frozen=True, slots=True)
class ComponentCount:
    """What an exact engine reports for one component.

    ``layouts[m]``: layouts of the component with ``m`` mines in it.
    ``box_mines[b][m]``: of those, the layouts in which one given cell of box ``b`` is a
    mine (the same for every cell of the box).
    """

    layouts: Poly
    box_mines: list[Poly]


def convolve(a: Sequence[_Number], b: Sequence[_Number]) -> list[_Number]:
    """Product of two polynomials: mine counts (ints), or weights of an approximate
    engine (floats). O(len(a) * len(b))."""
    if not a or not b:
        return []
    out = [a[0] * 0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def poly_add_shifted(acc: Poly, poly: Sequence[int], shift: int, factor: int = 1) -> None:
    """``acc += factor * x**shift * poly`` in place, growing ``acc`` as needed."""
    need = len(poly) + shift
    if len(acc) < need:
        acc.extend([0] * (need - len(acc)))
    if factor == 1:
        for i, v in enumerate(poly, shift):
            acc[i] += v
    else:
        for i, v in enumerate(poly, shift):
            acc[i] += factor * v


def _dot_shifted(poly: Sequence[int], weights: Sequence[int], shift: int) -> int:
    """``sum_m poly[m] * weights[m + shift]`` over the indices that exist (``shift >= 0``)."""
    return sum(map(mul, poly, weights[shift : shift + len(poly)]))


@dataclass(frozen=True, slots=True)
class Combination:
    """Components and interior combined under the total, in a common scale.

    The weights are layout counts divided by one common factor ``scale`` (a rational),
    so that they stay small integers on big boards: a box cell is a mine with
    probability ``box_weights[j][b] / total``, an interior cell with
    ``interior_weight / (total * interior)``; the exact layout count is ``layouts``.
    """

    layouts: int
    total: int
    box_weights: list[list[int]]
    interior_weight: int
    interior: int
    scale: Fraction


@dataclass(frozen=True, slots=True)
class RestWeights:
    """Ways for components ``j..n-1`` and the interior to hold what is left of the total.

    ``tables[j][a]`` is, up to the common factor ``scale``, the number of ways for the
    components ``j`` onwards and the interior to hold ``mines - a`` mines: ``a`` mines are
    used before component ``j`` (by the components before it, and by up to ``before``
    mines held elsewhere, such as a Markov chain's sampled components). Only ``a`` from
    the least mines the components before ``j`` can hold up to ``top`` is filled (zeros
    below; the list ends at the most they, plus ``before``, can hold). ``column[t]`` is the
    interior's weight when the frontier holds ``t`` mines: ``C(I, mines - t) / scale``.
    """

    tables: list[list[int]]
    column: list[int]
    top: int
    scale: Fraction

    def draw_weights(self, j: int, poly: Sequence[int], used: int) -> list[int]:
        """Weight of component ``j`` (mine-count polynomial ``poly``) holding ``k`` mines
        when ``used`` are held before it: ``poly[k] * tables[j + 1][used + k]``, the joint
        law of the mine numbers drawn one component after another. O(len(poly))."""
        nxt = self.tables[j + 1]
        return [v * nxt[used + k] if used + k < len(nxt) else 0 for k, v in enumerate(poly)]


def rest_weights(
    polys: Sequence[Sequence[int]],
    interior: int,
    mines: int,
    before: int = 0,
    *,
    scaled: bool = True,
) -> RestWeights | None:
    """The suffix tables of :class:`RestWeights` for the components' polynomials ``polys``
    and ``interior`` free cells under exactly ``mines`` mines, ``before`` of which may be
    held elsewhere; ``None`` when no split of the total fits.

    The interior binomials ``C(I, mines - t)`` are needed only over the window of frontier
    mine numbers ``t`` the components (and ``before``) can hold; with ``scaled`` they are
    divided by their common factor ``C(I, k_lo) / D``: on a 200x200 board that turns
    25,000-bit integers into a few thousand bits. Unscaled (``scale`` 1) the weights are
    plain layout counts (the samplers draw with them, so that their draws for a seed stay
    what they were). The recurrence ``C(I, k + 1) = C(I, k) (I - k) / (k + 1)`` builds the
    column with small multiplications. Cost: O(window) for the column, then
    O(sum over components of len(poly) * its window) big-integer operations.

    >>> w = rest_weights([[1, 2]], interior=2, mines=1, scaled=False)
    >>> w.tables[0][0], w.draw_weights(0, [1, 2], 0)  # C(2,1) + 2 C(2,0); per mine number
    (4, [2, 2])
    """
    n = len(polys)
    # most[j] / least[j]: most and least mines that can be used before component j.
    most = [before] * (n + 1)
    least = [0] * (n + 1)
    for j, poly in enumerate(polys):
        most[j + 1] = most[j] + len(poly) - 1
        least[j + 1] = least[j] + next((m for m, v in enumerate(poly) if v), 0)
    top = min(most[n], mines)
    # k = mines - t interior mines, t in [least[n], top]; valid when 0 <= k <= interior.
    k_lo, k_hi = max(0, mines - top), min(interior, mines - least[n])
    if k_lo > k_hi:
        return None
    # h[t] = C(I, k) * D / C(I, k_lo) with D = (k_lo+1)...(k_hi): integers, from the
    # recurrence h(k + 1) = h(k) * (I - k) / (k + 1) starting at h(k_lo) = D.
    if scaled:
        d = 1
        for j in range(k_lo + 1, k_hi + 1):
            d *= j
        value, scale = d, Fraction(comb(interior, k_lo), d)
    else:
        value, scale = comb(interior, k_lo), Fraction(1)
    h = [0] * (top + 1)
    for k in range(k_lo, k_hi + 1):
        h[mines - k] = value
        value = value * (interior - k) // (k + 1)
    tables: list[list[int]] = [[] for _ in range(n + 1)]
    tables[n] = h
    for j in range(n - 1, -1, -1):
        poly = polys[j]
        nxt = tables[j + 1]
        start = min(least[j], top + 1)
        tables[j] = [0] * start + [
            _dot_shifted(poly, nxt, a) for a in range(start, min(most[j], top) + 1)
        ]
    return RestWeights(tables, h, top, scale)


def combine(counts: Sequence[ComponentCount], interior: int, mines: int) -> Combination | None:
    """Combine components and ``interior`` free cells under exactly ``mines`` mines.

    ``None`` when no layout has exactly ``mines`` mines. The suffix tables come from
    :func:`rest_weights` (in its small common scale); a prefix product of the components
    before ``j`` then gives component ``j``'s rest weight in one pass. The exact layout
    count is restored once at the end. Cost: see the module docstring.
    """
    weights = rest_weights([c.layouts for c in counts], interior, mines)
    if weights is None:
        return None
    suffix, h, top = weights.tables, weights.column, weights.top
    total = suffix[0][0] if suffix[0] else 0
    if total == 0:
        return None

    box_weights: list[list[int]] = []
    prefix: Poly = [1]
    for j, count in enumerate(counts):
        nxt = suffix[j + 1]
        # rest[k] = sum_a prefix[a] * suffix[j+1][a + k]
        rest = [_dot_shifted(prefix, nxt, k) for k in range(len(count.layouts))]
        box_weights.append([sum(map(mul, bm, rest)) for bm in count.box_mines])
        prefix = convolve(prefix, count.layouts)
    # one interior cell is a mine: C(I-1, k-1) = C(I, k) * k / I in place of C(I, k).
    interior_weight = (
        sum(v * h[t] * (mines - t) for t, v in enumerate(prefix) if v and t <= top)
        if interior
        else 0
    )
    scale = weights.scale
    layouts = total * scale.numerator // scale.denominator
    return Combination(layouts, total, box_weights, interior_weight, interior, scale)


def combine_total(
    counts: Sequence[ComponentCount], interior: int, mines: int
) -> tuple[int, list[list[int]], int] | None:
    """Like :func:`combine`, with the weights as plain layout counts.

    Returns ``(layouts, box_weights, interior_weight)`` where ``box_weights[j][b]`` is the
    number of layouts in which one given cell of box ``b`` of component ``j`` is a mine,
    and ``interior_weight`` the same for one interior cell; divide by ``layouts`` for
    probabilities. Returns ``None`` when no layout has exactly ``mines`` mines.
    """
    result = combine(counts, interior, mines)
    if result is None:
        return None
    num, den = result.scale.numerator, result.scale.denominator
    boxes = [[w * num // den for w in row] for row in result.box_weights]
    inner = result.interior_weight * num // (den * interior) if interior else 0
    return result.layouts, boxes, inner


def combine_density(
    counts: Sequence[ComponentCount], sizes: Sequence[int], density: Fraction
) -> tuple[int, list[list[Fraction]]] | None:
    """Combine components when each cell is a mine independently with ``density``.

    ``sizes[j]`` is the number of cells of component ``j``. Returns the number of
    consistent layouts over the components (any mine number) and, per component and box,
    the probability that one cell of the box is a mine; ``None`` when some component has
    zero weight. O(sum of polynomial lengths).
    """
    p, q = density.numerator, density.denominator
    r = q - p
    layouts = 1
    probs: list[list[Fraction]] = []
    for count, size in zip(counts, sizes, strict=True):
        weights = [p**m * r ** (size - m) for m in range(len(count.layouts))]
        total = sum(v * w for v, w in zip(count.layouts, weights, strict=True))
        if total == 0:
            return None
        layouts *= sum(count.layouts)
        probs.append(
            [
                Fraction(sum(v * w for v, w in zip(bm, weights, strict=False)), total)
                for bm in count.box_mines
            ]
        )
    return layouts, probs


def total_mismatch(total: int | None, left: int, low: int, high: int, interior: int) -> str:
    """Why a total fits no layout, in words: the ``left`` mines after the flags and the
    forced ones, the ``low``..``high`` mines the cells next to the digits can hold, and the
    ``interior`` cells away from them. Shared by the engines that refuse such a position,
    so they say it alike. O(1).

    >>> print(total_mismatch(1, 1, 0, 0, 0))  # doctest: +NORMALIZE_WHITESPACE
    the total of 1 mine does not fit the digits: 1 mine is left for the unknown cells
    after the flags and the forced mines, but the cells next to the digits hold no mine
    and no other cell is free
    >>> print(total_mismatch(10, 9, 2, 4, 3))  # doctest: +NORMALIZE_WHITESPACE
    the total of 10 mines does not fit the digits: 9 mines are left for the unknown cells
    after the flags and the forced mines, but the cells next to the digits hold between 2
    and 4 mines and 3 other cells are free
    """
    if high == 0:
        held = "no mine"
    elif low == high:
        held = f"exactly {plural(low, 'mine')}"
    else:
        held = f"between {low} and {high} mines"
    free = (
        "no other cell is"
        if interior == 0
        else f"{plural(interior, 'other cell')} " + ("is" if interior == 1 else "are")
    )
    of_total = "" if total is None else f"of {plural(total, 'mine')} "
    return (
        f"the total {of_total}does not fit the digits: {plural(left, 'mine')} "
        f"{'is' if left == 1 else 'are'} left for the unknown cells after the flags and the "
        f"forced mines, but the cells next to the digits hold {held} and {free} free"
    )
