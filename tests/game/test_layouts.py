"""Layouts, drawing them, and the MBF and text layout files (``minesolver.game.layouts``)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from minesolver.game import (
    PRESETS,
    Layout,
    LayoutFormatError,
    Level,
    load_layouts,
    random_layout,
    read_mbf,
    read_text_layouts,
    write_mbf,
    write_text_layouts,
)


def test_random_layout_is_uniform_over_allowed_layouts() -> None:
    # 2x2 board, 2 mines, first click safe at (0,0): the C(3,2) = 3 layouts equally likely
    rng = random.Random(7)
    counts = Counter(
        random_layout(Level(2, 2, 2), rng, (0, 0), "safe").mine_indices for _ in range(3000)
    )
    assert set(counts) == {(1, 2), (1, 3), (2, 3)}
    assert all(900 < c < 1100 for c in counts.values())


def test_layouts_are_reproducible_by_seed() -> None:
    a = random_layout(PRESETS["expert"], random.Random(42), (0, 0), "safe")
    b = random_layout(PRESETS["expert"], random.Random(42), (0, 0), "safe")
    c = random_layout(PRESETS["expert"], random.Random(43), (0, 0), "safe")
    assert a == b != c
    assert 0 not in a.mine_indices and len(a.mine_indices) == 99


def test_mine_indices_has_its_own_name_and_mines_is_a_deprecated_alias() -> None:
    layout = Layout.from_cells(3, 2, [(0, 1), (2, 0)])
    assert layout.mine_indices == (2, 3) and layout.level.mines == 2
    with pytest.warns(DeprecationWarning, match="use Layout.mine_indices"):
        assert layout.mines == layout.mine_indices


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
