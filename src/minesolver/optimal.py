"""Perfect play on small boards: the exact win rate of the best possible player.

On a board small enough to list every layout the first-click rule allows, the win
probability of perfect play from the first click is found exactly, by the endgame
game-tree search (:class:`~minesolver.strategy.endgame.EndgameSolver`) over all of them:
the first click is made at ``start``, then every state is split by what each click shows
and the best cell taken, as in the endgame. It is the ceiling of every player on that
board, measured without sampling noise. A player's own exact win rate on the same board
is its number of wins over the same layouts (:func:`play_every_layout`; random tie-breaks
make that one draw of the player's policy per layout); :func:`compare` sets the two side
by side.

Complexity: ``C(free cells, mines)`` layouts are listed (``limit`` caps them); the search
is exponential in the worst case and capped by ``budget`` node expansions. In practice
4x4/3 takes milliseconds and 5x5/4 (10,626 layouts) about half a minute; 5x5/5 (42,504)
takes over ten minutes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb, log10

from minesolver.game import FirstClick, GameError, Layout, Level, check_level, excluded_cells
from minesolver.position import Cell, Position
from minesolver.simulate import BenchResult, Setup, simulate
from minesolver.strategy.endgame import EndgameSolver, SearchBudgetExceeded

__all__ = [
    "PerfectPlay",
    "TooLargeForPerfectPlay",
    "TooManyLayoutsToList",
    "all_layouts",
    "compare",
    "perfect_play",
    "play_every_layout",
]


WORK_LIMIT = 5_000_000
"""Most layouts times cells :func:`perfect_play` takes on (5x5/4 is 265,650; a few seconds
of set-up at the limit)."""


class TooLargeForPerfectPlay(GameError):
    """The board is too large for the exact search within the limits asked for."""


class TooManyLayoutsToList(TooLargeForPerfectPlay):
    """The board has more layouts than the limit asked for."""


@dataclass(frozen=True, slots=True)
class PerfectPlay:
    """Perfect play on one board: the layouts it wins out of all the rule allows."""

    level: Level
    start: Cell
    rule: FirstClick
    wins: int
    layouts: int

    @property
    def win_rate(self) -> Fraction:
        """The exact win probability of perfect play."""
        return Fraction(self.wins, self.layouts)


def all_layouts(
    level: Level, start: Cell, rule: FirstClick = "safe", limit: int = 100_000
) -> list[Layout]:
    """Every layout the first-click ``rule`` allows at ``start``, each equally likely
    (the game draws them uniformly), in lexicographic order of their mine indices.

    Raises :class:`TooManyLayoutsToList` beyond ``limit`` layouts, and ``GameError`` when
    the mines do not fit.
    """
    check_level(level, start, rule)
    free = excluded_cells(level.width, level.height, start, rule)
    count = comb(level.cells - len(free), level.mines)
    if count > limit:
        raise TooManyLayoutsToList(
            f"{level} with the first click {rule!r} at {start} has "
            f"{count if count < 10**12 else f'about 10^{int(log10(count))}'} layouts, "
            f"more than the limit {limit}"
        )
    cells = [i for i in range(level.cells) if i not in free]
    return [Layout(level.width, level.height, mines) for mines in combinations(cells, level.mines)]


def perfect_play(
    level: Level,
    start: Cell,
    rule: FirstClick = "safe",
    *,
    limit: int = 100_000,
    budget: int = 10**8,
    work: int = WORK_LIMIT,
) -> PerfectPlay:
    """The exact number of layouts perfect play wins, first click at ``start``.

    With rule ``none`` the first click may hit a mine: those layouts are lost whatever
    the player does, and the search runs over the others. Raises
    :class:`TooManyLayoutsToList` beyond ``limit`` layouts, and
    :class:`TooLargeForPerfectPlay` when layouts times cells exceeds ``work`` (the
    search's set-up alone costs that much) or the search ``budget`` nodes.
    """
    layouts = all_layouts(level, start, rule, limit)
    if len(layouts) * level.cells > work:
        raise TooLargeForPerfectPlay(
            f"{level} with the first click {rule!r} at {start}: {len(layouts)} layouts of "
            f"{level.cells} cells, more than {work} layout-cells to set up"
        )
    position = Position.empty(level.width, level.height, level.mines)
    first = position.index(start)
    masks = [
        m for m in (sum(1 << i for i in lay.mine_indices) for lay in layouts) if not m >> first & 1
    ]
    # the search opens every cell safe in all layouts first: the first click, and with
    # rule "opening" its neighbours too; the digits they show split the layouts
    try:
        wins = EndgameSolver(budget).win_count(position, masks) if masks else 0
    except SearchBudgetExceeded as exc:
        raise TooLargeForPerfectPlay(
            f"{level} with the first click {rule!r} at {start}: {exc}"
        ) from None
    return PerfectPlay(level, start, rule, wins, len(layouts))


def play_every_layout(
    setup: Setup,
    *,
    limit: int = 100_000,
    workers: int = 1,
    on_progress: Callable[[int], None] | None = None,
) -> BenchResult:
    """The players of ``setup`` on every layout its board, start and rule allow, once
    each: their exact win counts over the layouts (with one draw of their random
    tie-breaks per layout, from the setup's seed), comparable with :func:`perfect_play`.
    ``on_progress(n)`` is called as each batch of ``n`` layouts is played.
    """
    layouts = all_layouts(setup.level, setup.start, setup.rule, limit)
    return simulate(setup, len(layouts), layouts=layouts, workers=workers, on_progress=on_progress)


def compare(perfect: PerfectPlay, players: BenchResult | None = None) -> dict[str, object]:
    """Perfect play and the players over the same layouts, as JSON-ready values: each
    player's wins, win rate, ``gap`` (perfect play's win rate minus its own) and
    ``layouts_lost_to_perfect``."""
    return {
        "level": str(perfect.level),
        "first_click": perfect.rule,
        "start": list(perfect.start),
        "layouts": perfect.layouts,
        "perfect": {"wins": perfect.wins, "win_rate": float(perfect.win_rate)},
        "players": {}
        if players is None
        else {
            name: {
                "wins": r.wins,
                "win_rate": r.win_rate,
                "gap": float(perfect.win_rate) - r.win_rate,
                "layouts_lost_to_perfect": perfect.wins - r.wins,
            }
            for name, r in players.results.items()
        },
    }
