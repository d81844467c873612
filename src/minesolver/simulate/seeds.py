"""Seeds and layouts of a run: every game depends only on the run's seed and its index.

Game ``i`` of a run with seed ``S`` draws its layout from ``Random(derive_seed(S, i,
"layout"))`` and gives its player ``Random(derive_seed(S, i, "player"))``: a run gives
the same wins and guesses whatever the number of workers, batches or machines, and
several players meet exactly the same layouts.

>>> derive_seed(5, 0, "layout") == derive_seed(5, 0, "layout") != derive_seed(5, 1, "layout")
True

Cost: a seed is one SHA-256; a layout O(cells) (a no-guess layout: one exact analysis
per round of certain moves, for each layout drawn).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from minesolver.game import Layout, random_layout
from minesolver.simulate.config import Setup

__all__ = ["derive_seed", "game_layout", "played_layouts"]


def derive_seed(seed: int, index: int, purpose: str) -> int:
    """A 64-bit seed for game ``index`` of run ``seed``, one per ``purpose``.

    SHA-256 of the three, so neighbouring games and purposes get unrelated streams and the
    value does not depend on Python's hash randomisation.
    """
    digest = hashlib.sha256(f"{seed}:{index}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def game_layout(setup: Setup, index: int) -> tuple[Layout, int]:
    """Game ``index``'s layout and how many were drawn to find it (no-guess boards)."""
    rng = random.Random(derive_seed(setup.seed, index, "layout"))
    if setup.no_guess:
        from minesolver.noguess import no_guess_layout

        return no_guess_layout(setup.level, rng, setup.start, setup.rule)
    return random_layout(setup.level, rng, setup.start, setup.rule), 1


def played_layouts(
    setup: Setup, games: int, layouts: Sequence[Layout] | None = None, first_game: int = 0
) -> list[Layout]:
    """The layouts of games ``first_game ..`` of a run: the given ones, else drawn again
    from the seed exactly as the games drew them (so other solvers can play them too)."""
    if layouts is not None:
        return list(layouts[first_game : first_game + games])
    return [game_layout(setup, i)[0] for i in range(first_game, first_game + games)]
