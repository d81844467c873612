"""Latent 50/50s (:mod:`minesolver.strategy.latent`) against a count over listed layouts."""

from __future__ import annotations

import random
from fractions import Fraction

from minesolver import analyze
from minesolver.position import FLAG, HIDDEN, Position
from minesolver.strategy import get_player
from minesolver.strategy.endgame import enumerate_layouts
from minesolver.strategy.latent import latent_share
from minesolver.strategy.outcomes import OutcomeCache
from minesolver.strategy.reasons import SecondMove

Cell = tuple[int, int]


def _brute_share(position: Position, cell: Cell) -> Fraction:
    """The definition, layout by layout, without the flank geometry: a pattern (``cell``
    and a mined orthogonal neighbour, or a 2x2 block of hidden cells with ``cell``'s
    diagonal safe and the other mined) is latent when swapping its mines and safe cells
    leaves the digit of every other safe cell as it was, so no digit can ever tell the
    two apart. Summed over patterns and over the layouts where ``cell`` is safe, over
    their number, capped at 1."""
    w, h = position.width, position.height
    nmask = [sum(1 << j for j in nb) for nb in position.neighbour_indices()]
    flags = sum(1 << i for i, v in enumerate(position.cells) if v == FLAG)

    def hidden(c: Cell) -> bool:
        return 0 <= c[0] < w and 0 <= c[1] < h and position[c] == HIDDEN

    def bit(c: Cell) -> int:
        return 1 << position.index(c)

    def unseen(mines: int, swap: int) -> bool:
        """No safe cell outside the pattern ``swap`` counts a different number of mines
        once the pattern's mines and safe cells trade places."""
        other = mines ^ swap
        return all(
            (mines & nmask[i]).bit_count() == (other & nmask[i]).bit_count()
            for i in range(w * h)
            if not (mines | swap) >> i & 1
        )

    safe_layouts = found = 0
    x, y = cell
    for layout in enumerate_layouts(position, 100_000):
        mines = layout | flags
        if mines & bit(cell):
            continue
        safe_layouts += 1
        for v in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]:
            if hidden(v) and mines & bit(v):
                found += unseen(mines, bit(cell) | bit(v))
        for x0 in (x - 1, x):
            for y0 in (y - 1, y):
                block = [(x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)]
                if not all(map(hidden, block)):
                    continue
                partner = (2 * x0 + 1 - x, 2 * y0 + 1 - y)
                others = [b for b in block if b not in (cell, partner)]
                if not mines & bit(partner) and all(mines & bit(b) for b in others):
                    found += unseen(mines, sum(map(bit, block)))
    return min(Fraction(1), Fraction(found, safe_layouts))


def _random_position(rng: random.Random) -> Position:
    w, h = rng.randint(3, 5), rng.randint(2, 4)
    cells = w * h
    mines = set(rng.sample(range(cells), rng.randint(2, cells // 2)))
    nbrs = Position.empty(w, h).neighbour_indices()
    values = [HIDDEN] * cells
    safe = [i for i in range(cells) if i not in mines]
    for i in rng.sample(safe, rng.randint(0, min(3, len(safe) - 1))):
        values[i] = sum(j in mines for j in nbrs[i])
    for i in rng.sample(sorted(mines), rng.randint(0, 1)):
        values[i] = FLAG
    return Position(w, h, tuple(values), len(mines))


def test_latent_share_equals_the_count_over_layouts() -> None:
    rng = random.Random(7)
    compared = positive = 0
    while compared < 300:
        position = _random_position(rng)
        analysis = analyze(position)
        cache = OutcomeCache()
        for cell, p in analysis.probabilities.items():
            if 0 < p < 1:
                share = latent_share(analysis, cell, cache, missing=9, blocks=True)
                assert share == _brute_share(position, cell), (position.to_text(), cell)
                compared += 1
                positive += share > 0
    assert positive > 30  # the patterns do occur: the comparison is not all zeros


def test_corner_pair_is_latent_when_its_flanks_are_mines() -> None:
    # the 2 at (0,1) sees the flag at (1,1) and one mine in the pair (0,0), (1,0); the
    # cells next to one of the pair only, (2,0) and (2,1), are flagged: no digit can
    # ever split the pair
    position = Position.from_text("3x2x4\nHHF\n2FF\n")
    analysis = analyze(position)
    assert analysis.probabilities[(0, 0)] == Fraction(1, 2)
    assert latent_share(analysis, (0, 0), OutcomeCache()) == 1
    # unflag (2,1): a 3 in its place, next to (1,0) only, would split the pair
    split = Position.from_text("3x2x3\nHHF\n2F3\n")
    assert latent_share(analyze(split), (0, 0), OutcomeCache()) == 0


def test_best_guesses_where_a_safe_cell_defuses_a_latent_pair() -> None:
    """The 3 in the corner is three mines. Without the latent weight, ``best`` finds
    (2,0), beside them, the far corner (7,0) and others exactly as good and draws
    between them; with it, (7,0) wins: when safe, it may be one half of the border pair
    (6,0)-(7,0), whose only flanks are (5,0) and (5,1), which no digit could split if
    both were mines; (2,0) with (3,0) is such a pair less often (a position found by a
    random search)."""
    position = Position.from_text("8x6x12\n3HHHHHHH\n" + "HHHHHHHH\n" * 5)
    analysis = analyze(position)
    cache = OutcomeCache()
    assert latent_share(analysis, (7, 0), cache) > latent_share(analysis, (2, 0), cache) > 0
    choices: dict[str, set[Cell]] = {"best": set(), "best-no-latent": set()}
    for name, seen in choices.items():
        for seed in range(8):
            player = get_player(name)
            player.reset(random.Random(seed))
            seen.update(m.cell for m in player.next_moves(position) if m.guess)
    assert choices["best"] == {(7, 0)}
    player = get_player("best")
    player.reset(random.Random(0))
    reason = player.next_moves(position)[-1].reason
    assert isinstance(reason, SecondMove) and round(float(reason.latent_weight), 3) == 1.007
    assert "latent 50/50 weight 1.007" in str(reason)  # the technical text keeps it
    assert {(2, 0), (7, 0)} <= choices["best-no-latent"]
