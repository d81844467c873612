"""The screenshot reader: labelled screenshots read with every cell right or refused,
generated classic boards at several scales and places, random and corrupt input refused
with a clear error, and the command line."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

import contextlib

from PIL import Image
from vision_samples import (
    DATA,
    SAMPLES,
    attempt_sample,
    on_a_desktop,
    read_sample,
    truth,
    window,
)

from minesolver import MinesolverError
from minesolver.ui.cli import main
from minesolver.vision import (
    VisionError,
    read_board,
    read_screenshot,
    synth,
)

LABEL = {-1: "H", -2: "F", synth.MINE: "*", synth.EXPLODED: "!", synth.WRONG_FLAG: "x"}
LABEL.update({d: str(d) for d in range(9)})


def right_or_refused(reading_or_error: object, rows: list[str]) -> str:
    """``right``, ``refused`` or ``wrong`` (a board read surely that is not the truth)."""
    if isinstance(reading_or_error, VisionError):
        return "refused"
    reading = reading_or_error
    assert hasattr(reading, "cells")
    size_ok = (reading.width, reading.height) == (len(rows[0]), len(rows))  # type: ignore[attr-defined]
    if reading.problem is not None:  # type: ignore[attr-defined]
        return "refused"
    if not size_ok:
        return "wrong"
    got = "".join(c.label for c in reading.cells)  # type: ignore[attr-defined]
    return "right" if got == "".join(rows) else "wrong"


def attempt(image: object) -> object:
    try:
        return read_screenshot(image)
    except VisionError as exc:
        return exc


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_labelled_screenshot_is_read_right_or_refused(name: str) -> None:
    rows = truth(name)
    outcome = right_or_refused(attempt_sample(name), rows)
    assert outcome != "wrong", name


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if n.startswith("web")))
def test_our_page_is_read_right(name: str) -> None:
    """Every screenshot of our page is read cell for cell (two are held out of the
    templates); a lost one shows its mines and is refused for analysis."""
    reading = read_sample(name)
    assert "".join(c.label for c in reading.cells) == "".join(truth(name))
    if "lost" in name:
        assert reading.lost
        with pytest.raises(VisionError, match="the game is lost"):
            reading.position()
    else:
        assert reading.position().to_text(header=False).split() == truth(name)


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if n.startswith("gnome-8x8")))
def test_gnome_mines_is_read_cell_for_cell(name: str) -> None:
    """GNOME Mines (its default setting, the bgcolors theme: rounded cells with gaps
    between them, real screenshots under Xvfb): every cell read right; the boards whose
    flags a person placed wrong are refused as inconsistent, a lost one as lost."""
    reading = read_sample(name)
    assert reading.skin == "gnome"
    assert "".join(c.label for c in reading.cells) == "".join(truth(name))
    if name in ("gnome-8x8-b", "gnome-8x8-flags"):  # flags placed wrong by hand
        assert reading.problem is not None and "inconsistent" in reading.problem
    elif name.endswith("-lost"):
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
    else:
        assert reading.position().to_text(header=False).split() == truth(name)


@pytest.mark.parametrize("seed", range(6))
def test_a_generated_classic_board_is_right_or_refused(seed: int) -> None:
    rng = random.Random(seed)
    w, h, m = rng.choice([(9, 9, 10), (16, 16, 40), (30, 16, 99), (12, 10, 20)])
    scale = rng.choice([1.0, 1.25, 1.5, 2.0, 3.0])
    cells = synth.random_board(rng, w, h, m)
    win, _ = synth.classic_window(cells, w, h, synth.mines_left(cells, m), xp=rng.random() < 0.5)
    size = (round(win.width * scale), round(win.height * scale))
    win = win.resize(size, Image.Resampling.BILINEAR)
    desk = synth.desktop(rng, (win.width + 300, win.height + 200))
    desk.paste(win, (rng.randrange(300), rng.randrange(200)))
    rows = ["".join(LABEL[v] for v in cells[i : i + w]) for i in range(0, w * h, w)]
    assert right_or_refused(attempt(desk), rows) != "wrong"


def test_a_standard_size_gives_the_total_and_bytes_work() -> None:
    rng = random.Random(3)
    cells = synth.random_board(rng, 9, 9, 10)
    win, _ = synth.classic_window(cells, 9, 9, synth.mines_left(cells, 10))
    buffer = io.BytesIO()
    win.save(buffer, "PNG")
    position = read_board(buffer.getvalue())
    assert (position.width, position.height, position.mines) == (9, 9, 10)
    assert list(position.cells) == [v if v >= -2 else -1 for v in cells]


@pytest.mark.parametrize("seed", range(30))
def test_random_bytes_and_corrupt_images_give_a_clear_error(seed: int) -> None:
    rng = random.Random(seed)
    buffer = io.BytesIO()
    synth.classic_window(synth.random_board(rng, 9, 9, 10), 9, 9, 10)[0].save(buffer, "PNG")
    good = bytearray(buffer.getvalue())
    kind = seed % 3
    if kind == 0:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(2000)))
    elif kind == 1:
        data = bytes(good[: rng.randrange(len(good))])
    else:
        for _ in range(20):
            good[rng.randrange(len(good))] = rng.randrange(256)
        data = bytes(good)
    try:
        read_board(data)
    except MinesolverError as exc:
        assert isinstance(exc, ValueError) and str(exc)


@pytest.mark.parametrize("seed", range(8))
def test_random_pictures_are_refused_or_read_consistently(seed: int) -> None:
    """Noise, stripes and flat colours: never a crash."""
    import numpy as np

    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(8, 400)), int(rng.integers(8, 400))
    if seed % 2:
        pixels = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    else:
        pixels = np.zeros((h, w, 3), dtype=np.uint8)
        pixels[:, :: int(rng.integers(10, 40))] = 255
    with contextlib.suppress(VisionError):
        read_screenshot(Image.fromarray(pixels))


def test_the_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        read_board(42)


def test_cli_read_and_solve(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(11)
    cells = synth.random_board(rng, 9, 9, 10)
    path = tmp_path / "board.png"
    synth.classic_window(cells, 9, 9, synth.mines_left(cells, 10))[0].save(path)
    assert main(["read", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "9x9x10"
    assert main(["solve", str(path)]) == 0
    assert "safest" in capsys.readouterr().out
    lost = tmp_path / "lost.png"
    lost_cells = synth.random_board(rng, 9, 9, 10, lost=True)
    synth.classic_window(lost_cells, 9, 9, synth.mines_left(lost_cells, 10))[0].save(lost)
    assert main(["read", str(lost)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the game is lost") and err.count("\n") == 1
    text = tmp_path / "not.png"
    text.write_text("hello")
    assert main(["read", str(text)]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    # named as an image but not one: solve reads it as an image and says so
    noise = tmp_path / "noise.png"
    noise.write_bytes(bytes(rng.randrange(256) for _ in range(3000)))
    assert main(["solve", str(noise)]) == 2
    assert "is not an image that can be read" in capsys.readouterr().err


def test_cli_solve_asks_for_mines_on_a_custom_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A board of no standard size whose mine counter is not in the image (the window
    cut below its panel): the total is unknown, and the command says to give it."""
    rng = random.Random(12)
    path = tmp_path / "custom.png"
    cells = synth.random_board(rng, 12, 10, 20)
    win, (_, top) = synth.classic_window(cells, 12, 10, synth.mines_left(cells, 20))
    win.crop((0, top - 8, win.width, win.height)).save(path)
    assert main(["solve", str(path)]) == 2
    assert "--mines" in capsys.readouterr().err
    assert main(["solve", str(path), "--mines", "20"]) == 0


