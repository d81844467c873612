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

The GNOME Mines samples ``*-h-*`` and ``*-i-*`` (every theme) show every digit 0 to 8:
custom games in the same three windows (8x8 with 29 mines, 16x16 with 90, 30x16 with
168: tiles of 49, 47 and 35 pixels), taken on ``Xvfb :91`` with their settings in a
fresh folder as above. GNOME Mines draws its mines' places with GLib's
``g_random_int_range`` (x, then y, a mine at a time, the first click's cell and its
neighbours skipped), so a small library of a few lines loaded with ``LD_PRELOAD``
returned the coordinates of a layout chosen beforehand (random layouts, kept when some
safe cell shows each count 0 to 8), read from a file: the layout is known before the
first click. The first click opens the cells around it; then every safe cell but two
was clicked, flags placed on a third of the mines, a flag on one of the two safe cells
left (crossed out once the game is lost) and question marks on the other and on a mine;
the board was captured in each theme (``gsettings set org.gnome.Mines theme`` changes
the theme of the window shown at once), then a mine was clicked and the lost board
captured in each theme. The labels are the layout's (each cell's count, the marks
placed), each checked against its image by eye. The lost boards of every theme and the
boards in play of the classic and default themes (their cells are drawn on another grey
after a loss) make templates; the 8x8 ``i`` game is held out. For the classic and
default themes they give their digits and crossed-out flags only (``"labels"``): their
closed cells and flags come from the earlier samples as before (with these boards' closed
cells too, a lattice of twice the period over an 8x8 board's closed cells read surely as
closed cells in the classic theme), and the classic theme's pale 6, 7 and 8 are left out
(with them, every empty cell read unsure; see ``reader.PALE_DIGITS``).

The KMines samples (``kmines-*``, default theme) were taken the same way: KMines on
``Xvfb :93 -screen 0 1280x900x24`` (``dbus-run-session -- /usr/games/kmines``), cells
opened and flagged with ``xdotool``, ``import -window root`` cut to the window, each
cell labelled by a person looking at the image and checked consistent by the exact
analysis. ``9x9-a`` to ``9x9-lost``: Easy in the 512x360 window (cell ``(x, y)`` at pixel
``(156 + 25x, 92 + 25y)``); ``c``, ``e`` and ``f-flags`` are held out (``c`` is a step of
the game ``b`` and ``lost`` come from). The later ones were taken on ``Xvfb :91`` with
KMines' own settings kept apart (``HOME`` and ``XDG_CONFIG_HOME`` a fresh folder), the
window resized with ``xdotool windowsize`` (KMines draws its cells as large as the
window allows), the level chosen in the status bar's list, the board's box found from
its dark frame, and safe cells to click chosen by the exact analysis of the cells read
so far (each step's reading checked by eye): ``16x16-*`` (900x700 window, 34-pixel
cells), ``30x16-*`` (1100x640, 30 pixels), ``9x9-g`` to ``9x9-i-lost`` (640x520, 39
pixels; ``i-flags`` has a flag placed on a safe cell on purpose, ``i-lost`` its crossed
out flag). Held out: ``16x16-b-flags``, ``16x16-lost``, ``30x16-b-flags``, ``9x9-h-won``
and ``9x9-i-flags``.

The ``kmines-classic-*`` samples are KMines' classic theme, taken on ``Xvfb :91`` in the
same way: the theme is chosen in Settings > Configure KMines > Theme (KMines keeps it in
``kminesrc`` as ``Theme=themes/classic.desktop`` in its ``[KgTheme]`` group); the box
is found from the dark lines at each cell's right and bottom edge. ``9x9-*`` (640x520
window, 39-pixel cells; ``c-flags`` 560x400, 28 pixels), ``16x16-*`` (820x700, 34
pixels), ``30x16-*`` (980x560, 26 pixels). Held out:
``9x9-b-flags``, ``9x9-c-flags``, ``16x16-a``, ``30x16-a`` and ``30x16-b-flags``.

