"""Real screenshots of the classic skin: Metasweeper run under a virtual display (labelled
from its own game board) and a Minesweeper Arbiter screenshot (labelled by eye). Those
held out of the templates are read as well as those the templates were cut from."""

from __future__ import annotations

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

from PIL import Image
from vision_samples import DATA, SAMPLES, on_a_desktop, read_sample, truth, window

from minesolver.analysis import analyze
from minesolver.position import Position
from minesolver.vision import VisionError, read_screenshot
from minesolver.vision.templates import load_skin

META = sorted(n for n in SAMPLES if n.startswith("metasweeper-"))
REFUSED = {
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


def scaled_on_a_desktop(name: str, scale: float, seed: int) -> Image.Image:
    """Sample ``name`` cut to its window around the board (as the accuracy benchmark
    cuts it), scaled by ``scale`` (bilinear) and pasted at a random place on a cluttered
    desktop."""
    return on_a_desktop(window(name), scale, seed, (300, 200))


@pytest.mark.parametrize(
    ("name", "scale"),
    [
        ("metasweeper-beginner-lost-28", 1.5),
        ("metasweeper-beginner-lost-28", 0.8),
        ("metasweeper-intermediate-lost-18-screen", 1.25),
        ("metasweeper-expert-16", 0.8),
    ],
)
def test_metasweeper_frame_scaled_is_not_a_column_of_cells(name: str, scale: float) -> None:
    """Metasweeper's bevelled frame, scaled, reads nearly as a column of hidden cells
    beside the board (light, grey and dark stripes, as a hidden cell's sides): the board
    was refused as one whose end cannot be told, and at display scale 0.8, with the
    templates of small real tiles, the frame read surely as a column of hidden cells (a
    board one column too wide). The frame is the same all along the board, a column of
    cells is not: it is dropped, and the board read exactly."""
    assert not SAMPLES[name]["templates"]
    reading = read_screenshot(scaled_on_a_desktop(name, scale, 3))
    rows = truth(name)
    assert (reading.width, reading.height) == (len(rows[0]), len(rows))
    assert "".join(c.label for c in reading.cells) == "".join(rows), reading.text()
    if "lost" in name:
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
    else:
        assert reading.problem is None


@pytest.mark.parametrize("scale", [2.0, 2.5])
def test_small_real_tiles_scaled_up_are_read(scale: float) -> None:
    """Metasweeper's tiles of 12 pixels drawn twice or two and a half times as large by
    the display: scaled up, they are like none of the tiles of larger cells (the digits
    read 3 or 7, 2 or 8, and the board was refused). The templates hold real tiles of
    12 to 15 pixels at the display scales (from other boards than this held-out one)."""
    name = "metasweeper-expert-12"
    assert not SAMPLES[name]["templates"]
    reading = read_screenshot(scaled_on_a_desktop(name, scale, 4))
    assert reading.position().to_text(header=False).split() == truth(name)


def test_a_band_is_told_from_a_line_of_cells() -> None:
    """A strip the same all along (a frame's stripes) is a band beside a column of
    cells; a column of cells is not, nor is a nearly flat strip (faint empty cells)."""
    np = pytest.importorskip("numpy")
    from minesolver.vision.extent import _banded
    from minesolver.vision.templates import SIZE

    def cells(pixels: object) -> object:
        return np.broadcast_to(pixels, (8, SIZE, SIZE, 3)).reshape(8, -1).astype(np.float32)

    across = np.linspace(0.2, 0.9, SIZE)[None, :, None]  # stripes across a column
    band = cells(np.broadcast_to(across, (SIZE, SIZE, 3)))
    hidden = np.full((SIZE, SIZE, 3), 0.75)
    hidden[:2], hidden[:, :2], hidden[-2:], hidden[:, -2:] = 1.0, 1.0, 0.5, 0.5
    column = cells(hidden)
    faint = cells(np.broadcast_to(0.75 + 0.01 * across, (SIZE, SIZE, 3)))
    assert _banded(band, column, down=True)
    assert not _banded(column, column, down=True)
    assert not _banded(faint, column, down=True)
    # a row: the band's stripes run along it
    row_band = cells(np.broadcast_to(across.transpose(1, 0, 2), (SIZE, SIZE, 3)))
    assert _banded(row_band, column, down=False)
    assert not _banded(band, column, down=False)