@pytest.mark.parametrize(("name", "scale"), [("gnome-8x8-d", 2.5), ("gnome-8x8-c", 3.0)])
def test_large_cells_are_read(name: str, scale: float) -> None:
    """GNOME Mines draws its tiles as large as the window allows: cells of 120 to 150
    pixels (a held-out screenshot scaled up) are found and read cell for cell."""
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    image = image.resize(
        (round(image.width * scale), round(image.height * scale)), Image.Resampling.BILINEAR
    )
    reading = read_screenshot(image)
    assert reading.cell_size[0] == pytest.approx(49 * scale, abs=1)
    assert "".join(c.label for c in reading.cells) == "".join(truth(name))
    assert reading.problem is None


@pytest.mark.parametrize(
    "name", sorted(n for n in SAMPLES if SAMPLES[n]["skin"] in ("kmines", "kmines-classic"))
)
def test_kmines_is_read_cell_for_cell(name: str) -> None:
    """KMines, its default and its classic theme (real screenshots under Xvfb, Easy,
    Medium and Hard boards at several window sizes, several held out of the templates):
    every cell read right in its own theme's skin; a lost board refused as lost, the one
    whose flag a person placed wrong as inconsistent."""
    reading = read_sample(name)
    assert reading.skin == SAMPLES[name]["skin"]
    assert "".join(c.label for c in reading.cells) == "".join(truth(name))
    if name.endswith("lost"):
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
    elif name == "kmines-9x9-i-flags":  # a flag placed on a safe cell
        assert reading.problem is not None and "inconsistent" in reading.problem
    else:
        assert reading.position().to_text(header=False).split() == truth(name)