The high digits (6 to 8) came from custom games, on ``Xvfb :92`` in the same way
(KMines' settings in a fresh folder; Settings > Configure KMines: Custom Game 10x10
with 60 mines, "Allow KMines reset" off so that no dialog covers a lost board, the
theme chosen there). Each game was played by a script: a screenshot read by our
reader, the exact analysis of the cells read, a click on the safest inner cell (among
cells nearly as safe, the one with the most likely mines around it, for high digits),
a flag on each cell proved a mine and, at the first guess, one on the next safest cell
(so that a lost board may show a wrong flag), until a click lost. The lost board shows
every mine: each digit was taken from that layout (the count of mines, flags and the
exploded one around the cell; reader and layout agreed on every digit the old
templates read surely, except 6s read as 5s) and each label file checked by eye
against the image twice. A lost board stays as it is when the window is resized, so
each was captured at several window sizes: 512x400 (26-pixel cells, classic theme),
600x500 (34) and 640x560 (39). Default theme: ``10x10-k-lost`` (39 pixels, 6s, a wrong
flag) makes templates; ``10x10-m-34-lost`` (two 6s, another game) is held out. The 7s
and 8s: ``10x10-n-*`` (an 8) and ``10x10-p-*`` (a 7), each one lost game captured at
512x390 (25-pixel cells), 560x450 (30), 600x500 (34) and 640x560 (39), give the
templates their 7s and 8s only (``"labels"`` in ``samples.json``: with every cell of
those boards, closed cells scaled from them came within the margin of an empty cell,
and Easy boards of 25-pixel cells read a cell as closed or empty). Two more games, on
``Xvfb :92`` with 66 mines, are held out: ``10x10-q-30-lost`` (an 8, 30 pixels) and
``10x10-r-34-lost`` (a 7 and a wrong flag, 34 pixels). Their labels come from the lost
layout (every digit counted from the mines, flags and the exploded one around it) and
were checked by eye against the image twice.
Classic theme: ``kmines-classic-10x10-d-lost``, ``-d-26-lost`` and ``-d-34-lost`` (a 7,
a wrong flag) make templates; ``kmines-classic-10x10-e-34-lost`` (a 6, another game)
is held out.

The Metasweeper samples (``metasweeper-*``, skin ``classic``) were taken from the
program itself (github eee555/Solvable-Minesweeper, GPL-3.0: run here, none of its code
copied): its source in a folder of its own with a virtual environment of its own
(``pyQt5==5.15.7``, ``ms-toollib==1.4.12``), on ``Xvfb :96 -screen 0 1600x1000x24``
(``QT_QPA_PLATFORM=xcb``). A script of a few lines imported its main window in-process,
set the level and the cell size (its ``pixSize``, 12 to 32 pixels), laid a layout of its
own (some with a cell ringed by 5 to 8 mines, so that every digit shows), clicked through
the window's own mouse handlers, and saved the main window with ``QWidget.grab()`` (what
is on screen) or the whole screen with ``import -window root`` (the window beside its
score board and a text window, none over the board). The labels are the program's own
game board, not read by eye: 0-8, 10 hidden ``H``, 11 flag ``F``, 14 crossed-out flag
``x``, 15 the mine that exploded ``!``, 16 a mine ``*``; the board's box is the board
widget's place in the image (4 pixels inside the widget). Those positions still in play
are consistent by the exact analysis (a test checks it). 8 of the 13 are held out.
Nine more were taken the same way on ``Xvfb :92`` for cells of 12 to 15 pixels
(Metasweeper draws each size with glyphs of its own): custom 12x10 boards with 45 mines
showing every digit at 12, 13, 14 and 15 pixels and lost 16x16 games at 12, 13 and
14 make templates (at the display scales 1 to 3 too, ``"scales"`` in
``samples.json``); an expert board at 14 pixels and a lost beginner board at 13 are
held out.
The xdemineur samples (``xdemineur-*``) were taken the same way: ``/usr/games/xdemineur
-geometry COLSxROWS -m MINES`` alone on ``Xvfb :92 -screen 0 1280x900x24`` (no window
manager: the window sits at the origin, ``31 + 21 COLS`` by ``96 + 21 ROWS`` pixels),
cell ``(x, y)`` clicked with ``xdotool`` at pixel ``(27 + 21x, 92 + 21y)`` (button 3
once for a flag, twice for a question mark), ``import -window root`` cut to the window;
the board's box starts at ``(16, 81)``, cells of 21 pixels, the one-pixel black line on
each cell's left and top. The moves were chosen by our own analysis of the board as read
(safe cells opened, some certain mines flagged, question marks on random hidden cells; a
lost game by opening the likeliest mine after flagging cells that were not certain).
xdemineur draws each kind of cell the same to the pixel, so every distinct 20x20 cell
image was labelled once by a person looking at it (enlarged) and the boards were then
labelled by those images; each board was checked again against its screenshot by eye,
and each board still in play is consistent by the exact analysis (its header the
program's total). Dense boards (12x8 with 50 and 72 mines, games played until a 5, 6, 7
and 8 showed) give the high digits. ``16x16-a``, ``16x16-lost``, ``30x16-a``,
``12x8-dense-a`` and ``12x8-dense-b`` make the templates; ``12x8-a``, ``12x8-b``,
``12x8-lost`` (taken first, the window cut with a few black pixels to its right and
below), ``16x16-b``, ``30x16-b``, ``30x16-lost``, ``24x20-c`` and ``20x12-dense`` are
held out.

