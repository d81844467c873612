"""KMines' tiles as it draws them at display scales 1.25 and 1.5, for the reader's
templates (tests/data/vision/, entries in its samples.json that make templates).

    .venv/bin/python scripts/make_kmines_templates.py [NAME ...]

KMines draws its tiles from vector images at the size the display scale asks for
(``QT_SCALE_FACTOR``): at 1.5 a tile of 49.5 pixels, drawn 49 and 50 pixels wide in
turn, whose bevel is not the scale-1 tile's scaled by 1.5, so the templates scaled from
scale-1 captures leave its hidden cells as near an empty cell as the reader trusts. These
samples are whole KMines windows at those scales, on a virtual screen as
``make_desktop_samples.py`` makes one (another seed and another board than any desktop
capture, which stay held out): a fresh board with flags right-clicked on cells chosen
beforehand, the label those flags, checked in the capture (each flagged tile shows the
flag's red, no other does: ``desktop_native._kmines_check``). The window is cut from the
screen, and the board's box found as the desktop captures find it
(``desktop_native.kmines_board``). They need Debian's ``kmines``, ``xvfb``, ``openbox``,
``tint2``, ``hsetroot``, ``imagemagick``, ``wmctrl``, ``xdotool`` and ``xterm``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import desktop_native as native  # noqa: E402
import make_desktop_samples as mds  # noqa: E402

VISION = ROOT / "tests" / "data" / "vision"

SAMPLES: dict[str, dict[str, Any]] = {
    "kmines-30x16-15-flags": dict(
        skin="kmines", screen=(1920, 1080), scale=1.5, window="maximised",
        board=(30, 16, 99), flags=24, seed=142, theme="default",
    ),
    "kmines-classic-9x9-125-flags": dict(
        skin="kmines-classic", screen=(1280, 800), scale=1.25, window="beside an xterm",
        board=(9, 9, 10), flags=4, seed=145, theme="classic", size=(600, 520),
    ),
    "kmines-classic-16x16-15-flags": dict(
        skin="kmines-classic", screen=(1600, 900), scale=1.5, window="beside an xterm",
        board=(16, 16, 40), flags=10, seed=146, theme="classic", size=(900, 820),
    ),
}  # fmt: skip
"""Each sample: skin, screen, display scale, window, board (w, h, mines), flags placed,
seed (the flags' cells and the wallpaper), KMines' theme and the window's size."""


def sample(name: str, spec: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    """Capture sample ``name``; write its image (the window) and label; its entry."""
    from PIL import Image

    w, h, m = spec["board"]
    png = VISION / f"{name}.png"
    with native._kmines(spec, env) as (kenv, box, rest):
        rows, board = native.kmines_flagged(png, spec, kenv, box, rest)
    x0, y0, ww, wh = box
    Image.open(png).convert("RGB").crop((x0, y0, x0 + ww, y0 + wh)).save(png)
    (VISION / f"{name}.txt").write_text("\n".join([f"{w}x{h}x{m}", *rows]) + "\n")
    left, top, right, bottom = board
    return {
        "skin": spec["skin"],
        "box": [round(v, 2) for v in (left - x0, top - y0, right - x0, bottom - y0)],
        "templates": True,
        "source": f"KMines at display scale {spec['scale']} under Xvfb "
        "(scripts/make_kmines_templates.py): a fresh board, flags placed on cells chosen "
        "beforehand, checked in the capture",
    }


def main(names: list[str]) -> None:
    path = VISION / "samples.json"
    data = json.loads(path.read_text())
    for name, spec in SAMPLES.items():
        if names and name not in names:
            continue
        with mds.desktop(spec["screen"], spec["seed"], "gradient") as env:
            data[name] = sample(name, spec, env)
        print(name, data[name], flush=True)
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
