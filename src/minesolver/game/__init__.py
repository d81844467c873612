"""The game: levels and first-click rules, mine layouts and their files, the rules, moves.

One module per thing it owns:

- :mod:`~minesolver.game.levels`: :class:`Level`, the presets, the first-click rules;
- :mod:`~minesolver.game.layouts`: :class:`Layout`, :func:`random_layout`, MBF and text
  layout files;
- :mod:`~minesolver.game.move`: :class:`Move`, one action on the board, and the base
  :class:`Reason` of why a player chose it;
- :mod:`~minesolver.game.rules`: :class:`Game` with :meth:`Game.push` returning a
  :class:`Step`, and the typed :class:`Outcome`;
- :mod:`~minesolver.game.efficiency`: a board's 3BV, openings, islands, ZiNi, HZiNi and
  rZiNi (:func:`board_measures`);
- :mod:`~minesolver.game.clicks`: the proved fewest clicks of a board (:func:`min_clicks`);
- :mod:`~minesolver.game.errors`: :class:`GameError` and its kinds.

Every public name is importable from here (``from minesolver.game import Game``).

>>> game = Game.from_layout(Layout.from_cells(2, 2, [(1, 1)]))
>>> step = game.push(Move("open", (0, 0)))
>>> step.opened, step.outcome.status
(((0, 0),), <Status.PLAYING: 'playing'>)
>>> step.view.to_text().split()
['2x2x1', '1H', 'HH']
"""

from __future__ import annotations

from minesolver.game.clicks import MinClicks, min_clicks
from minesolver.game.efficiency import BoardMeasures, board_measures, hzini, rzini, zini
from minesolver.game.errors import GameError, LayoutFormatError, LevelError
from minesolver.game.layouts import (
    MAX_MBF_SIDE,
    Layout,
    dump_layouts,
    load_layouts,
    random_layout,
    read_mbf,
    read_text_layouts,
    write_mbf,
    write_text_layouts,
)
from minesolver.game.levels import (
    FIRST_CLICK_RULES,
    PRESETS,
    FirstClick,
    Level,
    check_level,
    check_rule,
    excluded_cells,
    parse_level,
    parse_start,
)
from minesolver.game.move import MOVE_KINDS, Move, MoveKind, Reason, move_kind
from minesolver.game.rules import Game, Outcome, Status, Step

__all__ = [
    "FIRST_CLICK_RULES",
    "MAX_MBF_SIDE",
    "MOVE_KINDS",
    "PRESETS",
    "BoardMeasures",
    "FirstClick",
    "Game",
    "GameError",
    "Layout",
    "LayoutFormatError",
    "Level",
    "LevelError",
    "MinClicks",
    "Move",
    "MoveKind",
    "Outcome",
    "Reason",
    "Status",
    "Step",
    "board_measures",
    "check_level",
    "check_rule",
    "dump_layouts",
    "excluded_cells",
    "hzini",
    "load_layouts",
    "min_clicks",
    "move_kind",
    "parse_level",
    "parse_start",
    "random_layout",
    "read_mbf",
    "read_text_layouts",
    "rzini",
    "write_mbf",
    "write_text_layouts",
    "zini",
]
