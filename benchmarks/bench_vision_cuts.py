"""Screenshots cut through the board's edge: the reader must never read them a row short.

    .venv/bin/python benchmarks/bench_vision_cuts.py [--skins S,...] [--shown 0.2,0.4,...]

Every labelled screenshot of ``tests/data/vision/`` that shows no lost game is cut at
each of its four sides through its edge row or column, with a share of that row left in
the image (a fifth to four fifths), and read. A cut board cannot be read whole: the
reader must refuse it (no board, or a problem such as "cut off at the top edge"). The
outcome that must never happen is a board read a row or a column short, or otherwise not
the board's size, with no problem: a confident wrong board (*silent*). A read of the
whole board's size with every cell right is counted too (*whole*: the part left was
enough to read the row). Each silent read is printed. Prints a Markdown table; the CPU
time is the read's alone (median and slowest). About 1 to 3 seconds a read, four sides
times four shares a screenshot: run one skin at a time while developing.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from minesolver.vision import VisionError, read_screenshot  # noqa: E402

DATA = ROOT / "tests" / "data" / "vision"
SKINS = "classic,web,gnome,gnome-classic,gnome-default,kmines,kmines-classic,xdemineur,jsms"
SIDES = ("top", "bottom", "left", "right")


def cut(name: str, side: str, shown: float) -> tuple[Image.Image, list[str]]:
    """Sample ``name`` cut through its edge row or column on ``side``, ``shown`` of it
    left in the image; with the board's true rows of labels."""
    manifest = json.loads((DATA / "samples.json").read_text())
    rows = [
        r for r in (DATA / f"{name}.txt").read_text().split() if not re.fullmatch(r"\d+x\d+x\d+", r)
    ]
    h, w = len(rows), len(rows[0])
    left, top, right, bottom = manifest[name]["box"]
    cw, ch = (right - left) / w, (bottom - top) / h
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    box = {
        "bottom": (0, 0, image.width, int(bottom - ch * (1 - shown))),
        "right": (0, 0, int(right - cw * (1 - shown)), image.height),
        "top": (0, int(top + ch * (1 - shown)), image.width, image.height),
        "left": (int(left + cw * (1 - shown)), 0, image.width, image.height),
    }[side]
    return image.crop(box), rows


def outcome(image: Image.Image, rows: list[str]) -> str:
    """``refused``, ``whole`` (read at the board's size, every cell right, no problem),
    ``silent`` (another size, or a cell wrong, with no problem)."""
    try:
        reading = read_screenshot(image)
    except VisionError:
        return "refused"
    if reading.problem is not None:
        return "refused"
    same = (reading.width, reading.height) == (len(rows[0]), len(rows))
    if same and "".join(c.label for c in reading.cells) == "".join(rows):
        return "whole"
    return "silent"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skins", default=SKINS)
    parser.add_argument("--shown", default="0.2,0.4,0.6,0.8")
    args = parser.parse_args()
    manifest = json.loads((DATA / "samples.json").read_text())
    shares = [float(s) for s in args.shown.split(",")]
    print("| skin | screenshots | cuts | refused | read whole | silent (must be 0) | CPU s/read |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for skin in args.skins.split(","):
        names = sorted(n for n, i in manifest.items() if i["skin"] == skin and "lost" not in n)
        tally = {"refused": 0, "whole": 0, "silent": 0}
        cpu: list[float] = []
        for name in names:
            for side in SIDES:
                for shown in shares:
                    image, rows = cut(name, side, shown)
                    began = time.process_time()
                    kind = outcome(image, rows)
                    cpu.append(time.process_time() - began)
                    tally[kind] += 1
                    if kind == "silent":
                        print(f"silent: {name} cut at the {side}, {shown} shown", file=sys.stderr)
        print(
            f"| {skin} | {len(names)} | {len(cpu)} | {tally['refused']} | {tally['whole']} | "
            f"{tally['silent']} | {statistics.median(cpu):.2f} ({max(cpu):.2f}) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
