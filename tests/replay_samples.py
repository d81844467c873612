"""The sample replays in tests/data/replays and ms-toollib's figures from their README."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SAMPLES = Path(__file__).parent / "data" / "replays"
SHARED = Path(__file__).parents[1] / ".." / "shared" / "replays"


@dataclass(frozen=True)
class Figures:
    """One row of the README's table (ms-toollib 1.5.20's reading of the file)."""

    name: str
    width: int
    height: int
    mines: int
    bbbv: int
    left: int
    right: int
    double: int
    cl: int
    ce: int
    time: float
    pluck: float


def sample_files() -> list[Path]:
    return sorted(p for p in SAMPLES.iterdir() if p.suffix in (".avf", ".rmv", ".evf", ".mvf"))


def figures() -> list[Figures]:
    """The rows with figures (ms-toollib aborts on the others)."""
    rows = []
    for line in (SAMPLES / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 11 or not cells[0].endswith(("avf", "rmv", "evf", "mvf")):
            continue
        board, mines = cells[2].split("/")
        width, height = board.split("x")
        nums = [int(c) for c in cells[3:9]]
        rows.append(
            Figures(
                cells[0],
                int(width),
                int(height),
                int(mines),
                *nums,
                float(cells[9]),
                float(cells[10]),
            )
        )
    return rows
