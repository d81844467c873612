"""Rebuild the reader's templates (src/minesolver/vision/templates/) from images made here.

- ``classic``: the cells of the labelled real screenshots of the skin in
  ``tests/data/vision/`` (Metasweeper under Xvfb) that are not held out, at their own
  scale, and those of cells of 12 to 15 pixels at the display scales of their
  ``"scales"`` too (Metasweeper draws each small size with glyphs of its own, and a
  small tile scaled up blurs like no larger one), first; then boards drawn by
  :mod:`minesolver.vision.synth` at several display scales, which cover the scaled
  looks. Real tiles scaled down here (bilinear, blurred) came close enough to the plain
  frame around a board at display scale 0.8 that a column of frame read as hidden
  cells (the reader now drops such a band of the frame, but none is scaled down);
- every other skin: the labelled screenshots in ``tests/data/vision/`` (made by
  ``scripts/make_vision_samples.py``), cut along the board box stored in
  ``tests/data/vision/samples.json``.

Each label keeps the few variants that differ from each other (scaling blurs a cell
differently at each scale). Run: ``python scripts/build_vision_templates.py``.

The counters of GNOME Mines and KMines (``templates/counter/gnome.*`` and
``kmines.*``): their glyphs (digits and the slash of ``n/m``) cut from real captures
of each program's counter (``tests/data/vision/counter/``, each named with the text it
shows in ``captures.json``), at display scales 0.75 to 3 (:func:`counter_texts`).
``python scripts/build_vision_templates.py counter`` rebuilds those alone.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from minesolver.vision import synth  # noqa: E402
from minesolver.vision.templates import cell_vectors, save_skin  # noqa: E402

OUT = ROOT / "src" / "minesolver" / "vision" / "templates"
SAMPLES = ROOT / "tests" / "data" / "vision"
SCALES = (1.0, 2.0, 3.0, 4.0, 1.5, 2.5, 1.25, 1.75, 0.75, 0.8, 1.1)  # crisp ones first
VALUE_LABEL = {-1: "H", -2: "F", synth.MINE: "*", synth.EXPLODED: "!", synth.WRONG_FLAG: "x"}
VALUE_LABEL.update({d: str(d) for d in range(9)})
DISTINCT = 0.04  # a variant closer than this to one kept already adds nothing
SAMPLE_DISTINCT = 0.035  # the same for the cells of real screenshots (see from_samples)
SKIN_DISTINCT = {"xdemineur": 0.05}
"""Skins whose cells are kept farther apart than :data:`SAMPLE_DISTINCT`. xdemineur draws
a one-pixel black line between its cells: scaled by a fraction, that line falls inside a
cell or outside it by the cell's place, so each label has a hundred variants a scale
(pixel-identical at scale 1); at 0.035 the first scales use up a label's templates and the
later ones get none, at 0.05 they are spread over every scale."""
PER_LABEL = {"gnome-classic": 64, "gnome-default": 64}
"""Variants kept per label for a skin (32 when not named): GNOME Mines' other themes draw
a label two ways (in play and after a loss) at three cell sizes, each a pixel off here and
there, more looks than 32 variants hold."""

SCALES_FIRST = frozenset({"gnome-default"})
"""Skins whose labels take their cells at every scale before the shifted ones (flags and
question marks excepted: the reader tells those apart on the pixels where their
templates differ on average, and keeps their order). GNOME Mines' default theme draws
dark digits that scaling changes much: its 3s and 4s, shown rarely, reached their cap
before display scale 0.75 and had no template at 0.8 or 1.25 at all; the reader reads a
cell not read surely again a pixel either way, so a shifted variant is the lesser loss
there. Its classic theme measured better in the usual order."""


def boxes(
    box: tuple[float, float, float, float], w: int, h: int
) -> list[tuple[float, float, float, float]]:
    left, top, right, bottom = box
    cw, ch = (right - left) / w, (bottom - top) / h
    return [
        (left + i * cw, top + j * ch, left + (i + 1) * cw, top + (j + 1) * ch)
        for j in range(h)
        for i in range(w)
    ]


def keep_distinct(
    labels: list[str], vectors: np.ndarray, per_label: int = 24, distinct: float = DISTINCT
) -> tuple[list[str], np.ndarray]:
    """For each label, the variants in the order given (the crisp ones first) that are
    farther than :data:`DISTINCT` from every variant kept before them."""
    out_l: list[str] = []
    out_v: list[np.ndarray] = []
    for lab in dict.fromkeys(labels):
        kept: list[np.ndarray] = []
        for i in (i for i, x in enumerate(labels) if x == lab):
            v = vectors[i]
            if all(np.sqrt(np.mean((v - k) ** 2)) > distinct for k in kept):
                kept.append(v)
                if len(kept) >= per_label:
                    break
        out_l += [lab] * len(kept)
        out_v += kept
    return out_l, np.asarray(out_v, dtype=np.float32)


def classic() -> tuple[list[str], np.ndarray]:
    rng = random.Random(7)
    values = [-1, -2, *range(9), synth.MINE, synth.EXPLODED, synth.WRONG_FLAG]
    cells = values * 3
    rng.shuffle(cells)
    w, h = 14, 3
    labels: list[str] = []
    vecs: list[np.ndarray] = []
    win, (bx, by) = synth.classic_window(cells, w, h, 10)
    if True:
        for s in SCALES:
            size = (round(win.width * s), round(win.height * s))
            methods = [Image.Resampling.NEAREST] if s % 1 == 0 else []
            for method in [*methods, Image.Resampling.BILINEAR, Image.Resampling.BICUBIC]:
                img = win.resize(size, method)
                box = (bx * s, by * s, (bx + w * synth.CELL) * s, (by + h * synth.CELL) * s)
                vecs.extend(cell_vectors(img, boxes(box, w, h)))
                labels.extend(VALUE_LABEL[v] for v in cells)
    return keep_distinct(labels, np.asarray(vecs))


def from_samples(skin: str) -> tuple[list[str], np.ndarray]:
    """The labelled cells of a skin's samples (those not held out), at each of their
    scales and shifts, the cells as they are (scale 1, no shift) first, then fewer and
    fewer alike; kept when :data:`SAMPLE_DISTINCT` apart (or the skin's
    :data:`SKIN_DISTINCT`), so that every cell of a template sample as it is lies closer
    than that to a template of its label: nearer than the reader's least limit,
    ``reader.CLOSE`` (xdemineur's cells as they are equal their templates)."""
    manifest = json.loads((SAMPLES / "samples.json").read_text())
    found: list[tuple[int, int, str, np.ndarray]] = []
    for name, info in sorted(manifest.items()):
        if info["skin"] != skin or not info.get("templates", True):
            continue
        lines = (SAMPLES / f"{name}.txt").read_text().split()
        rows = [r for r in lines if not re.fullmatch(r"\d+x\d+x\d+", r)]
        h, w = len(rows), len(rows[0])
        img = Image.open(SAMPLES / f"{name}.png").convert("RGB")
        for si, s in enumerate(info.get("scales", [1.0])):
            scaled = (
                img
                if s == 1.0
                else img.resize(
                    (round(img.width * s), round(img.height * s)), Image.Resampling.BILINEAR
                )
            )
            left, top, right, bottom = (c * s for c in info["box"])
            # a skin that places its tiles a pixel off the period here and there (GNOME
            # Mines) gets its cells shifted by those pixels too
            shifts = info.get("shifts", [0])
            moves = [(dx, dy) for dx in shifts for dy in shifts]
            for di, (dx, dy) in enumerate(moves):
                box = (left + dx * s, top + dy * s, right + dx * s, bottom + dy * s)
                for label, vec in zip(
                    "".join(rows), cell_vectors(scaled, boxes(box, w, h)), strict=True
                ):
                    if label in info.get("labels", label):
                        found.append((si, di, label, vec))
    # a sample whose entry names "labels" gives the cells of those labels only (one that
    # adds a label to a skin without changing the others' templates)
    if skin in SCALES_FIRST:
        found.sort(key=lambda f: (f[0], f[1]) if f[2] in "F?" else (f[1], f[0]))
    else:
        found.sort(key=lambda f: (f[0], f[1]))  # stable: samples in name order within
    return keep_distinct(
        [f[2] for f in found],
        np.asarray([f[3] for f in found]),
        per_label=PER_LABEL.get(skin, 32),
        distinct=SKIN_DISTINCT.get(skin, SAMPLE_DISTINCT),
    )


def _structure(vectors: np.ndarray) -> np.ndarray:
    """How far each cell is from a flat patch of its own mean colour (as the reader
    measures it)."""
    v = vectors.reshape(len(vectors), -1, 3)
    return np.sqrt(((v - v.mean(axis=1, keepdims=True)) ** 2).mean(axis=(1, 2)))


def classic_with_samples() -> tuple[list[str], np.ndarray]:
    """The classic skin: the real cells of its samples (:func:`from_samples`, at the
    samples' own scale), then every drawn one (:func:`classic`): the drawn tiles are
    approximations that real screenshots may not match (Arbiter's and Metasweeper's
    digits are drawn otherwise), and they cover what the samples lack (Windows XP's
    colours, the display scales, a label never shown)."""
    real_l, real_v = from_samples("classic")
    drawn_l, drawn_v = classic()
    # a real cell flatter than every drawn one (an empty cell scaled down until its edge
    # fades) would lower the reader's limit of a flat patch (reader.FLAT), and the flat
    # grey panel around a board would read as cells
    flattest = float(_structure(drawn_v).min())
    keep = [i for i, v in enumerate(real_v) if float(_structure(v[None])[0]) >= flattest]
    real_l, real_v = [real_l[i] for i in keep], real_v[keep]
    if not real_l:
        return drawn_l, drawn_v
    vectors = np.concatenate([real_v, np.asarray(drawn_v, dtype=np.float32)])
    return [*real_l, *drawn_l], vectors


COUNTER_SCALES = (1.0, 2.0, 3.0, 1.5, 2.5, 1.25, 1.75, 1.1, 1.4, 2.25, 2.75, 0.9, 0.8, 0.75)
"""The display scales the counter captures are scaled to (crisp ones first)."""
COUNTER_DISTINCT = 0.03
"""A counter glyph closer than this to one kept already adds nothing."""


def counter_texts(family: str) -> tuple[list[str], list[float], np.ndarray]:
    """The glyphs of ``family``'s counter captures, scaled as a desktop scales a window
    (nearest neighbour at whole scales, else bilinear) and cut as the reader cuts them
    (:func:`minesolver.vision.counter.text_words`): the one word of each capture with as
    many glyphs as the text it shows, and its tallest glyph where the slash is, gives a
    glyph per character. Each character keeps its variants :data:`COUNTER_DISTINCT`
    apart (at most 96). Returns the characters, each glyph's width-to-height ratio and
    the glyphs."""
    from minesolver.vision.counter import text_words

    folder = SAMPLES / "counter"
    texts = json.loads((folder / "captures.json").read_text())
    found: list[tuple[int, str, float, np.ndarray]] = []
    skipped: dict[float, int] = {}
    for si, s in enumerate(COUNTER_SCALES):
        for name, text in sorted(texts.items()):
            if not name.startswith(f"{family}-"):
                continue
            img = Image.open(folder / f"{name}.png").convert("RGB")
            if s != 1.0:
                method = Image.Resampling.NEAREST if s % 1 == 0 else Image.Resampling.BILINEAR
                img = img.resize((round(img.width * s), round(img.height * s)), method)
            words = [
                w
                for w in text_words(np.asarray(img))
                if len(w) == len(text)
                and max(range(len(w)), key=lambda i: w[i].height) == text.index("/")
            ]
            if len(words) != 1:  # glyphs touching, or too small to read: none cut
                skipped[s] = skipped.get(s, 0) + 1
                continue
            for ch, glyph in zip(text, words[0], strict=True):
                found.append((si, ch, glyph.aspect, glyph.vector))
    if skipped:
        print(f"counter {family}: captures with no word cut, by scale: {skipped}")
    labels: list[str] = []
    aspects: list[float] = []
    vectors: list[np.ndarray] = []
    for ch in sorted({f[1] for f in found}):
        kept: list[np.ndarray] = []
        for _, c, aspect, v in found:
            if c != ch or len(kept) >= 96:
                continue
            if all(np.sqrt(np.mean((v - k) ** 2)) > COUNTER_DISTINCT for k in kept):
                kept.append(v)
                labels.append(ch)
                aspects.append(aspect)
                vectors.append(v)
    return labels, aspects, np.asarray(vectors, dtype=np.float32)


def save_counter(family: str) -> None:
    """Write ``family``'s counter glyphs (:func:`counter_texts`): a strip of glyphs
    side by side (``templates/counter/<family>.png``) and their characters and ratios,
    one a line (``<family>.txt``)."""
    from minesolver.vision.counter import TEXT_GLYPH

    labels, aspects, vectors = counter_texts(family)
    gw, gh = TEXT_GLYPH
    strip = vectors.reshape(len(labels), gh, gw).transpose(1, 0, 2).reshape(gh, -1)
    out = OUT / "counter"
    Image.fromarray(np.round(strip * 255).astype(np.uint8), "L").save(out / f"{family}.png")
    (out / f"{family}.txt").write_text(
        "".join(f"{lab} {a:.3f}\n" for lab, a in zip(labels, aspects, strict=True))
    )
    counts = {lab: labels.count(lab) for lab in dict.fromkeys(labels)}
    print(f"counter {family}: {len(labels)} glyphs {counts}")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for family in ("gnome", "kmines"):
        save_counter(family)
    if sys.argv[1:] == ["counter"]:
        return
    skins = {"classic": classic_with_samples()}
    manifest_path = SAMPLES / "samples.json"
    if manifest_path.exists():
        for skin in sorted({i["skin"] for i in json.loads(manifest_path.read_text()).values()}):
            if skin != "classic":
                labels, vectors = from_samples(skin)
                if labels:  # a skin whose samples are all held out is not shipped yet
                    skins[skin] = (labels, vectors)
    for name, (labels, vectors) in skins.items():
        save_skin(OUT, name, labels, vectors)
        counts = {lab: labels.count(lab) for lab in dict.fromkeys(labels)}
        print(f"{name}: {len(labels)} templates {counts}")


if __name__ == "__main__":
    main()
