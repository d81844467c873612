"""GNOME Mines' themes at every digit: boards of custom games whose layout was chosen
beforehand (every count 0 to 8 on the board) at tiles of 49, 47 and 35 pixels."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

from vision_samples import truth

from minesolver.vision import read_screenshot

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"


@pytest.mark.parametrize("name", ["gnome-default-8x8-i-flags", "gnome-8x8-i-lost"])
def test_a_held_out_board_with_every_digit_reads_right(name: str) -> None:
    """A board the templates never saw, with a 5, 6, 7 and an 8 on it, reads cell for cell
    (its flag placed on a safe cell makes it inconsistent; the lost one is refused as
    lost)."""
    reading = read_screenshot(DATA / f"{name}.png")
    rows = truth(name)
    assert set("5678") <= set("".join(rows))
    got = [
        "".join(reading.cell(x, y).label for x in range(reading.width))
        for y in range(reading.height)
    ]
    assert got == rows, reading.problem
    assert reading.problem is not None
    assert "inconsistent" in reading.problem or reading.problem.startswith("the game is lost")


def test_classic_pale_digit_read_as_empty_is_refused() -> None:
    """GNOME Mines' classic theme draws its 6, 7 and 8 so pale that, with no template of
    them, such a cell reads as an empty cell: the board is refused, naming it, since no
    game leaves an empty cell beside a closed one."""
    name = "gnome-classic-16x16-h-flags"
    rows = truth(name)
    reading = read_screenshot(DATA / f"{name}.png", mines=90)
    pale = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c in "678"]
    assert pale
    assert any(reading.cell(x, y).label == "0" for x, y in pale)
    assert reading.problem is not None
    assert "read empty beside a closed cell" in reading.problem
    x, y = next((x, y) for x, y in pale if reading.cell(x, y).label == "0")
    assert f"({x}, {y})" in reading.problem or "more" in reading.problem
