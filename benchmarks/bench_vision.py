"""Accuracy of the screenshot reader per skin, on generated screenshots.

    .venv/bin/python benchmarks/bench_vision.py [--boards N] [--seed S]
    .venv/bin/python benchmarks/bench_vision.py --desktop

For each skin, N screenshots are made and read:

- ``classic``: boards of random games (standard and custom sizes, some lost) drawn by
  :mod:`minesolver.vision.synth` in a Windows 98 or XP window, scaled by a display factor
  from 0.8 to 3 (bilinear, as a browser or a desktop scales) and pasted at a random place
  on a cluttered desktop;
- ``classic-real``: the labelled real screenshots of the classic skin (Minesweeper
  Arbiter, Metasweeper under Xvfb) held out of the templates, cut, scaled and placed
  as below;
- every other skin: the labelled real screenshots of ``tests/data/vision/`` (our page in
  Chromium, GNOME Mines under Xvfb) that are *held out* of the templates (``"templates":
  false`` in ``samples.json``: the templates never saw them), cut about the board (and
  about the mine counter of GNOME Mines and KMines, where ``counters.json`` places it),
  scaled the same way and pasted the same way: a new size and place for each board, the
  same cells.

A board is *right* when every cell is read and read right (a lost board counts right
when every cell, mines included, is reported right and the position is refused as lost;
a real screenshot whose flags a person placed wrong, when every cell is reported right
and the position is refused as inconsistent),
*refused* when the reader says it cannot read it surely (unsure cells, no board, unclear
edges, inconsistent digits), *wrong* when it returns a board it is sure of that is not the
truth: that must never happen. Cells right counts the cells read right over all cells of
the boards not refused for want of a board. Time is the wall time a board (making the
screenshot included) and the CPU time of the read alone (median and slowest), which a
busy machine disturbs less. *Counters read* counts the boards whose mine counter the
reader read (the total is then the counter plus the flags; a custom board has no other;
GNOME Mines and KMines show the flags and the total, ``n/m``, read only when ``n`` is
the flags read on the board);
a board read with a total (from its counter or its size) that is not the true one counts
wrong, whatever its cells. Prints a Markdown table.

``--desktop`` reads instead the whole-desktop captures of ``tests/data/vision/desktop``
(every one its ``manifest.json`` lists: a window manager, a panel, a wallpaper, other
windows, the game's window beside them or maximised, display scales 1 to 2), each as it
is, once, and prints per skin how many were read exactly, refused and read wrong, with
the median and the slowest CPU time of a read (``time.process_time``: the image's
decoding included).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from minesolver.vision import VisionError, read_screenshot, synth  # noqa: E402

DATA = ROOT / "tests" / "data" / "vision"
COUNTERS = json.loads((DATA / "counters.json").read_text())
"""Where the mine counter of a GNOME Mines or KMines sample stands, and what it shows."""
SCALES = (0.8, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)
REAL = {"classic-real": "classic"}
"""Entries that measure the real screenshots of a skin whose own entry is drawn."""
LABEL = {-1: "H", -2: "F", synth.MINE: "*", synth.EXPLODED: "!", synth.WRONG_FLAG: "x"}
LABEL.update({d: str(d) for d in range(9)})


def classic_case(rng: random.Random) -> tuple[Image.Image, list[str], int]:
    w, h, m = rng.choice([(9, 9, 10), (16, 16, 40), (30, 16, 99), (12, 10, 20), (20, 12, 40)])
    cells = synth.random_board(rng, w, h, m, lost=rng.random() < 0.15)
    win, _ = synth.classic_window(cells, w, h, synth.mines_left(cells, m), xp=rng.random() < 0.5)
    rows = ["".join(LABEL[v] for v in cells[i : i + w]) for i in range(0, w * h, w)]
    return win, rows, m


def sample_case(rng: random.Random, skin: str) -> tuple[Image.Image, list[str], str, int | None]:
    manifest = json.loads((DATA / "samples.json").read_text())
    names = sorted(
        n for n, i in manifest.items() if i["skin"] == skin and not i.get("templates", True)
    )
    return sample_window(rng.choice(names))


def sample_window(name: str) -> tuple[Image.Image, list[str], str, int | None]:
    """Sample ``name`` cut about its board (and its mine counter), with its rows of
    labels, its name and its total of mines (``None`` on a lost board)."""
    manifest = json.loads((DATA / "samples.json").read_text())
    lines = (DATA / f"{name}.txt").read_text().split()
    rows = [r for r in lines if not re.fullmatch(r"\d+x\d+x\d+", r)]
    head = [r for r in lines if re.fullmatch(r"\d+x\d+x\d+", r)]
    total = int(head[0].split("x")[2]) if head else None  # a lost board has no header
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    left, top, right, bottom = manifest[name]["box"]
    margin = 60
    crop = (
        max(0, int(left) - margin),
        max(0, int(top) - margin - 40),
        min(image.width, int(right) + margin),
        min(image.height, int(bottom) + margin),
    )
    counter = COUNTERS.get(name, {}).get("box")
    if counter is not None:  # the window's mine counter too, with room about it
        cx0, cy0, cx1, cy1 = counter
        crop = (
            max(0, min(crop[0], cx0 - 30)),
            max(0, min(crop[1], cy0 - 30)),
            min(image.width, max(crop[2], cx1 + 30)),
            min(image.height, max(crop[3], cy1 + 30)),
        )
    return image.crop(crop), rows, name, total


def place(rng: random.Random, win: Image.Image, scale: float) -> Image.Image:
    size = (max(1, round(win.width * scale)), max(1, round(win.height * scale)))
    win = win.resize(size, Image.Resampling.BILINEAR if scale % 1 else Image.Resampling.NEAREST)
    desk = synth.desktop(
        rng, (win.width + rng.randrange(100, 700), win.height + rng.randrange(80, 500))
    )
    desk.paste(
        win,
        (rng.randrange(desk.width - win.width + 1), rng.randrange(desk.height - win.height + 1)),
    )
    return desk


def outcome(
    image: Image.Image, rows: list[str], name: str | None, total: int | None
) -> tuple[str, int, int, bool]:
    """(right | refused | wrong, cells right, cells counted, mine counter read). A board
    read with a total (from its mine counter or its size) is right only when that total
    is the true one (``total``, when known)."""
    try:
        reading = read_screenshot(image)
    except VisionError:
        return "refused", 0, 0, False
    truth = "".join(rows)
    counted = reading.counter is not None
    if reading.mines is not None and total is not None and reading.mines != total:
        return ("refused" if reading.problem else "wrong"), 0, len(truth), counted
    if (reading.width, reading.height) != (len(rows[0]), len(rows)):
        return ("refused" if reading.problem else "wrong"), 0, len(truth), counted
    got = "".join(c.label for c in reading.cells)
    right = sum(a == b for a, b in zip(got, truth, strict=True))
    if reading.problem is not None:
        lost_right = reading.lost and got == truth and "the game is lost" in reading.problem
        flags_right = (
            name is not None
            and got == truth
            and "inconsistent" in reading.problem
            and not consistent(name)
        )
        kind = "right" if lost_right or flags_right else "refused"
        return kind, right, len(truth), counted
    return ("right" if got == truth else "wrong"), right, len(truth), counted


def consistent(name: str) -> bool:
    """Whether the true board of sample ``name`` (no mine shown) has a layout that
    explains it, its total included."""
    from minesolver.analysis import analyze
    from minesolver.position import InconsistentPosition, Position

    text = (DATA / f"{name}.txt").read_text()
    rows = [r for r in text.split() if not re.fullmatch(r"\d+x\d+x\d+", r)]
    if any(c in row for row in rows for c in "*!x"):  # a lost board (not the header's x)
        return True
    try:
        analyze(Position.from_text(text))
    except InconsistentPosition:
        return False
    return True


def desktops() -> None:
    """Print the table of ``--desktop``: each capture read once, judged against its label
    as :func:`bench_vision_samples.judge` judges a sample."""
    from bench_vision_samples import measure

    manifest = json.loads((DATA / "desktop" / "manifest.json").read_text())
    results = []
    for name in sorted(manifest):
        _, cpu, kind, _ = measure(f"desktop/{name}")
        print(f"{name:50s} {cpu:7.2f} s  {kind}", file=sys.stderr, flush=True)
        results.append((manifest[name]["skin"], cpu, kind))
    print("| skin | captures | read exactly | refused | wrong | CPU s median | CPU s slowest |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for skin in [*sorted({r[0] for r in results}), "all"]:
        mine = [r for r in results if skin in ("all", r[0])]
        cpu = [r[1] for r in mine]
        tally = {k: sum(r[2] == k for r in mine) for k in ("right", "refused", "wrong")}
        print(
            f"| {skin} | {len(mine)} | {tally['right']} | {tally['refused']} | {tally['wrong']} "
            f"| {statistics.median(cpu):.2f} | {max(cpu):.2f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--desktop", action="store_true")
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--skins",
        default="classic,classic-real,web,gnome,gnome-classic,gnome-default,kmines,kmines-classic,xdemineur,jsms",
    )
    args = parser.parse_args()
    if args.desktop:
        desktops()
        return
    manifest = json.loads((DATA / "samples.json").read_text())
    print(
        "| skin | source | boards | boards right | refused | wrong | cells right "
        "| counters read | s/board | CPU s/board (median, slowest) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for skin in args.skins.split(","):
        samples = REAL.get(skin, skin)  # the skin of samples.json this entry measures
        held = sum(
            1 for i in manifest.values() if i["skin"] == samples and not i.get("templates", True)
        )
        source = "drawn" if skin == "classic" else f"{held} held-out screenshots"
        rng = random.Random(args.seed)
        tally = {"right": 0, "refused": 0, "wrong": 0}
        cells_right = cells = from_counter = 0
        cpu: list[float] = []
        start = time.perf_counter()
        for _ in range(args.boards):
            name: str | None = None
            if skin == "classic":
                win, rows, total = classic_case(rng)
            else:
                win, rows, name, total = sample_case(rng, samples)
            image = place(rng, win, rng.choice(SCALES))
            began = time.process_time()
            kind, right, counted, by_counter = outcome(image, rows, name, total)
            from_counter += by_counter
            cpu.append(time.process_time() - began)
            tally[kind] += 1
            cells_right += right
            cells += counted
        per = (time.perf_counter() - start) / args.boards
        share = f"{100 * cells_right / cells:.2f}%" if cells else "-"
        print(
            f"| {skin} | {source} | {args.boards} | {tally['right']} | {tally['refused']} | "
            f"{tally['wrong']} | {share} ({cells_right}/{cells}) | {from_counter} | {per:.1f} | "
            f"{statistics.median(cpu):.2f} ({max(cpu):.2f}) |"
        )


if __name__ == "__main__":
    main()
