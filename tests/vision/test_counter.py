"""The mine counter: read on drawn classic windows at several display scales, on real
screenshots of our page and on real GNOME Mines and KMines windows; the total is the
counter plus the flags (GNOME Mines and KMines show both), and a counter that cannot be
read surely gives no total."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

import numpy as np
from PIL import Image
from vision_samples import DATA, SAMPLES, read_sample

from minesolver.ui.cli import main
from minesolver.vision import read_screenshot, synth
from minesolver.vision.counter import TEXT_GLYPH, _text_templates, read_counter

SCALES = (0.8, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)


def scaled(image: Image.Image, scale: float) -> Image.Image:
    size = (round(image.width * scale), round(image.height * scale))
    method = Image.Resampling.NEAREST if scale % 1 == 0 else Image.Resampling.BILINEAR
    return image.resize(size, method)


def header(name: str) -> int | None:
    lines = (DATA / f"{name}.txt").read_text().split()
    head = [r for r in lines if re.fullmatch(r"\d+x\d+x\d+", r)]
    return int(head[0].split("x")[2]) if head else None


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("value", [0, 7, 10, 40, 99, 123, 999, -1, -7, -42])
def test_a_classic_counter_is_read_at_every_scale(scale: float, value: int) -> None:
    rng = random.Random(value * 31 + int(scale * 100))
    cells = synth.random_board(rng, 9, 9, 10)
    win, (bx, by) = synth.classic_window(cells, 9, 9, value, xp=rng.random() < 0.5)
    rgb = np.asarray(scaled(win, scale))
    side = synth.CELL * scale
    box = (bx * scale, by * scale, bx * scale + 9 * side, by * scale + 9 * side)
    found = read_counter(rgb, "classic", box, side)
    assert found is not None
    assert (found.text, found.value) == (synth.counter_text(value), value)
    # the box found is the counter's (41x25 pixels at 100%, its black inside 39x23)
    assert found.box[2] - found.box[0] == pytest.approx(39 * scale, abs=2)
    assert found.box[3] - found.box[1] == pytest.approx(23 * scale, abs=2)


def test_unlit_segments_drawn_black_are_read_alike() -> None:
    """Some clones draw no ghost of the unlit segments: black, they read the same."""
    cells = synth.random_board(random.Random(1), 9, 9, 10)
    win, (bx, by) = synth.classic_window(cells, 9, 9, 58)
    rgb = np.asarray(win).copy()
    rgb[(rgb == (128, 0, 0)).all(axis=2)] = 0
    found = read_counter(rgb, "classic", (bx, by, bx + 144, by + 144), 16.0)
    assert found is not None and found.value == 58


CUSTOM_SIZES = [(12, 10, 20), (20, 12, 40), (9, 9, 15), (16, 16, 50)]
COUNTER_SCALES = [0.8, 1.0, 1.5, 2.5]


@pytest.mark.parametrize(
    ("w", "h", "mines", "scale"),
    # each size at two scales, each scale with two sizes: two diagonals of the grid of
    # sizes and scales (all sixteen pass; eight keep the suite's time)
    [
        (*size, COUNTER_SCALES[(i + shift) % 4])
        for i, size in enumerate(CUSTOM_SIZES)
        for shift in (0, 2)
    ],
)
def test_the_total_is_the_counter_plus_the_flags(w: int, h: int, mines: int, scale: float) -> None:
    """Custom boards, and standard sizes with another total (a custom game of that size:
    the counter wins; the test below checks a level's own total), on a cluttered
    desktop: the total read is the true one. At display scale 0.8 a board may be
    refused (never read wrong): then no total is claimed."""
    rng = random.Random(w * h + mines + int(scale * 10))
    cells = synth.random_board(rng, w, h, mines)
    win, _ = synth.classic_window(cells, w, h, synth.mines_left(cells, mines), xp=scale > 1)
    win = scaled(win, scale)
    desk = synth.desktop(rng, (win.width + 200, win.height + 160))
    desk.paste(win, (rng.randrange(200), rng.randrange(160)))
    reading = read_screenshot(desk)
    if scale < 1 and reading.problem is not None and "cannot tell" in reading.problem:
        assert reading.mines_from != "counter"
        return
    assert (reading.width, reading.height) == (w, h)
    assert reading.counter is not None
    assert reading.counter.value == synth.mines_left(cells, mines)
    assert (reading.mines, reading.mines_from) == (mines, "counter")  # none is a level's
    assert reading.problem is None
    assert reading.position().mines == mines


@pytest.mark.parametrize(("w", "h", "mines"), [(9, 9, 10), (16, 16, 40), (30, 16, 99)])
def test_a_level_whose_counter_agrees_keeps_its_total(w: int, h: int, mines: int) -> None:
    rng = random.Random(w + h)
    cells = synth.random_board(rng, w, h, mines)
    win, _ = synth.classic_window(cells, w, h, synth.mines_left(cells, mines))
    reading = read_screenshot(scaled(win, 1.25))
    assert reading.counter is not None
    assert reading.counter.value == synth.mines_left(cells, mines)
    assert (reading.mines, reading.mines_from) == (mines, "level")


def test_a_given_total_wins_over_the_counter() -> None:
    rng = random.Random(4)
    cells = synth.random_board(rng, 12, 10, 20)
    win, _ = synth.classic_window(cells, 12, 10, synth.mines_left(cells, 20))
    reading = read_screenshot(win, mines=21)
    assert (reading.mines, reading.mines_from) == (21, "given")
    assert reading.counter is not None and reading.counter.value == synth.mines_left(cells, 20)


def test_a_counter_with_more_flags_than_mines_is_negative() -> None:
    """More flags than mines left: the counter shows a minus, the total is still
    counter plus flags."""
    rng = random.Random(8)
    cells = synth.random_board(rng, 12, 10, 20)
    hidden = [i for i, v in enumerate(cells) if v == -1]
    for i in hidden[:25]:
        cells[i] = -2  # a flag on every one of 25 hidden cells
    left = synth.mines_left(cells, 20)
    assert left < 0
    win, _ = synth.classic_window(cells, 12, 10, left)
    reading = read_screenshot(win)
    assert reading.counter is not None and reading.counter.value == left
    assert reading.counter.text.startswith("-")
    assert reading.mines == 20 or reading.mines_from != "counter"


def test_a_lost_board_counts_its_crossed_out_flags() -> None:
    rng = random.Random(9)
    cells = synth.random_board(rng, 12, 10, 20, lost=True)
    win, _ = synth.classic_window(cells, 12, 10, synth.mines_left(cells, 20))
    reading = read_screenshot(scaled(win, 1.5))
    assert reading.lost
    assert (reading.mines, reading.mines_from) == (20, "counter")


def test_a_smudged_counter_gives_no_total() -> None:
    """A segment half lit is neither lit nor unlit: the counter is not read, the total
    of a custom board stays unknown (that of a standard size comes from its level)."""
    rng = random.Random(10)
    for w, h, m, expected in [(12, 10, 20, None), (9, 9, 10, 10)]:
        cells = synth.random_board(rng, w, h, m)
        win, (bx, by) = synth.classic_window(cells, w, h, synth.mines_left(cells, m))
        rgb = np.asarray(win).copy()
        # the middle digit's top segment, drawn at 190 red: between lit and unlit (the
        # counter's box is 4 pixels right of the board, 38 above; its digits 13 wide)
        cx, cy = bx + 4, by - 38
        rgb[cy + 1 : cy + 6, cx + 16 : cx + 25] = (190, 0, 0)
        reading = read_screenshot(Image.fromarray(rgb))
        assert reading.counter is None
        assert reading.mines == expected
        assert reading.mines_from == (None if expected is None else "level")


def test_no_counter_is_read_where_the_image_shows_none() -> None:
    """The board alone (cut below the panel): no counter, no total for a custom size."""
    rng = random.Random(11)
    cells = synth.random_board(rng, 12, 10, 20)
    win, (_, top) = synth.classic_window(cells, 12, 10, synth.mines_left(cells, 20))
    reading = read_screenshot(win.crop((0, top - 8, win.width, win.height)))
    assert reading.counter is None and reading.mines is None


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if n.startswith("web")))
def test_our_page_counter_is_read(name: str) -> None:
    """Screenshots of our page in Chromium: the counter read, and the total it gives is
    the true one (custom boards included)."""
    reading = read_sample(name)
    assert reading.counter is not None
    flags = "".join(c.label for c in reading.cells).count("F")
    if "lost" not in name:
        standard = (reading.width, reading.height) in ((9, 9), (16, 16), (30, 16))
        assert reading.mines_from == ("level" if standard else "counter")
        assert reading.mines == header(name)
        assert reading.counter.value == header(name) - flags  # type: ignore[operator]
        assert reading.position().mines == header(name)


COUNTERS = json.loads((DATA / "counters.json").read_text())
"""Where each GNOME Mines and KMines screenshot's counter stands and what it shows
(``n/m``: the flags on the board and the mines); the entries under ``windows/`` are
whole windows of their own, their board's box and skin given."""
WINDOWS = sorted(n for n in COUNTERS if n.startswith("windows/"))
TEXT_SAMPLES = sorted(n for n in COUNTERS if not n.startswith("windows/") and "box" in COUNTERS[n])
"""The screenshots whose counter's place is labelled too (one, KMines drawn at display
scale 1.5, whose counter the reader does not read, has its text alone)."""


def _board_of(name: str) -> tuple[str, tuple[float, float, float, float], int]:
    """The skin, the board's box and its width in cells of a counter screenshot."""
    info = COUNTERS[name] if name.startswith("windows/") else SAMPLES[name]
    skin, board = info["skin"], tuple(info.get("board", info.get("box")))
    rows = [
        r
        for r in (DATA / f"{_path(name)}.txt").read_text().split()
        if not re.fullmatch(r"\d+x\d+x\d+", r)
    ]
    return skin, board, len(rows[0])  # type: ignore[return-value]


def _path(name: str) -> str:
    return f"counter/{name}" if name.startswith("windows/") else name


@pytest.mark.parametrize("scale", [0.8, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0])
@pytest.mark.parametrize("name", TEXT_SAMPLES + WINDOWS)
def test_a_gnome_or_kmines_counter_is_read_right_or_not_at_all(name: str, scale: float) -> None:
    """Real GNOME Mines and KMines windows (every theme, several window sizes, custom
    boards), scaled as a desktop scales them: the counter is read as it shows, or not
    read; never another text. Its glyphs are 9 pixels tall at scale 1: from scale 1 up,
    every counter is read (KMines' ``0/99`` among them, its slash drawn touching the 9)."""
    skin, (left, top, right, bottom), width = _board_of(name)
    image = Image.open(DATA / f"{_path(name)}.png").convert("RGB")
    rgb = np.asarray(scaled(image, scale))
    box = (left * scale, top * scale, right * scale, bottom * scale)
    found = read_counter(rgb, skin, box, (box[2] - box[0]) / width)
    text = COUNTERS[name]["text"]
    if scale >= 1:
        assert found is not None
    if found is not None:
        flags, mines = (int(v) for v in text.split("/"))
        assert (found.text, found.value, found.flags) == (text, mines - flags, flags)
        x0, y0, x1, y1 = (v * scale for v in COUNTERS[name]["box"])
        assert found.box == pytest.approx((x0, y0, x1, y1), abs=2 + scale)


@pytest.mark.parametrize("name", WINDOWS)
def test_a_gnome_or_kmines_window_gives_its_total(name: str) -> None:
    """Whole windows, boards fresh with flags placed: the counter read, and the total it
    gives is the window's own: a custom board's (no level has its size), and a 30x16
    board of 96 mines' (a custom game of a level's size: the counter wins); a level's
    own total stays the level's, confirmed."""
    reading = read_sample(_path(name))
    rows = [
        r
        for r in (DATA / f"{_path(name)}.txt").read_text().split()
        if not re.fullmatch(r"\d+x\d+x\d+", r)
    ]
    if reading.problem is not None:  # the board refused (not the counter's doing)
        assert reading.mines_from != "counter"
        return
    assert "".join(c.label for c in reading.cells) == "".join(rows)
    assert reading.counter is not None and reading.counter.text == COUNTERS[name]["text"]
    mines = int(COUNTERS[name]["text"].split("/")[1])
    level = {(8, 8): 10, (9, 9): 10, (16, 16): 40, (30, 16): 99}.get(
        (reading.width, reading.height)
    )
    assert reading.mines == mines
    assert reading.mines_from == ("level" if level == mines else "counter")
    assert reading.position().mines == mines


def test_most_windows_are_read_with_their_total() -> None:
    """The windows' boards are read (not refused) but for KMines' Hard board, whose
    fresh top row the reader cannot place: the test above is not vacuous."""
    read = [n for n in WINDOWS if read_sample(_path(n)).problem is None]
    assert len(read) >= len(WINDOWS) - 1


@pytest.mark.parametrize(
    "name", ["windows/gnome-custom-12x10-flags", "windows/kmines-custom-10x10-flags"]
)
def test_a_counter_cut_by_the_image_edge_is_not_read(name: str) -> None:
    """The screenshot cut through the counter's text, at every column of it (a digit
    lost, or half of one): the counter is not read, and the custom board has no total.
    Cut just past its last glyph's ink, with no light column after it, likewise."""
    skin, board, width = _board_of(name)
    image = Image.open(DATA / f"{_path(name)}.png").convert("RGB")
    x0, y0, x1, y1 = COUNTERS[name]["box"]
    for cut in range(x0 + 1, x1 + 2):
        rgb = np.asarray(image.crop((0, 0, cut, image.height)))
        assert read_counter(rgb, skin, board, (board[2] - board[0]) / width) is None, cut
    for cut in range(y0 + 1, y1):
        rgb = np.asarray(image.crop((0, 0, image.width, cut)))
        assert read_counter(rgb, skin, board, (board[2] - board[0]) / width) is None, cut
    whole = read_counter(np.asarray(image), skin, board, (board[2] - board[0]) / width)
    assert whole is not None  # the same window uncut is read
    reading = read_screenshot(image.crop((0, 0, x1 - 3, image.height)))
    assert reading.counter is None and reading.mines is None


def test_a_counter_whose_flags_are_not_the_boards_gives_no_total() -> None:
    """GNOME Mines' ``3/23`` beside a board on which one of the three flags is painted
    over with a closed cell: the counter speaks of another board (or was misread), and
    the custom board's total stays unknown."""
    name = "windows/gnome-custom-12x10-flags"
    image = Image.open(DATA / f"{_path(name)}.png").convert("RGB")
    left, top, right, _ = COUNTERS[name]["board"]
    side = (right - left) / 12
    hidden = image.crop(
        (
            round(left + 5 * side),
            round(top + 5 * side),
            round(left + 6 * side),
            round(top + 6 * side),
        )
    )
    image.paste(hidden, (round(left), round(top + 9 * side)))  # over the flag at (0, 9)
    reading = read_screenshot(image)
    assert reading.problem is None
    assert sum(c.label == "F" for c in reading.cells) == 2
    assert reading.counter is None and reading.mines is None and reading.mines_from is None


@pytest.mark.parametrize("name", sorted(n for n in SAMPLES if n.startswith(("gnome", "kmines"))))
def test_gnome_and_kmines_counters_confirm_the_level(name: str) -> None:
    """The labelled GNOME Mines and KMines screenshots: the counter, when read, shows
    the flags read on the board and the game's total. On a level's size the total stays
    the level's when the counter agrees or is not read, and is the counter's on a custom
    game of a level's size with no cell unsure (a board read at its size; one read on
    another lattice is refused); on a custom size (KMines' dense 10x10 games) it is the
    counter's."""
    reading = read_sample(name)
    if reading.counter is not None:
        assert reading.counter.text == COUNTERS[name]["text"]
    text = (DATA / f"{name}.txt").read_text().split()
    rows = [r for r in text if not re.fullmatch(r"\d+x\d+x\d+", r)]
    if (reading.width, reading.height) == (len(rows[0]), len(rows)):
        total = int(COUNTERS[name]["text"].split("/")[1])
        level = {(8, 8): 10, (9, 9): 10, (16, 16): 40, (30, 16): 99}.get(
            (reading.width, reading.height)
        )
        if level is None:  # a custom size: only the counter tells the total
            assert reading.mines_from == "counter"
            assert reading.mines == total
        else:
            # a board with a cell read unsure keeps the level's total whatever its counter shows
            custom = reading.counter is not None and total != level and not reading.unsure
            assert reading.mines_from == ("counter" if custom else "level")
            if custom:
                assert reading.mines == total
    else:
        assert reading.problem is not None


def test_text_counter_templates_ship_every_character() -> None:
    for family in ("gnome", "kmines"):
        labels, aspects, vectors = _text_templates(family)
        assert set(labels) == set("0123456789/")
        assert vectors.shape == (len(labels), TEXT_GLYPH[0] * TEXT_GLYPH[1])
        assert len(aspects) == len(labels)


def test_cli_read_prints_the_size_and_total_of_a_custom_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["read", str(DATA / "web-counter-custom.png")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "14x9x30"
    rng = random.Random(13)
    cells = synth.random_board(rng, 12, 10, 20)
    path = tmp_path / "custom.png"
    synth.classic_window(cells, 12, 10, synth.mines_left(cells, 20))[0].save(path)
    assert main(["read", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "12x10x20"
    assert main(["solve", str(path)]) == 0
    capsys.readouterr()
    assert main(["read", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mines"] == 20 and out["mines_from"] == "counter"
    assert out["counter"] == synth.mines_left(cells, 20)


def test_a_real_minesweeper_arbiter_counter_is_read() -> None:
    """Minesweeper Arbiter's own counter (a real screenshot: unlit segments dark red, as
    the classic window draws them), found from the board's box: 099, no flag placed.
    The reader refuses this board today (the status bar below it reads as rows): the
    counter read is reported, and no total is taken from it."""
    rgb = np.asarray(Image.open(DATA / "arbiter-expert.png").convert("RGB"))
    left, top, right, bottom = SAMPLES["arbiter-expert"]["box"]
    found = read_counter(rgb, "classic", (left, top, right, bottom), (right - left) / 30)
    assert found is not None and (found.text, found.value) == ("099", 99)
    reading = read_sample("arbiter-expert")
    if reading.problem is not None and "cannot tell" in reading.problem:
        assert reading.mines_from != "counter"
    else:
        assert reading.mines == 99