def test_a_blot_over_one_cell_leaves_the_rest_read() -> None:
    """A pointer or a blot over one cell: that cell is unsure and named, every other cell
    is read, and the lattice is the board's (no other is taken for it)."""
    from PIL import ImageDraw

    name = "web-every-b"
    left, top, right, _ = SAMPLES[name]["box"]
    side = (right - left) / 16
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    x, y = 5, 7
    x0, y0 = left + x * side, top + y * side
    ImageDraw.Draw(image).ellipse(
        (x0 + 6, y0 + 6, x0 + side - 6, y0 + side - 6), fill=(200, 0, 200)
    )
    reading = read_screenshot(image)
    assert (reading.width, reading.height) == (16, 16)
    assert reading.unsure == ((x, y),)
    assert reading.problem is not None and "(5, 7)" in reading.problem
    rows = truth(name)
    assert all(
        reading.cell(i, j).label == rows[j][i]
        for j in range(16)
        for i in range(16)
        if (i, j) != (x, y)
    )


@pytest.mark.parametrize("seed", [0, 3])
def test_kmines_scaled_on_a_desktop_is_read_on_square_cells(seed: int) -> None:
    """A held-out KMines screenshot at display scale 1.5 on a cluttered desktop: its
    revealed cells are drawn faintly, so the lattice found first has another period
    across than down; the lattice with the rows' period both ways is the board's, and
    no lattice far from square cells is read."""
    from minesolver.vision.grid import SQUARE, other_axes

    name = "kmines-9x9-c"
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    image = image.resize(
        (round(image.width * 1.5), round(image.height * 1.5)), Image.Resampling.BILINEAR
    )
    rng = random.Random(seed)
    desk = synth.desktop(rng, (image.width + 300, image.height + 200))
    desk.paste(image, (rng.randrange(300), rng.randrange(200)))
    reading = read_screenshot(desk)
    assert reading.problem is None
    assert reading.cell_size[0] == pytest.approx(25 * 1.5, abs=0.5)
    assert reading.position().to_text(header=False).split() == truth(name)
    import numpy as np

    for cols, rows in other_axes(np.asarray(desk)):
        assert abs(cols.period - rows.period) <= SQUARE * rows.period


JSMS_SMALL_ON_WHOLE_PAGE = ("jsms-beginner-16-125", "jsms-beginner-60-2")
"""Beginner boards alone on JSMinesweeper's whole page (1600x1125 and 2560x1800 pixels):
the page's panels, buttons and counters outweigh the board's lines, so no lattice is
found there; refused (the test above), and read once cut to the board's surroundings."""


