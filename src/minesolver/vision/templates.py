"""The skins the reader knows: for each, labelled cell images shipped with the package.

A skin's templates are cells cut from screenshots made here (real programs under a virtual
display, our page in Chromium, the classic skin drawn by :mod:`minesolver.vision.synth`),
each scaled to :data:`SIZE` x :data:`SIZE` pixels and stored side by side in
``templates/<skin>.png`` with their labels, one a line, in ``templates/<skin>.txt``.
``scripts/build_vision_templates.py`` rebuilds them; nothing is downloaded at run time.

Labels: ``H`` hidden, ``F`` flag, ``0``-``8`` digits, ``?`` a question mark (hidden for the
analysis), ``*`` a mine shown after a loss, ``!`` the mine that exploded, ``x`` a flag
crossed out after a loss.

Cost: loading a skin is O(its templates), once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from minesolver.vision._load import VisionError, numpy, pillow

__all__ = ["LABELS", "SIZE", "Skin", "cell_vectors", "load_skin", "skin_names"]

SIZE = 16
"""The side every cell is scaled to before it is compared."""
LABELS = ("H", "F", "0", "1", "2", "3", "4", "5", "6", "7", "8", "?", "*", "!", "x")
"""Every label a template may carry."""

Array = Any


@dataclass(frozen=True, slots=True)
class Skin:
    """A skin's name, a description for people, and its templates: ``labels[i]`` names
    row ``i`` of ``vectors`` (a float32 array of shape (n, SIZE * SIZE * 3) in 0..1)."""

    name: str
    labels: tuple[str, ...]
    vectors: Array
    norms: Array
    """The squared norm of each template (for the distances)."""


def skin_names() -> tuple[str, ...]:
    """The skins shipped, by name."""
    folder = resources.files("minesolver.vision") / "templates"
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt")))


@cache
def load_skin(name: str) -> Skin:
    """A shipped skin's templates (cached)."""
    image_module, _ = pillow()
    np = numpy()
    folder = resources.files("minesolver.vision") / "templates"
    try:
        labels = tuple((folder / f"{name}.txt").read_text().split())
        with (folder / f"{name}.png").open("rb") as stream:
            strip = np.asarray(image_module.open(stream).convert("RGB"), dtype=np.float32)
    except FileNotFoundError as exc:
        raise VisionError(
            f"unknown skin {name!r}; the skins are {', '.join(skin_names())}"
        ) from exc
    n = len(labels)
    if strip.shape != (SIZE, SIZE * n, 3):
        raise VisionError(f"skin {name!r}: templates image does not hold {n} cells")
    vectors = strip.reshape(SIZE, n, SIZE, 3).transpose(1, 0, 2, 3).reshape(n, -1) / 255.0
    vectors = vectors.astype(np.float32)
    return Skin(name, labels, vectors, (vectors**2).sum(axis=1))


def cell_vectors(image: Any, boxes: list[tuple[float, float, float, float]]) -> Array:
    """Each box of a Pillow image scaled to :data:`SIZE` squared, as rows of a float32
    array in 0..1 (area averaging, fractional boxes allowed; the part of a box outside
    the image is cut off)."""
    image_module, _ = pillow()
    np = numpy()
    out = np.zeros((len(boxes), SIZE * SIZE * 3), dtype=np.float32)
    w, h = image.size
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        box = (max(0.0, x0), max(0.0, y0), min(float(w), x1), min(float(h), y1))
        if box[2] - box[0] < 1 or box[3] - box[1] < 1:
            continue  # a cell outside the image reads as black
        cell = image.resize((SIZE, SIZE), image_module.Resampling.BOX, box=box)
        out[i] = np.asarray(cell, dtype=np.float32).reshape(-1) / 255.0
    return out


def save_skin(folder: Any, name: str, labels: list[str], vectors: Array) -> None:
    """Write a skin's templates (for the build script)."""
    image_module, _ = pillow()
    np = numpy()
    n = len(labels)
    strip = vectors.reshape(n, SIZE, SIZE, 3).transpose(1, 0, 2, 3).reshape(SIZE, n * SIZE, 3)
    image_module.fromarray(np.clip(strip * 255 + 0.5, 0, 255).astype(np.uint8)).save(
        f"{folder}/{name}.png", optimize=True
    )
    with open(f"{folder}/{name}.txt", "w") as stream:
        stream.write("\n".join(labels) + "\n")
