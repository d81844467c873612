"""A run's settings: the level, the first-click rule and cell, the players, the seed.

:func:`make_setup` builds a :class:`Setup` from the text options of ``minesolver bench``
(and of the other commands that play seeded games), checking every one before any game
is played. O(1) apart from reading a layouts file (O(its size)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from minesolver.errors import MinesolverError
from minesolver.game import (
    PRESETS,
    FirstClick,
    Layout,
    Level,
    check_level,
    check_rule,
    load_layouts,
    parse_level,
    parse_start,
)
from minesolver.position import Cell
from minesolver.strategy import get_player

__all__ = ["Setup", "SimulationError", "make_setup"]


class SimulationError(MinesolverError, ValueError):
    """A run that cannot be made: bad settings, or a player that stops making progress."""


@dataclass(frozen=True, slots=True)
class Setup:
    """What every game of a run shares: level, first-click rule and cell, players, seed."""

    level: Level
    rule: FirstClick
    start: Cell
    players: tuple[str, ...]
    seed: int = 0
    no_guess: bool = False


def make_setup(
    *,
    level: str | None,
    first_click: str,
    start: str,
    players: Sequence[str],
    seed: int,
    no_guess: bool = False,
    layouts_file: str | None = None,
) -> tuple[Setup, list[Layout] | None]:
    """A run's :class:`Setup` from text options (those of ``minesolver bench``), and the
    layouts of ``layouts_file`` if given (their size then sets the level).

    Raises a ``ValueError`` subclass naming the bad option or file.
    """
    rule = check_rule(first_click)
    names = tuple(dict.fromkeys(n.strip().lower() for n in players if n.strip()))
    if not names:
        raise SimulationError("no player given")
    for name in names:
        get_player(name)  # an unknown name fails now, before any game or search
    given: list[Layout] | None = None
    if layouts_file is not None:
        if no_guess:
            raise SimulationError("give either --layouts or --no-guess, not both")
        given = load_layouts(layouts_file)
        sizes = {layout.level for layout in given}
        if len(sizes) > 1:
            shown = ", ".join(sorted(str(s) for s in sizes)[:4])
            raise SimulationError(f"{layouts_file}: layouts of several sizes ({shown})")
        (size,) = sizes
        presets = {Level(p.width, p.height, p.mines): p for p in PRESETS.values()}
        lvl = presets.get(size) or parse_level(str(size))
    else:
        lvl = parse_level(level or "expert")
    cell = parse_start(start, lvl.width, lvl.height)
    if given is None:
        check_level(lvl, cell, rule)
    return Setup(lvl, rule, cell, names, seed, no_guess), given