@pytest.mark.parametrize(
    "name",
    sorted(n for n in SAMPLES if n.startswith("jsms") and n not in JSMS_SMALL_ON_WHOLE_PAGE),
)
def test_jsminesweeper_is_read_cell_for_cell(name: str) -> None:
    """JSMinesweeper's page in Chromium (tile sizes 12 to 60 pixels, display scales 1 to
    2, labelled from the page's own tiles; 9 of 19 held out of the templates): every cell
    read right, the total from a standard size, a lost board refused as lost."""
    reading = read_sample(name)
    assert reading.skin == "jsms"
    assert "".join(c.label for c in reading.cells) == "".join(truth(name))
    if any(c in row for row in truth(name) for c in "*!x"):  # a lost game
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
    else:
        text = reading.position().to_text(header=reading.mines is not None).split()
        expected = (DATA / f"{name}.txt").read_text().split()
        assert text == (expected if reading.mines is not None else expected[1:])


def _jsms_cut(name: str, scale: float, seed: int) -> Image.Image:
    """Sample ``name`` cut to its board with the page around it (its counter panel
    above), scaled by ``scale`` and placed on a cluttered desktop."""
    left, top, right, bottom = SAMPLES[name]["box"]
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    image = image.crop((int(left) - 60, int(top) - 100, int(right) + 60, int(bottom) + 60))
    return on_a_desktop(image, scale, seed, (400, 300))


@pytest.mark.parametrize(
    ("name", "scale"),
    [
        ("jsms-beginner-16-125", 1.0),  # cells of 20 pixels
        ("jsms-beginner-16-125", 1.5),
        ("jsms-beginner-60-2", 1.0),  # cells of 120 pixels
        ("jsms-beginner-60-2", 0.75),
    ],
)
def test_a_small_jsminesweeper_board_cut_from_its_page_is_read(name: str, scale: float) -> None:
    """A beginner board cut from JSMinesweeper's page with its counter panel above, on a
    desktop: the panel's strong edges hold the longest stretch of lines at the board's
    period, so the board's rows are found beyond them, and every cell read right."""
    reading = read_screenshot(_jsms_cut(name, scale, 5))
    assert reading.skin == "jsms"
    assert "".join(c.label for c in reading.cells) == "".join(truth(name))
    if any(c in row for row in truth(name) for c in "*!x"):  # a lost game
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
    else:
        assert reading.position().to_text(header=False).split() == truth(name)


def test_jsminesweeper_with_its_hints_and_overlay_is_never_read_wrong() -> None:
    """JSMinesweeper's page as it opens: hints tint the cells and the overlay writes each
    hidden cell's mine chance on it. Not in the templates: refused (or read right), never
    a board read surely that is not the page's."""
    name = "jsms-overlay-expert"
    assert right_or_refused(attempt_sample(name), truth(name)) != "wrong"


XDEMINEUR = sorted(n for n in SAMPLES if n.startswith("xdemineur"))


@pytest.mark.parametrize("name", XDEMINEUR)
def test_xdemineur_is_read_cell_for_cell(name: str) -> None:
    """xdemineur (a one-pixel black line between its cells; real screenshots under Xvfb,
    most held out of the templates), each screenshot as it was taken: every cell read
    right on the lattice of its lines (the lines found first are up to a twelfth of a
    pixel a cell off, the two edges of a thin line being equally strong: the period
    moved about the board's middle puts every line right), question marks hidden for
    the analysis, the total from the level on 16x16 and 30x16, a lost board refused as
    lost."""
    reading = read_sample(name)
    rows = truth(name)
    assert reading.skin == "xdemineur"
    assert (reading.width, reading.height) == (len(rows[0]), len(rows))
    assert reading.cell_size == pytest.approx((21, 21), abs=0.1)
    assert reading.box[:2] == pytest.approx((16, 81), abs=0.5)
    assert "".join(c.label for c in reading.cells) == "".join(rows)
    if name.endswith("lost"):
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
        return
    position = reading.position()
    assert position.to_text(header=False).split() == [r.replace("?", "H") for r in rows]
    standard = {(16, 16): 40, (30, 16): 99}.get((reading.width, reading.height))
    assert position.mines == standard
    assert reading.mines_from == ("level" if standard else None)


