"""What the certain-cell engines (``sat``, ``ilp``) share: the question set and the answer.

A box of ``s`` interchangeable cells (and the interior, ``I`` free cells) is certainly
safe when no consistent layout puts a mine in it, certainly mines when none leaves one of
its cells free. So per box two questions: *can it hold a mine* (``k >= 1``) and *can it
hold a non-mine* (``k <= s - 1``). One consistent layout answers both questions for every
box at once (its ``k`` witnesses them), so a decider asks the solver only about boxes no
layout found so far has witnessed: with the trick, about as many calls as certain boxes
plus a few, not two per cell.

:func:`certain_analysis` turns the answers into an :class:`~minesolver.result.Analysis`
(through :func:`~minesolver.engines.approximate.approximate_analysis`):
certain cells get 0 or 1 (exact), every other cell a rough value strictly between them
given by the engine, with a stated error bound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from minesolver.engines.approximate import approximate_analysis

if TYPE_CHECKING:
    from minesolver.constraints import Problem
    from minesolver.result import Analysis

__all__ = ["Witness", "certain_analysis", "frontier_boxes"]


def frontier_boxes(problem: Problem) -> list[tuple[int, ...]]:
    """Every box of every component, in component order (cell indices)."""
    return [box for comp in problem.components for box in comp.boxes]


@dataclass
class Witness:
    """Which questions consistent layouts have answered so far.

    ``can_mine[b]`` / ``can_free[b]``: some layout puts a mine / a non-mine in box ``b``;
    the last box stands for the interior. ``mines[b]`` sums ``k_b`` over the layouts seen
    (a crude frequency, for display only), ``seen`` counts them.
    """

    sizes: Sequence[int]
    can_mine: list[bool] = field(init=False)
    can_free: list[bool] = field(init=False)
    mines: list[int] = field(init=False)
    seen: int = 0

    def __post_init__(self) -> None:
        n = len(self.sizes)
        self.can_mine = [False] * n
        self.can_free = [False] * n
        self.mines = [0] * n

    def record(self, ks: Sequence[int]) -> None:
        """Record one consistent layout given by its mine number per box."""
        self.seen += 1
        for b, (k, s) in enumerate(zip(ks, self.sizes, strict=True)):
            if s == 0:
                continue
            if k >= 1:
                self.can_mine[b] = True
            if k <= s - 1:
                self.can_free[b] = True
            self.mines[b] += k

    def open_questions(self) -> list[tuple[int, bool]]:
        """``(box, mine?)`` pairs no layout has answered yet."""
        out: list[tuple[int, bool]] = []
        for b, s in enumerate(self.sizes):
            if s == 0:
                continue
            if not self.can_mine[b]:
                out.append((b, True))
            if not self.can_free[b]:
                out.append((b, False))
        return out

    def answered(self, b: int, mine: bool) -> bool:
        """Whether some layout seen puts a mine (``mine``) or a non-mine in box ``b``."""
        return self.can_mine[b] if mine else self.can_free[b]

    def frequency(self, b: int) -> Fraction:
        """Laplace-smoothed share of mines in box ``b`` over the layouts seen: strictly
        between 0 and 1, a display value and not a probability model."""
        share = Fraction(self.mines[b], self.sizes[b]) if self.sizes[b] else Fraction(0)
        return (share + 1) / (self.seen + 2)

    def give_up(self) -> None:
        """Count every open question as answered both ways: what a decider that ran out
        of time reports, so that no cell is called certain without proof."""
        for b, mine in self.open_questions():
            if mine:
                self.can_mine[b] = True
            else:
                self.can_free[b] = True


def certain_analysis(
    problem: Problem,
    boxes: Sequence[tuple[int, ...]],
    witness: Witness,
    rough: Mapping[int, tuple[Fraction, float]],
    *,
    engine: str,
) -> Analysis:
    """The analysis of a certain-cell decider.

    ``boxes`` are the frontier boxes followed by the interior (``witness`` answered for
    each); ``rough[b]`` gives, for a box that is not certain, its rough probability
    (strictly between 0 and 1) and an error bound. Forced cells come from the problem.
    """

    probs: dict[int, Fraction] = {}
    errors: dict[int, float] = {}
    for b, box in enumerate(boxes):
        if not box:
            continue
        if not witness.can_mine[b]:
            p, err = Fraction(0), 0.0
        elif not witness.can_free[b]:
            p, err = Fraction(1), 0.0
        else:
            p, err = rough[b]
        probs.update(dict.fromkeys(box, p))
        errors.update(dict.fromkeys(box, err))
    return approximate_analysis(problem, probs, errors, engine=engine)
