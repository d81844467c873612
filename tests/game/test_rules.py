"""The rules of a click: flood fill, flags, chords, first-click rules, the view
(``minesolver.game.rules``, every move through :meth:`Game.push`; the steps it returns
and its errors are tested in ``test_push.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from minesolver.game import PRESETS, Game, GameError, Layout, Level, Move
from minesolver.position import FLAG, HIDDEN, Position

LayoutOf = Callable[[list[str]], Layout]


def test_flood_fill_opens_the_zero_region_and_its_border(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["....", "....", "...*", "..*."]))
    opened = game.push(Move("open", (0, 0))).opened
    view = game.view()
    assert view.to_text(header=False).split() == ["0000", "0011", "012H", "01HH"]
    assert len(opened) == 13  # 16 cells less the 3 still hidden
    assert game.outcome.status == "playing"
    # opening the last safe cell wins
    game.push(Move("open", (3, 3)))
    assert game.outcome.status == "won"
    assert game.view()[(3, 3)] == 2


def test_flood_fill_stops_at_flags_and_digits(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["...", "...", "..*"]))
    game.push(Move("flag", (0, 2)))
    game.push(Move("open", (0, 0)))
    assert game.view()[(0, 2)] == FLAG
    assert game.view()[(1, 2)] == 1
    assert game.outcome.status == "playing"  # the flagged safe cell is still closed
    assert game.push(Move("unflag", (0, 2))).changed
    game.push(Move("open", (0, 2)))
    assert game.outcome.status == "won"


def test_loss_on_a_mine_and_nothing_after(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*..", "...", "..."]))
    assert game.push(Move("open", (0, 0))).opened == ((0, 0),)
    assert game.outcome.status == "lost"
    assert game.exploded == (0, 0)
    with pytest.raises(GameError, match="already lost"):
        game.push(Move("open", (2, 2)))
    assert game.view()[(2, 2)] == HIDDEN


def test_chord_opens_unflagged_neighbours_and_loses_on_a_wrong_flag(layout_of: LayoutOf) -> None:
    rows = ["*..", "...", "..."]
    game = Game.from_layout(layout_of(rows))
    game.push(Move("open", (1, 1)))
    assert game.view()[(1, 1)] == 1
    assert game.push(Move("chord", (1, 1))).opened == ()  # no flag yet: nothing
    game.push(Move("flag", (0, 0)))
    opened = game.push(Move("chord", (1, 1))).opened
    assert (2, 2) in opened
    assert game.outcome.status == "won"

    wrong = Game.from_layout(layout_of(rows))
    wrong.push(Move("open", (1, 1)))
    wrong.push(Move("flag", (2, 2)))
    wrong.push(Move("chord", (1, 1)))
    assert wrong.outcome.status == "lost"
    assert wrong.exploded == (0, 0)


def test_flag_toggle_and_no_effect_on_open_cells(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*.", ".."]))
    assert game.push(game.toggle_move((0, 0))).changed
    assert game.view()[(0, 0)] == FLAG
    assert game.push(Move("open", (0, 0))).opened == ()  # flagged: not opened
    assert game.push(game.toggle_move((0, 0))).changed
    assert game.view()[(0, 0)] == HIDDEN
    game.push(Move("open", (1, 1)))
    assert not game.push(Move("flag", (1, 1))).changed
    with pytest.raises(GameError, match="off the"):
        game.push(Move("open", (5, 5)))


@pytest.mark.parametrize("rule", ["safe", "opening", "none"])
def test_first_click_rules(rule: str) -> None:
    level = Level(5, 5, 14)  # dense: an unprotected first click is often a mine
    start = (2, 2)
    hits = 0
    for seed in range(60):
        game = Game.new(level, random.Random(seed), rule)  # type: ignore[arg-type]
        game.push(Move("open", start))
        assert game.layout is not None and len(game.layout.mine_indices) == 14
        if rule == "safe":
            assert game.outcome.status != "lost"
        if rule == "opening":
            assert game.view()[start] == 0
            assert all(game.view()[c] >= 0 for c in game.view().neighbours(start))
        hits += game.outcome.status == "lost"
    if rule == "none":
        assert hits > 20  # 14/25 of first clicks are mines: 33.6 expected


def test_view_is_a_position_without_thelayout_of(layout_of: LayoutOf) -> None:
    game = Game.new(PRESETS["beginner"], random.Random(1), "opening")
    game.push(Move("open", (4, 4)))
    view = game.view()
    assert type(view) is Position
    assert view.mines == 10
    # the view holds the visible cells and the total, and a byte cache derived from the
    # cells alone: nothing of the layout.
    assert set(Position.__slots__) == {"width", "height", "cells", "mines", "_raw"}  # type: ignore[attr-defined]
    assert view.raw() == bytes(v & 255 for v in view.cells)
    assert view == Position.from_text(view.to_text())