@pytest.mark.parametrize(
    ("name", "scale"),
    [
        ("xdemineur-30x16-b", 1.5),
        ("xdemineur-20x12-dense", 1.75),
        ("xdemineur-30x16-lost", 2.5),
        ("xdemineur-16x16-b", 1.25),
    ],
)
def test_xdemineur_scaled_on_a_desktop_is_read(name: str, scale: float) -> None:
    """A held-out xdemineur screenshot scaled by a display factor (bilinear: its grid
    line falls inside a cell or outside it by the cell's place) and pasted on a
    cluttered desktop is read cell for cell, digits 5 and more included."""
    assert not SAMPLES[name]["templates"]
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    image = image.resize(
        (round(image.width * scale), round(image.height * scale)), Image.Resampling.BILINEAR
    )
    rng = random.Random(7)
    desk = synth.desktop(rng, (image.width + 240, image.height + 160))
    desk.paste(image, (rng.randrange(240), rng.randrange(160)))
    reading = read_screenshot(desk)
    assert reading.skin == "xdemineur"
    assert reading.cell_size[0] == pytest.approx(21 * scale, abs=0.3)
    assert "".join(c.label for c in reading.cells) == "".join(truth(name))
    if name.endswith("lost"):
        assert reading.problem is not None and reading.problem.startswith("the game is lost")
    else:
        assert reading.problem is None


def test_xdemineur_templates_hold_every_label() -> None:
    """Every label xdemineur can show is in its templates: the digits 1 to 8 (5 to 8
    from dense boards), flags, question marks, and a lost game's mines, exploded mine
    and crossed-out flags."""
    from minesolver.vision.templates import LABELS, load_skin

    assert set(load_skin("xdemineur").labels) == set(LABELS)


def _kmines_on_a_desktop(name: str, scale: float, seed: int) -> Image.Image:
    """A KMines sample cut to its board and a margin, scaled and pasted on a desktop."""
    return on_a_desktop(window(name), scale, seed, (300, 200))


@pytest.mark.parametrize(
    ("name", "scale", "seed"),
    [("kmines-9x9-h-won", 1.5, 0), ("kmines-9x9-f-flags", 1.75, 1)],
)
def test_kmines_held_out_boards_scaled_are_read(name: str, scale: float, seed: int) -> None:
    """Held-out KMines boards that the reader refused before: a won board of ones and
    twos, whose strokes repeat at the period a third of a cell off the faint cell lines
    (the offsets spread across the period find the cells), and a board whose grey
    surroundings read as empty cells beyond its frame (the frame is a wall)."""
    reading = read_screenshot(_kmines_on_a_desktop(name, scale, seed))
    assert (reading.width, reading.height) == (9, 9)
    side = 25 if name == "kmines-9x9-f-flags" else 39  # pixels a cell in the capture
    assert reading.cell_size[0] == pytest.approx(side * scale, abs=0.5)
    assert reading.problem is None
    assert reading.position().to_text(header=False).split() == truth(name)