The mine counters of GNOME Mines and KMines (``tests/data/vision/counter/``) were taken
the same way, on ``Xvfb :93 -screen 0 1280x900x24`` (GNOME Mines with its settings in a
fresh folder as above, ``mode`` 0 to 3 and ``xsize``/``ysize``/``nmines`` for a custom
game; KMines with ``HOME`` a fresh folder, the level chosen in its status bar's list,
the window resized with ``xdotool windowsize``): on a fresh board, flags placed one by
one with ``xdotool click 3`` and the counter captured after each (``import -window root
-crop``): GNOME Mines ``k/10``, ``k/23`` (12x10, 19 percent), ``k/40`` and ``k/99``
(it places no more flags than mines), KMines ``k/10``, ``k/40`` (up to ``45/40``) and
``k/99``. Each capture's text is the number of flags placed, in ``captures.json``; the
templates are cut from them by ``scripts/build_vision_templates.py counter``. The
windows of ``counter/windows/`` (fresh boards with flags placed at known cells, so
labelled by the cells clicked: GNOME Mines 8x8 in a tall window and a large one, custom
12x10 with 23 mines and 30x16 with 96; KMines custom 10x10 with 20 in two window sizes
and Hard, and Easy in a tall window, its status bar far below the board) are the
tests' whole windows; all but the 12x10 one (a moment of the ``k/23`` captures' game)
are apart from the templates' captures. Each counter's text and box, for those and for
the labelled samples, is in ``tests/data/vision/counters.json``.

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
from typing import Any

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


def _serve_app() -> tuple[Any, int]:
    """Our web app served on a free local port, in a thread: the server and the port."""
    import uvicorn

    from minesolver.web import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, port


def web() -> None:
    from playwright.sync_api import sync_playwright

    server, port = _serve_app()
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
    from PIL import Image
    from playwright.sync_api import sync_playwright

    from minesolver.vision.counter import GLYPH, glyph_vectors

    server, port = _serve_app()
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


# JSMinesweeper's page (D. N. Hill): a board of a known layout set through the page's own
# functions, played by clicks on its canvas, labelled from its tiles' state
JSMS_LABEL_JS = """() => {
  const rows = [];
  for (let y = 0; y < board.height; y++) {
    let row = "";
    for (let x = 0; x < board.width; x++) {
      const t = board.getTileXY(x, y);
      // as the page's renderTiles chooses the image it draws
      if (t.isBomb()) row += t.exploded ? "!" : "*";
      else if (t.isFlagged()) row += (t.isBomb() == null || t.isBomb()) ? "F" : "x";
      else if (t.isSkull() || (t.isCovered() && t.is_start)) row += "?";
      else if (t.isCovered()) row += "H";
      else row += String(t.getValue());
    }
    rows.push(row);
  }
  return rows;
}"""


def _around(i: int, w: int, h: int) -> list[int]:
    x, y = i % w, i // w
    return [
        (y + dy) * w + x + dx
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h
    ]


