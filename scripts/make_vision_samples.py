"""Make the labelled screenshots of tests/data/vision/ (and the templates' sources).

    .venv/bin/python scripts/make_vision_samples.py web      # our page, in Chromium
    .venv/bin/python scripts/make_vision_samples.py web-counter   # its counter's glyphs

``web``: starts the app, draws known positions on the Play board (hints off, as a player
sees a game; a lost one with its mines) at display scales 1 to 2 and saves the whole
viewport. Some boards show every digit 0 to 8 (``synth.every_label_board``); some are
marked ``"templates": false`` in ``samples.json``: they are held out of the templates,
and the accuracy is measured on them.

Our page's mine counter shows the mines less the flags, as the page does in play.
``web-counter``: shows every digit on our page's mine counter at display scales 1 to 2
and writes the glyphs, scaled to 8x12, as the counter reader's templates
(``src/minesolver/vision/templates/counter/web.png`` and ``web.txt``).

The GNOME Mines samples (``gnome-*``) were taken by hand: GNOME Mines on
a virtual display (``Xvfb :77``), clicks with ``xdotool``, ``import -window root``, cut
to the window, each cell labelled by a person looking at the image. GNOME Mines' theme as
installed is "bgcolors" (skin ``gnome``); the ``gnome-classic-*`` and ``gnome-default-*``
samples are its "classic" and "default" themes (skins ``gnome-classic``,
``gnome-default``), and ``gnome-16x16-g-*`` gives the ``gnome`` skin its question marks
only (``"labels"`` in ``samples.json``). They were taken on ``Xvfb :94 -screen 0
1280x900x24`` with the settings in a file of their own (``GSETTINGS_BACKEND=keyfile``,
``XDG_CONFIG_HOME`` a fresh folder; ``gsettings set org.gnome.Mines theme classic``, and
``window-width``/``window-height`` 600x400 for 8x8, 1000x790 for 16x16, 1260x700 for
30x16), GNOME Mines started with ``dbus-run-session -- /usr/games/gnome-mines``. The
pointer rests inside the window but off the board when a screenshot is taken (outside the
window GNOME Mines pauses; over a tile it lights it). Cells are opened at random and
flags placed on the cells the exact analysis of the board so far proves mines, until a
click loses: the lost screenshot shows every mine, and each earlier screenshot of the
game is checked against that layout digit by digit (every non-lost one also consistent
by the exact analysis), then by eye. Boxes: 8x8 ``(23.07, 70.21, 412.93, 457.79)``,
16x16 ``(41.43, 69.43, 794.57, 822.57)``, 30x16 ``(23.0, 122.03, 1073.0, 679.97)``. The
8x8 ``b`` games, the 16x16 ``d`` and the 30x16 ``f`` ones are held out.

The KMines samples (``kmines-*``, default theme, Easy 9x9) were taken the same way: KMines
on ``Xvfb :93 -screen 0 1280x900x24`` (``dbus-run-session -- /usr/games/kmines``), cells
opened and flagged with ``xdotool`` (cell ``(x, y)`` at pixel ``(156 + 25x, 92 + 25y)``),
``import -window root`` cut to the window (512x360), each cell labelled by a person
looking at the image and checked consistent by the exact analysis; ``c``, ``e`` and
``f-flags`` are held out of the templates (``c`` is a step of the game ``b`` and ``lost``
come from).

Each sample is ``NAME.png`` with ``NAME.txt`` (the true cells: position text, with ``*``,
``!`` and ``x`` for the mines of a lost game) and an entry in ``samples.json``: the skin
and the board's box in the image (left, top, right, bottom, pixels).
"""

from __future__ import annotations

import io
import json
import random
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "vision"
sys.path.insert(0, str(ROOT / "src"))

from minesolver.vision import synth  # noqa: E402

LABEL = {-1: "H", -2: "F", synth.MINE: "*", synth.EXPLODED: "!", synth.WRONG_FLAG: "x"}
LABEL.update({d: str(d) for d in range(9)})


def manifest() -> dict[str, dict[str, object]]:
    path = OUT / "samples.json"
    return json.loads(path.read_text()) if path.exists() else {}


