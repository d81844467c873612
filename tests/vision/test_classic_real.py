"""Real screenshots of the classic skin: Metasweeper run under a virtual display (labelled
from its own game board) and a Minesweeper Arbiter screenshot (labelled by eye). Those
held out of the templates are read as well as those the templates were cut from."""

from __future__ import annotations

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

from vision_samples import DATA, SAMPLES, read_sample, truth

from minesolver.analysis import analyze
from minesolver.position import Position
from minesolver.vision import VisionError
from minesolver.vision.templates import load_skin

META = sorted(n for n in SAMPLES if n.startswith("metasweeper-"))
REFUSED = {
    # the frame beside the board reads as one more column of cells, not surely
    "metasweeper-beginner-24",
    # cells of 12 pixels: the frame around the board reads as rows and columns of cells
    "metasweeper-expert-12",
    # a whole screen whose text window's lines make another lattice
    "metasweeper-intermediate-lost-18-screen",
}
"""Samples the reader refuses today (never reads wrong: see test_read.py)."""


def test_the_metasweeper_samples_are_classic_and_some_held_out() -> None:
    assert len(META) >= 10
    assert all(
        SAMPLES[n]["skin"] == "classic" and "Metasweeper" in SAMPLES[n]["source"] for n in META
    )
    held = [n for n in META if not SAMPLES[n].get("templates", True)]
    assert 5 <= len(held) < len(META)


@pytest.mark.parametrize("name", [n for n in META if "lost" not in n])
def test_a_metasweeper_label_file_is_consistent(name: str) -> None:
    """The labels come from the program's own board: the exact analysis finds a layout
    for every position still in play, flags included, under the total of its header."""
    position = Position.from_text((DATA / f"{name}.txt").read_text())
    assert position.mines is not None
    layouts = analyze(position).layouts
    assert layouts is not None and layouts > 0


@pytest.mark.parametrize("name", [n for n in META if n not in REFUSED])
def test_metasweeper_is_read_cell_for_cell(name: str) -> None:
    """Every cell right, from cells of 16 to 32 pixels, whole screens included; a lost
    game reports its mines and is refused as lost."""
    reading = read_sample(name)
    assert reading.skin == "classic"
    assert "".join(c.label for c in reading.cells) == "".join(truth(name)), reading.text()
    left, top, right, bottom = SAMPLES[name]["box"]
    assert reading.box == pytest.approx((left, top, right, bottom), abs=1.5)
    if "lost" in name:
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
    else:
        assert reading.position().to_text(header=False).split() == truth(name)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_hard_metasweeper_screens_are_refused_not_misread(name: str) -> None:
    try:
        reading = read_sample(name)
    except VisionError:
        return
    assert reading.problem is not None


def test_the_arbiter_board_is_read_right_cell_for_cell() -> None:
    """The real Arbiter tiles (its green 2s among them) are read surely and right; the
    only cells that may be unsure are the rows of the grey status bar below the board,
    which a lattice of 16-pixel cells can take for rows of the board."""
    rows = truth("arbiter-expert")
    reading = read_sample("arbiter-expert")
    assert reading.skin == "classic"
    assert reading.cell_size == pytest.approx((16, 16), abs=0.1)
    assert reading.box[:2] == pytest.approx((177, 116), abs=1.5)
    assert reading.width == 30 and reading.height >= 16
    board = [reading.cell(x, y) for y in range(16) for x in range(30)]
    assert all(c.sure for c in board)
    assert "".join(c.label for c in board) == "".join(rows)
    assert all(y >= 16 for _, y in reading.unsure)


def test_the_classic_templates_hold_the_real_tiles() -> None:
    """Every cell of a Metasweeper sample the templates were cut from lies within the
    reader's closest limit of a template of its label."""
    from minesolver.vision.templates import cell_vectors

    np = pytest.importorskip("numpy")
    from PIL import Image

    skin = load_skin("classic")
    labels = np.asarray(skin.labels)
    for name in (n for n in META if SAMPLES[n].get("templates", True)):
        rows = truth(name)
        w, h = len(rows[0]), len(rows)
        left, top, right, bottom = SAMPLES[name]["box"]
        cw, ch = (right - left) / w, (bottom - top) / h
        boxes = [
            (left + i * cw, top + j * ch, left + (i + 1) * cw, top + (j + 1) * ch)
            for j in range(h)
            for i in range(w)
        ]
        vectors = cell_vectors(Image.open(DATA / f"{name}.png"), boxes)
        for label, v in zip("".join(rows), vectors, strict=True):
            own = skin.vectors[labels == label]
            assert np.sqrt(np.mean((own - v) ** 2, axis=1)).min() < 0.035, (name, label)
