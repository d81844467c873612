"""CPU time and outcome of reading each labelled screenshot of ``tests/data/vision`` as it is.

    .venv/bin/python benchmarks/bench_vision_samples.py [--jobs N] [--save FILE]
        [--compare FILE] [--only NAME,...] [--table FILE] [--desktop]

Each sample (the whole screenshot, desktop and all) is read once with
:func:`~minesolver.vision.read_screenshot`, its CPU time measured with
``time.process_time`` (the read alone: the image's decoding included, the process's
start and the imports not: numpy and Pillow, which the reader imports when it first needs
them, are imported before any read is timed; the skins' templates, loaded once a
process, are counted in the read that loads them), and judged against its label file as
``benchmarks/bench_vision.py`` judges a board: *right*, *refused* or *wrong* (a board
read surely that is not the truth; that must never happen). ``--jobs`` reads in that
many processes (each CPU time is still its own process's). Prints a line per sample and a
Markdown summary per skin (median and slowest CPU seconds; right, refused and wrong),
written to ``--table`` too when given.

``--save`` writes each sample's reading (every cell's label, the size, the total and where
it came from, the problem or the error) to a JSON file; ``--compare`` checks the readings
against such a file and lists every sample read otherwise: a change to the reader that
should not change what it reads is proved by an empty list (a refusal turned into a right
reading is listed too, as an improvement).

``--desktop`` reads the whole-desktop captures of ``tests/data/vision/desktop`` (those its
``manifest.json`` lists, named ``desktop/<name>``) instead of the labelled samples.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from minesolver.vision import BoardReading, VisionError, read_screenshot  # noqa: E402
from minesolver.vision._load import numpy, pillow  # noqa: E402

# the modules a read imports lazily, imported before any read is timed (the imports are
# not the read's CPU; the skins' templates, loaded once a process, still are)
numpy()
pillow()

DATA = ROOT / "tests" / "data" / "vision"


def label(name: str) -> tuple[list[str], int | None]:
    """The rows of sample ``name``'s label file and its total (``None`` on a lost board,
    whose label has no header)."""
    lines = (DATA / f"{name}.txt").read_text().split()
    rows = [r for r in lines if not re.fullmatch(r"\d+x\d+x\d+", r)]
    head = [r for r in lines if re.fullmatch(r"\d+x\d+x\d+", r)]
    return rows, (int(head[0].split("x")[2]) if head else None)


def signature(reading: BoardReading | VisionError) -> dict[str, Any]:
    """What a reading says, for comparing two versions of the reader."""
    if isinstance(reading, VisionError):
        return {"error": str(reading)}
    return {
        "skin": reading.skin,
        "size": [reading.width, reading.height],
        "cells": "".join(c.label for c in reading.cells),
        "unsure": len(reading.unsure),
        "mines": reading.mines,
        "mines_from": reading.mines_from,
        "counter": None if reading.counter is None else reading.counter.value,
        "problem": reading.problem,
    }


@functools.cache
def _desktop_manifest() -> dict[str, Any]:
    """The desktop captures' manifest, read once."""
    manifest: dict[str, Any] = json.loads((DATA / "desktop" / "manifest.json").read_text())
    return manifest


def must_refuse(name: str) -> bool:
    """Whether sample ``name`` shows no whole board, so that the right answer is a
    refusal: a desktop capture whose manifest entry says ``"expect": "refused"`` (the
    board's last row under the panel); its label file holds the board as it was drawn."""
    if not name.startswith("desktop/"):
        return False
    return _desktop_manifest()[name.removeprefix("desktop/")].get("expect") == "refused"


def judge(reading: BoardReading | VisionError, name: str) -> str:
    """right, refused or wrong, as ``bench_vision.outcome`` judges a board; for a sample
    that shows no whole board (:func:`must_refuse`) a refusal is right and a board read
    is wrong."""
    from bench_vision import consistent

    rows, total = label(name)
    if must_refuse(name):
        refused = isinstance(reading, VisionError) or reading.problem is not None
        return "right" if refused else "wrong"
    if isinstance(reading, VisionError):
        return "refused"
    truth = "".join(rows)
    if reading.mines is not None and total is not None and reading.mines != total:
        return "refused" if reading.problem else "wrong"
    if (reading.width, reading.height) != (len(rows[0]), len(rows)):
        return "refused" if reading.problem else "wrong"
    got = "".join(c.label for c in reading.cells)
    if reading.problem is not None:
        lost_right = reading.lost and got == truth and "the game is lost" in reading.problem
        flags_right = got == truth and "inconsistent" in reading.problem and not consistent(name)
        return "right" if lost_right or flags_right else "refused"
    return "right" if got == truth else "wrong"


def measure(name: str) -> tuple[str, float, str, dict[str, Any]]:
    """(name, CPU seconds, outcome, signature) of reading sample ``name``."""
    began = time.process_time()
    try:
        reading: BoardReading | VisionError = read_screenshot(DATA / f"{name}.png")
    except VisionError as exc:
        reading = exc
    cpu = time.process_time() - began
    return name, cpu, judge(reading, name), signature(reading)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--only", default="")
    parser.add_argument("--table", type=Path)
    parser.add_argument("--desktop", action="store_true")
    args = parser.parse_args()
    if args.desktop:
        desk = json.loads((DATA / "desktop" / "manifest.json").read_text())
        manifest = {f"desktop/{name}": entry for name, entry in desk.items()}
    else:
        manifest = json.loads((DATA / "samples.json").read_text())
    names = sorted(manifest)
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    results: list[tuple[str, float, str, dict[str, Any]]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for result in pool.map(measure, names):
            print(f"{result[0]:55s} {result[1]:7.2f} s  {result[2]}", flush=True)
            results.append(result)
    table = [
        "| skin | samples | right | refused | wrong | CPU s median | CPU s slowest |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    skins = sorted({manifest[n]["skin"] for n in names})
    for skin in [*skins, "all"]:
        mine = [r for r in results if skin == "all" or manifest[r[0]]["skin"] == skin]
        cpu = [r[1] for r in mine]
        tally = {k: sum(r[2] == k for r in mine) for k in ("right", "refused", "wrong")}
        table.append(
            f"| {skin} | {len(mine)} | {tally['right']} | {tally['refused']} | "
            f"{tally['wrong']} | {statistics.median(cpu):.2f} | {max(cpu):.2f} |"
        )
    print("\n" + "\n".join(table))
    if args.table:
        args.table.write_text("\n".join(table) + "\n")
    if args.save:
        args.save.write_text(json.dumps({r[0]: r[3] for r in results}, indent=1, sort_keys=True))
    if args.compare:
        before = json.loads(args.compare.read_text())
        changed = [r for r in results if r[0] in before and before[r[0]] != r[3]]
        print(f"\n{len(changed)} of {len(results)} samples read otherwise than in {args.compare}")
        for name, _, kind, sig in changed:
            print(f"  {name} ({kind}): {before[name]} -> {sig}")


if __name__ == "__main__":
    main()
