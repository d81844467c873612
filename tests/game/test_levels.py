"""Levels, presets, first cells and first-click rules (``minesolver.game.levels``)."""

from __future__ import annotations

import random

import pytest

from minesolver.game import (
    PRESETS,
    Game,
    GameError,
    Level,
    LevelError,
    Move,
    parse_level,
    parse_start,
)


def test_presets_and_custom_levels() -> None:
    assert (PRESETS["expert"].width, PRESETS["expert"].height, PRESETS["expert"].mines) == (
        30,
        16,
        99,
    )
    assert parse_level("Beginner") == Level(9, 9, 10, "beginner")
    assert parse_level("intermediate").cells == 256
    custom = parse_level("12x7x20")
    assert (custom.width, custom.height, custom.mines) == (12, 7, 20)
    for bad in ("hard", "9x9", "0x5x1", "9x9x82"):
        with pytest.raises(LevelError, match="level"):
            parse_level(bad)


def test_start_cells() -> None:
    assert parse_start("corner", 30, 16) == (0, 0)
    assert parse_start("centre", 30, 16) == (15, 8)
    assert parse_start("3,3", 30, 16) == (3, 3)
    with pytest.raises(GameError, match="off the"):
        parse_start("30,0", 30, 16)
    with pytest.raises(GameError, match="expected"):
        parse_start("middle", 9, 9)


def test_opening_rule_with_too_many_mines_fails() -> None:
    game = Game.new(Level(3, 3, 1), random.Random(0), "opening")
    with pytest.raises(LevelError, match="do not fit"):
        game.push(Move("open", (1, 1)))
    with pytest.raises(GameError, match="first-click rule"):
        Game.new(Level(3, 3, 1), random.Random(0), "lucky")  # type: ignore[arg-type]


def test_levels_and_position_headers_share_one_size_grammar() -> None:
    """A size the position header accepts is a level, and one it refuses is refused with
    the same reason (sides up to MAX_SIDE, not the MBF format's 255)."""
    from minesolver.game import LevelError, parse_level
    from minesolver.position import MAX_SIDE, Position, PositionFormatError

    assert parse_level("300X2 x 7").cells == 600
    assert Position.from_text("300x2x7\n" + ("H" * 300 + "\n") * 2).mines == 7
    for bad in (f"{MAX_SIDE + 1}x1x0", "2x2x5", "0x3x0", "9" * 5000 + "x1x1"):
        with pytest.raises(PositionFormatError) as pos_err:
            Position.from_text(bad + "\nH")
        with pytest.raises(LevelError) as level_err:
            parse_level(bad)
        assert pos_err.value.args[0].split(": ", 1)[1] == level_err.value.args[0].split(": ", 1)[1]
        assert pos_err.value.args[0].startswith("line 1: ")
