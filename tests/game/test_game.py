"""The game's rules, layouts and layout files."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from minesolver.game import (
    PRESETS,
    Game,
    GameError,
    Layout,
    LayoutFormatError,
    Level,
    LevelError,
    load_layouts,
    parse_level,
    parse_start,
    random_layout,
    read_mbf,
    read_text_layouts,
    write_mbf,
    write_text_layouts,
)
from minesolver.position import FLAG, HIDDEN, Position


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


def _layout(rows: list[str]) -> Layout:
    """A layout from rows of '.' and '*'."""
    cells = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "*"]
    return Layout.from_cells(len(rows[0]), len(rows), cells)


def test_flood_fill_opens_the_zero_region_and_its_border() -> None:
    game = Game.from_layout(_layout(["....", "....", "...*", "..*."]))
    opened = game.open((0, 0))
    view = game.view()
    assert view.to_text(header=False).split() == ["0000", "0011", "012H", "01HH"]
    assert len(opened) == 13  # 16 cells less the 3 still hidden
    assert game.outcome.status == "playing"
    # opening the last safe cell wins
    game.open((3, 3))
    assert game.outcome.status == "won"
    assert game.view()[(3, 3)] == 2


def test_flood_fill_stops_at_flags_and_digits() -> None:
    game = Game.from_layout(_layout(["...", "...", "..*"]))
    game.flag((0, 2))
    game.open((0, 0))
    assert game.view()[(0, 2)] == FLAG
    assert game.view()[(1, 2)] == 1
    assert game.outcome.status == "playing"  # the flagged safe cell is still closed
    assert game.unflag((0, 2))
    game.open((0, 2))
    assert game.outcome.status == "won"


def test_loss_on_a_mine_and_nothing_after() -> None:
    game = Game.from_layout(_layout(["*..", "...", "..."]))
    assert game.open((0, 0)) == [(0, 0)]
    assert game.outcome.status == "lost"
    assert game.exploded == (0, 0)
    assert game.open((2, 2)) == []
    assert game.view()[(2, 2)] == HIDDEN


def test_chord_opens_unflagged_neighbours_and_loses_on_a_wrong_flag() -> None:
    rows = ["*..", "...", "..."]
    game = Game.from_layout(_layout(rows))
    game.open((1, 1))
    assert game.view()[(1, 1)] == 1
    assert game.chord((1, 1)) == []  # no flag yet: nothing
    game.flag((0, 0))
    opened = game.chord((1, 1))
    assert (2, 2) in opened
    assert game.outcome.status == "won"

    wrong = Game.from_layout(_layout(rows))
    wrong.open((1, 1))
    wrong.flag((2, 2))
    wrong.chord((1, 1))
    assert wrong.outcome.status == "lost"
    assert wrong.exploded == (0, 0)


def test_flag_toggle_and_no_effect_on_open_cells() -> None:
    game = Game.from_layout(_layout(["*.", ".."]))
    assert game.toggle_flag((0, 0))
    assert game.view()[(0, 0)] == FLAG
    assert game.open((0, 0)) == []  # flagged: not opened
    assert game.toggle_flag((0, 0))
    assert game.view()[(0, 0)] == HIDDEN
    game.open((1, 1))
    assert not game.flag((1, 1))
    with pytest.raises(GameError, match="off the"):
        game.open((5, 5))


@pytest.mark.parametrize("rule", ["safe", "opening", "none"])
def test_first_click_rules(rule: str) -> None:
    level = Level(5, 5, 14)  # dense: an unprotected first click is often a mine
    start = (2, 2)
    hits = 0
    for seed in range(60):
        game = Game.new(level, random.Random(seed), rule)  # type: ignore[arg-type]
        game.open(start)
        assert game.layout is not None and len(game.layout.mines) == 14
        if rule == "safe":
            assert game.outcome.status != "lost"
        if rule == "opening":
            assert game.view()[start] == 0
            assert all(game.view()[c] >= 0 for c in game.view().neighbours(start))
        hits += game.outcome.status == "lost"
    if rule == "none":
        assert hits > 20  # 14/25 of first clicks are mines: 33.6 expected


def test_opening_rule_with_too_many_mines_fails() -> None:
    game = Game.new(Level(3, 3, 1), random.Random(0), "opening")
    with pytest.raises(LevelError, match="do not fit"):
        game.open((1, 1))
    with pytest.raises(GameError, match="first-click rule"):
        Game.new(Level(3, 3, 1), random.Random(0), "lucky")  # type: ignore[arg-type]


def test_random_layout_is_uniform_over_allowed_layouts() -> None:
    # 2x2 board, 2 mines, first click safe at (0,0): the C(3,2) = 3 layouts equally likely
    rng = random.Random(7)
    counts = Counter(random_layout(Level(2, 2, 2), rng, (0, 0), "safe").mines for _ in range(3000))
    assert set(counts) == {(1, 2), (1, 3), (2, 3)}
    assert all(900 < c < 1100 for c in counts.values())


def test_layouts_are_reproducible_by_seed() -> None:
    a = random_layout(PRESETS["expert"], random.Random(42), (0, 0), "safe")
    b = random_layout(PRESETS["expert"], random.Random(42), (0, 0), "safe")
    c = random_layout(PRESETS["expert"], random.Random(43), (0, 0), "safe")
    assert a == b != c
    assert 0 not in a.mines and len(a.mines) == 99


def test_view_is_a_position_without_the_layout() -> None:
    game = Game.new(PRESETS["beginner"], random.Random(1), "opening")
    game.open((4, 4))
    view = game.view()
    assert type(view) is Position
    assert view.mines == 10
    # the view holds the visible cells and the total, and a byte cache derived from the
    # cells alone: nothing of the layout.
    assert set(Position.__slots__) == {"width", "height", "cells", "mines", "_raw"}  # type: ignore[attr-defined]
    assert view.raw() == bytes(v & 255 for v in view.cells)
    assert view == Position.from_text(view.to_text())


def test_mbf_round_trip_and_errors(tmp_path: Path) -> None:
    layouts = [random_layout(PRESETS["expert"], random.Random(s), (0, 0)) for s in range(3)]
    data = write_mbf(layouts)
    assert data[:4] == bytes((30, 16, 0, 99))
    assert len(data) == 3 * (4 + 2 * 99)
    assert read_mbf(data) == layouts
    path = tmp_path / "boards.mbf"
    path.write_bytes(data)
    assert load_layouts(path) == layouts
    with pytest.raises(LayoutFormatError, match=r"x\.mbf, offset 7: truncated"):
        read_mbf(data[:7], "x.mbf")
    bad = bytearray(write_mbf(layouts[0]))
    bad[4] = 30  # x = 30 on a 30-wide board
    with pytest.raises(LayoutFormatError, match="offset 4: mine"):
        read_mbf(bytes(bad))
    with pytest.raises(LayoutFormatError, match="cannot read"):
        load_layouts(tmp_path / "missing.mbf")


def test_text_layouts_round_trip_and_errors(tmp_path: Path) -> None:
    layouts = [random_layout(Level(9, 9, 10), random.Random(s), (0, 0)) for s in range(4)]
    text = write_text_layouts(layouts)
    assert text.splitlines()[0].startswith("9x9x10: ")
    path = tmp_path / "boards.txt"
    path.write_text("# four beginner boards\n\n" + text)
    assert load_layouts(path) == layouts
    with pytest.raises(LayoutFormatError, match=r"f\.txt, line 1: header says 2 mines"):
        read_text_layouts("3x3x2: 0,0\n", "f.txt")
    with pytest.raises(LayoutFormatError, match=r"line 2: mine \(3, 0\) is off"):
        read_text_layouts("3x3x1: 0,0\n3x3x1: 3,0\n")
    with pytest.raises(LayoutFormatError, match="line 1: expected"):
        read_text_layouts("hello\n")


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