def test_a_frame_is_a_wall_and_what_lies_beyond_it_is_not_board() -> None:
    """The walls: a column nearly all unsure with only empty cells read beyond it is cut
    off with them; not when a digit is read beyond it (a lattice of half the period), nor
    when the cells beyond are worse still (a lattice drifting askew)."""
    import numpy as np

    from minesolver.vision.extent import _walled

    bad = np.zeros((6, 10), dtype=bool)
    empty = np.zeros((6, 10), dtype=bool)
    bad[:, 1] = True  # the frame, one column in from the left edge
    empty[:, 0] = True  # the grey beyond it, read as empty cells
    assert _walled(bad, empty, (0, 10, 0, 6)) == (1, 10, 0, 6)
    digit = empty.copy()
    digit[3, 0] = False  # a digit read beyond the wall
    assert _walled(bad, digit, (0, 10, 0, 6)) is None
    drifting = bad.copy()
    drifting[:, 0] = True  # the cells beyond as bad as the wall
    assert _walled(drifting, empty, (0, 10, 0, 6)) is None
    bottom = np.zeros((8, 5), dtype=bool)
    plain = np.zeros((8, 5), dtype=bool)
    bottom[6, :] = True
    plain[7, :] = True
    assert _walled(bottom, plain, (0, 5, 0, 8)) == (0, 5, 0, 7)


GNOME_THEMES = sorted(
    n for n, i in SAMPLES.items() if i["skin"] in ("gnome-classic", "gnome-default")
)


@pytest.mark.parametrize("name", GNOME_THEMES)
def test_gnome_mines_other_themes_are_read_right_or_refused(name: str) -> None:
    """GNOME Mines' classic and default themes (8x8, 16x16 and 30x16 boards, flags,
    question marks, lost games): a board read (or refused only as lost) is the theme's
    skin, every cell right; any other is refused."""
    reading = read_sample(name)
    rows = truth(name)
    whole = reading.problem is None or reading.problem.startswith("the game is lost")
    if whole:
        assert reading.skin == SAMPLES[name]["skin"], name
        assert "".join(c.label for c in reading.cells) == "".join(rows), name
    assert right_or_refused(reading, rows) != "wrong", name


@pytest.mark.parametrize(
    ("name", "skins", "mark", "flag"),
    [
        ("gnome-default-8x8-a-flags", None, (5, 6), (3, 3)),
        ("gnome-16x16-g-flags", ("gnome",), (14, 1), (7, 2)),
    ],
)
def test_a_question_mark_is_not_read_as_a_flag(
    name: str, skins: tuple[str, ...] | None, mark: tuple[int, int], flag: tuple[int, int]
) -> None:
    """GNOME Mines draws a question mark as its flag with a small ``?`` beside it: the
    two are told apart on the pixels of the mark, never the question mark read surely as
    a flag (the gnome skin did before it knew question marks: a wrong board)."""
    reading = read_screenshot(DATA / f"{name}.png", skins=skins)
    rows = truth(name)
    assert rows[mark[1]][mark[0]] == "?" and rows[flag[1]][flag[0]] == "F"
    if (reading.width, reading.height) != (len(rows[0]), len(rows)):
        assert reading.problem is not None  # another lattice: refused, not read
        return
    got = reading.cell(*mark)
    assert got.label == "?" or not got.sure
    assert not (reading.cell(*flag).sure and reading.cell(*flag).label != "F")
    assert right_or_refused(reading, rows) != "wrong"


def test_a_board_of_open_cells_only_is_refused() -> None:
    """A lattice twice the cells' size over GNOME Mines' revealed cells read as KMines'
    empty cells: every cell open, none closed, flagged or a mine, is no game board, and
    is refused, never returned as a board."""
    image = DATA / "gnome-default-8x8-b-flags.png"
    try:
        reading = read_screenshot(image, skins=("kmines",))
    except VisionError:
        return
    labels = {c.label for c in reading.cells}
    if labels <= set("012345678"):
        assert reading.problem is not None and "not a game board" in reading.problem


def test_an_edge_row_of_closed_cells_read_askew_is_not_dropped() -> None:
    """A 30x16 GNOME Mines board whose rows are a tenth of a pixel closer than its
    columns: on the lattice found, the bottom row of closed cells is two pixels off and
    far from the templates, yet like the board's own closed cells; it is not dropped to
    return a board of 15 rows."""
    name = "gnome-default-30x16-g-flags"
    reading = read_sample(name)
    assert reading.problem is not None or (reading.width, reading.height) == (30, 16)
    assert right_or_refused(reading, truth(name)) != "wrong"
