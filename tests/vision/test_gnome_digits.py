"""GNOME Mines' themes at every digit: boards of custom games whose layout was chosen
beforehand (every count 0 to 8 on the board) at tiles of 49, 47 and 35 pixels."""

from __future__ import annotations

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

from vision_samples import read_sample, truth


@pytest.mark.parametrize(
    "name", ["gnome-default-8x8-i-flags", "gnome-classic-8x8-i-flags", "gnome-8x8-i-lost"]
)
def test_a_held_out_board_with_every_digit_reads_right(name: str) -> None:
    """A board the templates never saw, with a 5, 6, 7 and an 8 on it, reads cell for cell
    (its flag placed on a safe cell makes it inconsistent; the lost one is refused as
    lost)."""
    reading = read_sample(name)
    rows = truth(name)
    assert set("5678") <= set("".join(rows))
    got = [
        "".join(reading.cell(x, y).label for x in range(reading.width))
        for y in range(reading.height)
    ]
    assert got == rows, reading.problem
    assert reading.problem is not None
    assert "inconsistent" in reading.problem or reading.problem.startswith("the game is lost")