def save_manifest(data: dict[str, dict[str, object]]) -> None:
    (OUT / "samples.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def labels(cells: list[int], width: int, mines: int | None) -> str:
    rows = ["".join(LABEL[v] for v in cells[i : i + width]) for i in range(0, len(cells), width)]
    lost = any(v in (synth.MINE, synth.EXPLODED, synth.WRONG_FLAG) for v in cells)
    head = [] if mines is None or lost else [f"{width}x{len(rows)}x{mines}"]
    return "\n".join(head + rows) + "\n"


def web() -> None:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from minesolver.web import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    rng = random.Random(2024)
    # (name, width, height, mines, lost, display scale, every digit shown, for templates)
    boards = [
        ("web-beginner", 9, 9, 10, False, 1.0, False, True),
        ("web-expert", 30, 16, 99, False, 1.0, False, True),
        ("web-every", 16, 16, 40, False, 1.0, True, True),
        ("web-every-125", 16, 16, 40, False, 1.25, True, True),
        ("web-every-15", 30, 16, 99, False, 1.5, True, True),
        ("web-lost", 16, 16, 40, True, 1.0, False, True),
        ("web-expert-2", 30, 16, 99, False, 2.0, True, True),
        # held out of the templates: what the accuracy is measured on
        ("web-intermediate-125", 16, 16, 40, False, 1.25, False, False),
        ("web-expert-15", 30, 16, 99, False, 1.5, False, False),
        ("web-custom-2", 12, 10, 24, False, 2.0, False, False),
        ("web-beginner-lost-15", 9, 9, 10, True, 1.5, False, False),
        ("web-every-b", 16, 16, 40, False, 1.0, True, False),
        ("web-every-175", 30, 16, 99, False, 1.75, True, False),
        ("web-every-lost-125", 16, 16, 40, True, 1.25, True, False),
        # custom boards whose total only the mine counter tells (held out)
        ("web-counter-custom", 14, 9, 30, False, 1.0, False, False),
        ("web-counter-big", 30, 12, 160, False, 1.0, False, False),
        ("web-counter-custom-15", 11, 13, 25, False, 1.5, False, False),
    ]
    data = manifest()
    args = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        for name, w, h, m, lost, scale, every, templates in boards:
            page = browser.new_page(
                viewport={"width": 1280, "height": 900}, device_scale_factor=scale
            )
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("document.querySelectorAll('#board .cell').length > 0")
            make = synth.every_label_board if every else synth.random_board
            cells = make(rng, w, h, m, lost=lost)
            rows = [
                "".join("F" if v in (-2, synth.WRONG_FLAG) else "H" if v < 0 else str(v)
                        for v in cells[i : i + w])
                for i in range(0, len(cells), w)
            ]  # fmt: skip
            mines_at = [
                [i % w, i // w] for i, v in enumerate(cells) if v in (synth.MINE, synth.EXPLODED)
            ]
            mines_at += [[i % w, i // w] for i, v in enumerate(cells) if v == -2 and lost]
            exploded = next(
                ([i % w, i // w] for i, v in enumerate(cells) if v == synth.EXPLODED), None
            )
            page.evaluate(
                """([rows, w, h, m, lost, layout, exploded]) => {
                  stopAutoplay(); clearInterval(state.timer);
                  $("hints").checked = false;
                  state.game = {width: w, height: h, mines: m, board: rows,
                    status: lost ? "lost" : "playing", layout: lost ? layout : null,
                    exploded: exploded, moves: 1};
                  state.rows = rows; state.analysis = null; render();
                  const left = m - (rows.join("").split("F").length - 1);  // as the page shows it
                  $("mine-counter").textContent = left < 0
                    ? "-" + String(-left).padStart(2, "0") : String(left).padStart(3, "0");
                }""",
                [rows, w, h, m, lost, mines_at, exploded],
            )
            time.sleep(0.3)
            box = page.evaluate(
                """() => { const c = document.querySelectorAll('#board .cell');
                  const a = c[0].getBoundingClientRect();
                  const b = c[c.length - 1].getBoundingClientRect();
                  return [a.left, a.top, b.right, b.bottom]; }"""
            )
            page.screenshot(path=str(OUT / f"{name}.png"))
            (OUT / f"{name}.txt").write_text(labels(cells, w, m))
            data[name] = {
                "skin": "web",
                "box": [round(v * scale, 2) for v in box],
                "templates": templates,
            }
            page.close()
            print(name, data[name])
        browser.close()
    server.should_exit = True
    save_manifest(data)


def web_counter() -> None:
    import numpy as np
    import uvicorn
    from PIL import Image
    from playwright.sync_api import sync_playwright

    from minesolver.vision.counter import GLYPH, glyph_vectors
    from minesolver.web import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    labels: list[str] = []
    vectors: list[np.ndarray] = []
    args = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        for scale in (1.0, 1.25, 1.5, 1.75, 2.0):
            page = browser.new_page(
                viewport={"width": 1280, "height": 900}, device_scale_factor=scale
            )
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("document.querySelectorAll('#board .cell').length > 0")
            for text in ("012", "345", "678", "901"):
                box = page.evaluate(
                    """(text) => { const c = document.getElementById("mine-counter");
                      c.textContent = text; const r = c.getBoundingClientRect();
                      return [r.left, r.top, r.right, r.bottom]; }""",
                    text,
                )
                time.sleep(0.1)
                shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
                # inside the counter's one-pixel border
                b = [round(v * scale) for v in box]
                inner = np.asarray(shot.crop((b[0] + 2, b[1] + 2, b[2] - 2, b[3] - 2)))
                glyphs = glyph_vectors(inner)
                if [k for k, _ in glyphs] != ["?"] * 3:
                    raise SystemExit(f"counter {text!r} at {scale}: glyphs not found")
                for ch, (_, vector) in zip(text, glyphs, strict=True):
                    labels.append(ch)
                    vectors.append(vector)
            page.close()
        browser.close()
    server.should_exit = True
    folder = ROOT / "src" / "minesolver" / "vision" / "templates" / "counter"
    folder.mkdir(exist_ok=True)
    gw, gh = GLYPH
    strip = np.stack(vectors).reshape(len(vectors), gh, gw).transpose(1, 0, 2)
    strip = strip.reshape(gh, len(vectors) * gw)
    Image.fromarray(np.clip(strip * 255 + 0.5, 0, 255).astype(np.uint8), "L").save(
        folder / "web.png", optimize=True
    )
    (folder / "web.txt").write_text("\n".join(labels) + "\n")
    print(len(labels), "glyphs")


if __name__ == "__main__":
    {"web": web, "web-counter": web_counter}[sys.argv[1]]()
