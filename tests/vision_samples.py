"""The labelled screenshots of tests/data/vision: their manifest, their labels, and each
one read once per test run (a read costs a second or more, and several tests in several
files look at the same reading; the reader is deterministic, so the reading is the same
each time). Within a run the readings are shared by the processes of pytest-xdist
through files in the run's own temporary folder (:data:`SHARED`, set by
``tests/vision/conftest.py``), each made under a lock by the first process that needs
it: the pattern pytest-xdist documents. Never across runs: each run reads anew, so a
change to the reader is always tested."""

from __future__ import annotations

import importlib.util
import json
import pickle
import random
import re
from functools import cache
from pathlib import Path
from types import ModuleType

from filelock import FileLock
from PIL import Image

from minesolver.vision import BoardReading, VisionError, read_screenshot, synth

DATA = Path(__file__).resolve().parent / "data" / "vision"
SAMPLES = json.loads((DATA / "samples.json").read_text())


@cache
def benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as a module (its draws, cuts and placing), loaded once."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_for_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def truth(name: str) -> list[str]:
    """The rows of sample ``name``'s label file (its ``WxHxM`` header left out)."""
    lines = (DATA / f"{name}.txt").read_text().split()
    return [r for r in lines if not re.fullmatch(r"\d+x\d+x\d+", r)]


SHARED: Path | None = None
"""The folder where this run's readings are shared between its processes (``None``:
each process reads for itself)."""


@cache
def _read(name: str) -> BoardReading | VisionError:
    if SHARED is None:
        return _fresh(name)
    path = SHARED / f"{name.replace('/', '--')}.pickle"
    with FileLock(f"{path}.lock"):
        if path.exists():
            shared: BoardReading | VisionError = pickle.loads(path.read_bytes())
            return shared
        reading = _fresh(name)
        path.write_bytes(pickle.dumps(reading))
        return reading


def _fresh(name: str) -> BoardReading | VisionError:
    try:
        return read_screenshot(DATA / f"{name}.png")
    except VisionError as exc:
        return exc


def attempt_sample(name: str) -> BoardReading | VisionError:
    """``read_screenshot`` of sample ``name`` as it is, or the error it raised (``name``
    may be any image's path under tests/data/vision, without its ``.png``)."""
    return _read(name)


def read_sample(name: str) -> BoardReading:
    """``read_screenshot`` of sample ``name`` as it is (the error it raises, raised)."""
    reading = _read(name)
    if isinstance(reading, VisionError):
        raise VisionError(str(reading))
    return reading


def window(name: str) -> Image.Image:
    """Sample ``name`` cut to its board with a margin (60 pixels around it, 100 above for
    the window's counters and title), as the accuracy benchmark cuts it."""
    left, top, right, bottom = SAMPLES[name]["box"]
    image = Image.open(DATA / f"{name}.png").convert("RGB")
    return image.crop(
        (
            max(0, int(left) - 60),
            max(0, int(top) - 100),
            min(image.width, int(right) + 60),
            min(image.height, int(bottom) + 60),
        )
    )


def on_a_desktop(
    image: Image.Image,
    scale: float,
    seed: int,
    room: tuple[int, int],
    *,
    nearest_whole: bool = False,
) -> Image.Image:
    """``image`` scaled by ``scale`` (bilinear; nearest-neighbour at a whole scale when
    ``nearest_whole``) and pasted at a random place, within ``room`` more pixels across
    and down, on a cluttered desktop."""
    size = (round(image.width * scale), round(image.height * scale))
    whole = nearest_whole and scale % 1 == 0
    image = image.resize(size, Image.Resampling.NEAREST if whole else Image.Resampling.BILINEAR)
    rng = random.Random(seed)
    desk = synth.desktop(rng, (image.width + room[0], image.height + room[1]))
    desk.paste(image, (rng.randrange(room[0]), rng.randrange(room[1])))
    return desk
