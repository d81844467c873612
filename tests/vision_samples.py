"""The labelled screenshots of tests/data/vision: their manifest, their labels, and each
one read once per test session (a read costs a second or more, and several tests look at
the same reading; the reader is deterministic, so the reading is the same each time)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from minesolver.vision import BoardReading, VisionError, read_screenshot

DATA = Path(__file__).resolve().parent / "data" / "vision"
SAMPLES = json.loads((DATA / "samples.json").read_text())


def truth(name: str) -> list[str]:
    """The rows of sample ``name``'s label file (its ``WxHxM`` header left out)."""
    lines = (DATA / f"{name}.txt").read_text().split()
    return [r for r in lines if not re.fullmatch(r"\d+x\d+x\d+", r)]


@cache
def _read(name: str) -> BoardReading | VisionError:
    try:
        return read_screenshot(DATA / f"{name}.png")
    except VisionError as exc:
        return exc


def attempt_sample(name: str) -> BoardReading | VisionError:
    """``read_screenshot`` of sample ``name`` as it is, or the error it raised."""
    return _read(name)


def read_sample(name: str) -> BoardReading:
    """``read_screenshot`` of sample ``name`` as it is (the error it raises, raised)."""
    reading = _read(name)
    if isinstance(reading, VisionError):
        raise VisionError(str(reading))
    return reading