def jsms_layout(
    rng: random.Random, w: int, h: int, m: int, every: bool
) -> tuple[set[int], list[int]]:
    """A mine layout of ``m`` mines and the cells to open first: with ``every``, cells
    given 8 down to 1 mines around them (so that every digit shows once they are
    opened), else none."""
    n = w * h
    while True:
        layout: set[int] = set()
        centres: list[int] = []
        if every:
            spots = [i for i in range(n) if 0 < i % w < w - 1 and 0 < i // w < h - 1]
            rng.shuffle(spots)
            for digit in (8, 7, 6, 5, 4, 3):
                spot = next(
                    (
                        s
                        for s in spots
                        if s not in layout
                        and all(abs(s % w - c % w) > 2 or abs(s // w - c // w) > 2 for c in centres)
                    ),
                    None,
                )
                if spot is None:
                    break
                layout.update(rng.sample(_around(spot, w, h), digit))
                centres.append(spot)
        free = [i for i in range(n) if i not in layout and i not in centres]
        layout.update(rng.sample(free, m - len(layout)))
        digits = {sum(j in layout for j in _around(i, w, h)) for i in range(n) if i not in layout}
        if not every or digits >= set(range(9)):
            return layout, centres


def jsms() -> None:
    """Screenshots of JSMinesweeper's page, served from a work tree of its repository
    (``sys.argv[2]``, default ``/tmp/jsms``)."""
    import functools
    import http.server

    from playwright.sync_api import sync_playwright

    source = sys.argv[2] if len(sys.argv) > 2 else "/tmp/jsms"

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=source)
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    rng = random.Random(2025)
    # (name, width, height, mines, tile size, display scale, kind, share opened, templates)
    boards = [
        ("jsms-beginner-24", 9, 9, 10, 24, 1.0, "play", 0.6, True),
        ("jsms-expert-24", 30, 16, 99, 24, 1.0, "play", 0.5, True),
        ("jsms-every-32", 15, 15, 55, 32, 1.0, "every", 0.5, True),
        ("jsms-every-16-2", 15, 15, 55, 16, 2.0, "every", 0.5, True),
        ("jsms-every-20-125", 15, 15, 55, 20, 1.25, "every", 0.6, True),
        ("jsms-lost-28-15", 16, 16, 40, 28, 1.5, "lost", 0.4, True),
        ("jsms-expert-32-125", 30, 16, 99, 32, 1.25, "play", 0.7, True),
        ("jsms-every-48", 12, 10, 36, 48, 1.0, "every", 0.5, True),
        ("jsms-beginner-60-2", 9, 9, 10, 60, 2.0, "lost", 0.5, True),
        ("jsms-every-12-15", 15, 15, 55, 12, 1.5, "every", 0.5, True),
        # held out of the templates: what the accuracy is measured on
        ("jsms-intermediate-28", 16, 16, 40, 28, 1.0, "play", 0.5, False),
        ("jsms-expert-20-15", 30, 16, 99, 20, 1.5, "play", 0.6, False),
        ("jsms-every-40-125", 16, 12, 50, 40, 1.25, "every", 0.5, False),
        ("jsms-lost-24-2", 16, 16, 40, 24, 2.0, "lost", 0.6, False),
        ("jsms-custom-44-125", 12, 10, 20, 44, 1.25, "play", 0.5, False),
        ("jsms-beginner-16-125", 9, 9, 10, 16, 1.25, "play", 0.7, False),
        ("jsms-every-lost-36-15", 16, 14, 55, 36, 1.5, "lost-every", 0.5, False),
        ("jsms-expert-24-b", 30, 16, 99, 24, 1.0, "play", 0.3, False),
        ("jsms-every-52", 12, 9, 36, 52, 1.0, "every", 0.6, False),
    ]
    # the page as it opens (hints and the mine-probability overlay on): drawn over the
    # cells, it must be refused; kept beside the samples, out of samples.json
    overlaid = [("jsms-overlay-expert", 30, 16, 99, 24, 1.0, "overlay", 0.5, False)]
    data = manifest()
    args = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        for name, w, h, m, tile, scale, kind, share, templates in boards + overlaid:
            if len(sys.argv) > 3 and name not in sys.argv[3:]:
                continue
            if kind == "overlay":
                rng = random.Random(7)
            page = browser.new_page(
                viewport={"width": 1280, "height": 900}, device_scale_factor=scale
            )
            page.goto(f"http://127.0.0.1:{port}/index.html?board={w}x{h}x{m}")
            page.wait_for_function(
                "typeof board !== 'undefined' && board != null && board.tiles.length > 0",
                timeout=120_000,
            )
            # no hints, no overlay, no play by the page's solver: the board as dealt
            page.uncheck("#autoplay")
            if kind != "overlay":
                page.uncheck("#showhints")
                page.select_option("#overlay", "none")
            page.select_option("#tilesize", str(tile))
            layout, centres = jsms_layout(rng, w, h, m, every="every" in kind)
            mines = [w, h, m] + [v for i in sorted(layout) for v in (i % w, i // w)]
            page.evaluate("(mines) => newGameFromArray([mines, [], []])", mines)
            page.wait_for_function(f"board.width == {w} && board.height == {h}")
            _jsms_play(page, rng, w, h, layout, centres, tile, share, lost="lost" in kind)
            page.mouse.move(5, 895)  # off the board: no pressed tile, no tooltip
            time.sleep(3.0 if kind == "overlay" else 0.3)  # the page's analysis drawn
            rows = page.evaluate(JSMS_LABEL_JS)
            _jsms_check(rows, layout, w, h, lost="lost" in kind)
            box = page.evaluate(
                """() => { const r = document.getElementById('myCanvas').getBoundingClientRect();
                  const b = document.getElementById('board');
                  return [r.left, r.top, r.right, r.bottom, b.clientWidth, b.clientHeight]; }"""
            )
            if box[4] < w * tile or box[5] < h * tile:
                raise SystemExit(f"{name}: the board does not fit the page ({box})")
            page.screenshot(path=str(OUT / f"{name}.png"))
            lost = "lost" in kind
            head = [] if lost else [f"{w}x{h}x{m}"]
            (OUT / f"{name}.txt").write_text("\n".join(head + rows) + "\n")
            if kind == "overlay":
                page.close()
                continue
            data[name] = {
                "skin": "jsms",
                "box": [round(v * scale, 2) for v in box[:4]],
                "templates": templates,
            }
            page.close()
            print(name, data[name])
        browser.close()
    server.shutdown()
    save_manifest(data)


def _jsms_play(
    page: Any,
    rng: random.Random,
    w: int,
    h: int,
    layout: set[int],
    centres: list[int],
    tile: int,
    share: float,
    *,
    lost: bool,
) -> None:
    """Clicks on the page's canvas: an opening, the cells of ``centres`` (and, when there
    are some, a cell of each digit not shown yet), then safe cells next to those open
    until ``share`` of the safe cells are open; some mines next to them flagged; with
    ``lost``, a wrong flag or two and a mine clicked."""
    box = page.evaluate(
        "() => { const r = document.getElementById('myCanvas').getBoundingClientRect();"
        " return [r.left, r.top]; }"
    )
    n = w * h
    value = {i: sum(j in layout for j in _around(i, w, h)) for i in range(n) if i not in layout}

    def state() -> str:
        return "".join(page.evaluate(JSMS_LABEL_JS))

    def click(i: int, button: str = "left") -> None:
        x, y = i % w, i // w
        page.mouse.click(box[0] + (x + 0.5) * tile, box[1] + (y + 0.5) * tile, button=button)
        cond = (
            f"board.getTileXY({x}, {y}).isFlagged()"
            if button == "right"
            else f"!board.getTileXY({x}, {y}).isCovered() || board.isGameover()"
        )
        page.wait_for_function(cond)
        page.wait_for_function("!canvasLocked")

    zeros = [i for i, v in value.items() if v == 0]
    click(rng.choice(zeros) if zeros else rng.choice(sorted(value)))
    for c in centres:
        if state()[c] == "H":
            click(c)
    if centres:  # every digit shown: one cell of each digit not shown yet opened
        for d in range(9):
            now = state()
            if str(d) not in now:
                click(rng.choice([i for i, v in value.items() if v == d and now[i] == "H"]))
    safe = len(value)
    while True:
        now = state()
        opened = sum(ch.isdigit() for ch in now)
        if opened >= share * safe or opened == safe:
            break
        near = [
            i for i in value if now[i] == "H" and any(now[j].isdigit() for j in _around(i, w, h))
        ]
        click(rng.choice(near or [i for i in value if now[i] == "H"]))
    now = state()
    edge = [i for i in layout if now[i] == "H" and any(now[j].isdigit() for j in _around(i, w, h))]
    for i in rng.sample(edge, int(len(edge) * rng.uniform(0.2, 0.7))):
        click(i, "right")
    if lost:
        hidden = [i for i in value if state()[i] == "H"]
        for i in rng.sample(hidden, min(2, len(hidden))):
            click(i, "right")
        now = state()
        mines = [i for i in layout if now[i] == "H"]
        click(rng.choice(mines))
        page.wait_for_function("board.isGameover()")


def _jsms_check(rows: list[str], layout: set[int], w: int, h: int, *, lost: bool) -> None:
    """The page's state against the layout dealt: each digit the count of mines around,
    flags, mines and crossed-out flags where they belong."""
    for i, ch in enumerate("".join(rows)):
        near = sum(j in layout for j in _around(i, w, h))
        mine = i in layout
        ok = {
            "H": not (lost and mine),
            "F": mine,
            "x": lost and not mine,
            "*": lost and mine,
            "!": lost and mine,
        }.get(ch, not mine and ch == str(near))
        if not ok:
            raise SystemExit(f"cell ({i % w}, {i // w}) shows {ch!r}, not what was dealt")


if __name__ == "__main__":
    {"web": web, "web-counter": web_counter, "jsms": jsms}[sys.argv[1]]()
