"""Latent 50/50s: coin flips the board may hold in store, and the guesses that defuse them.

Two orthogonally adjacent hidden cells ``c`` and ``v`` form a *latent 50/50* in a layout
when one of them is a mine and every cell next to exactly one of them (the six *flanks*,
fewer at the border) is a mine or off the board: then every cell that will ever show a
digit sees both or neither, no click can tell ``c`` from ``v``, and the game will end
with a coin flip there. A 2x2 block of hidden cells with its two mines on one diagonal
is one too when its four diagonal corner cells are mines or off the board (a cell beside
the block sees one cell of each diagonal).

Clicking ``c`` now, in a layout where it is safe and in such a pattern, spends no more
risk than the coin flip would and removes it. :func:`latent_share` gives, for a cell, the
expected number of latent patterns it sits in while safe, over the probability that it
is safe, capped at 1 (patterns are counted one by one, not their union: a safe cell
between two latent partners counts twice); ``best`` weighs its second-move safety up by
that share (D. N. Hill's "long-term risk" for his JSMinesweeper solver is this idea; the
counting here is exact, pattern by pattern).

A pattern is only looked at when none of its flanks shows a digit (a digit next to one
cell of the pair would in time tell them apart) and at most ``missing`` of its flanks
are hidden cells not yet certain mines: patterns that need more mines are unlikely. Cost:
per pattern kept, one exact analysis per inclusion-exclusion term (2 for a pair, 4 for a
block), cached by position in the player's :class:`~.outcomes.OutcomeCache`.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from minesolver.analysis import Analysis
from minesolver.position import FLAG, HIDDEN, Cell, Position
from minesolver.strategy.outcomes import OutcomeCache

__all__ = ["latent_share", "patterns"]


def _on_board(position: Position, cells: list[Cell]) -> list[Cell]:
    return [(x, y) for x, y in cells if 0 <= x < position.width and 0 <= y < position.height]


def patterns(
    analysis: Analysis, cell: Cell, missing: int = 2, blocks: bool = False
) -> Iterator[tuple[list[Cell], list[Cell]]]:
    """The latent patterns around ``cell`` worth counting, as ``(mines, safe)``: the
    cells that must be mines (the rest of the pattern's mines and the hidden flanks not
    yet certain) and those that must be safe with ``cell`` (its diagonal partner in a
    block), for ``cell`` to be safe in a latent 50/50 of that shape; pairs only
    without ``blocks``."""
    position = analysis.position
    probs = analysis.probabilities
    x, y = cell

    def hidden(c: Cell) -> bool:
        return position[c] == HIDDEN

    def needed(flanks: list[Cell]) -> list[Cell] | None:
        """The flanks still to be mines, or None when the pattern cannot be latent."""
        if any(position[f] >= 0 or probs.get(f) == 0 for f in flanks):
            return None
        need = [f for f in flanks if hidden(f) and probs.get(f) != 1]
        return need if len(need) <= missing else None

    near_c = set(position.neighbours(cell)) | {cell}
    for v in _on_board(position, [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]):
        if not hidden(v) or probs.get(v) == 0:
            continue
        near_v = set(position.neighbours(v)) | {v}
        need = needed(sorted((near_c ^ near_v) - {cell, v}))
        if need is not None:
            yield [v, *need], []
    for x0 in (x - 1, x) if blocks else ():
        for y0 in (y - 1, y):
            block = _on_board(position, [(x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)])
            if len(block) < 4 or not all(map(hidden, block)):
                continue
            partner = (2 * x0 + 1 - x, 2 * y0 + 1 - y)
            others = [b for b in block if b not in (cell, partner)]
            if probs.get(partner) == 1 or any(probs.get(b) == 0 for b in others):
                continue
            corners = [(x0 - 1, y0 - 1), (x0 + 2, y0 - 1), (x0 - 1, y0 + 2), (x0 + 2, y0 + 2)]
            need = needed(_on_board(position, corners))
            if need is not None:
                yield [*others, *need], [partner]


def latent_share(
    analysis: Analysis,
    cell: Cell,
    cache: OutcomeCache,
    missing: int = 2,
    blocks: bool = False,
) -> Fraction:
    """The sum over the latent patterns of ``cell`` (:func:`patterns`) of P(``cell`` is
    safe and the pattern latent), over P(``cell`` is safe), capped at 1 (``best``'s bound
    on its weight relies on the cap). Each term is exact: inclusion-exclusion over the
    layout counts of positions with the pattern's mines flagged."""
    position = analysis.position
    safe = 1 - analysis.probabilities[cell]
    if not safe:
        return Fraction(0)

    def count(mines: list[Cell]) -> int:
        child = cache.analysis(position.replace(dict.fromkeys(mines, FLAG)))
        return child.layout_count() if child is not None else 0

    total = 0
    for mines, also_safe in patterns(analysis, cell, missing, blocks):
        base = count(mines)
        if not base:
            continue
        # layouts with the mines placed and every cell of {cell, *also_safe} safe
        total += base - count([*mines, cell])
        for partner in also_safe:
            total += count([*mines, cell, partner]) - count([*mines, partner])
    return min(Fraction(1), Fraction(total, analysis.layouts) / safe)
