"""Make the labelled whole-desktop screenshots of tests/data/vision/desktop/.

    .venv/bin/python scripts/make_desktop_samples.py [NAME ...]     # all, or those named
    .venv/bin/python scripts/make_desktop_samples.py --measure [NAME ...]  # today's reader on them

The virtual screen is display ``:71`` unless ``DESKTOP_DISPLAY`` names another (one in
use is refused).

Each sample is a whole virtual screen as a user's capture of the desktop shows it: a
virtual display (``Xvfb :NUM -screen 0 WxHx24``) with a window manager (openbox), a panel
(tint2, its default configuration: a task bar and a clock at the bottom), a wallpaper (an
ImageMagick plasma of a fixed seed, ``convert -seed N -size WxH plasma:fractal -blur
0x2``, or on a few of the largest screens a plain gradient, ``gradient:#3a6ea5-#0b2540``,
that keeps their files small; set with ``hsetroot -fill``), an xterm with text in it
and, for the web skins, a Chromium window (the program itself); the screen is saved
with ``import -window root``.
Every setting of each sample is in :data:`SAMPLES` below (skin, program, screen size,
display scale, window state, what else is on screen).

How each is labelled: from the program's own state where it can tell it, never by our
reader:

- ``web``: our web app (served by this script on a free local port), in Chromium run on
  the virtual display (not headless) with ``--force-device-scale-factor`` for the display
  scale; the page draws a position chosen beforehand on its Play board (hints off, as
  in ``make_vision_samples.py web``); the label is that position.
- ``jsms``: JSMinesweeper's page (its repository's work tree served from ``/tmp/jsms``,
  github DavidNHill/JSMinesweeper, not copied into this project), in Chromium in the same
  way; a layout chosen beforehand is dealt with the page's ``newGameFromArray``, cells
  clicked in the page, and the label is the page's own board state, checked against the
  layout dealt (as in ``make_vision_samples.py jsms``).
- GNOME Mines: its settings in a fresh folder (theme, window size, maximised or not),
  ``GDK_SCALE=2`` for the display scale 2 (GTK honours whole scales only), the level
  chosen with a click on its button; a fresh board: every cell closed (the flag counter
  shows 0, each image checked by eye). ``kind="flags"`` would place flags with right
  clicks at the tiles found in a capture (:func:`_gnome_cells`), but that finder found
  no tiles on these desktops, so no sample uses it.
- KMines (skins ``kmines`` and ``kmines-classic``), xdemineur and Metasweeper (skin
  ``classic``): see ``desktop_native.py`` (KMines: a fresh board with flags placed on
  cells chosen beforehand, checked in the capture, or, in its classic theme, a board in
  play labelled like xdemineur's; xdemineur: each cell labelled by the one kind of
  xdemineur cell its pixels equal exactly, moves by the exact analysis; Metasweeper: its
  own game board). They need ``kmines``, ``xdemineur`` and ``wmctrl``
  (Debian's packages) and Metasweeper's source with its environment
  (``desktop_metasweeper.py``).

Each sample is ``NAME.png`` with ``NAME.txt`` (the true cells, as position text) and an
entry in ``manifest.json``: skin, program, screen size, display scale, window state,
what else is on screen, where the label comes from (``labelled_from``), and
``held_out`` (true for every one: no template is cut from these images).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "vision" / "desktop"
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

import desktop_native as native  # noqa: E402
import make_vision_samples as mvs  # noqa: E402

from minesolver.vision import synth  # noqa: E402

# name: skin, screen (w, h), display scale, window state, board (w, h, mines), kind, seed
SAMPLES: dict[str, dict[str, Any]] = {
    "web-expert-1280x800": dict(
        skin="web", screen=(1280, 800), scale=1.0, window="beside an xterm",
        board=(30, 16, 99), kind="play", seed=1,
    ),
    "web-intermediate-max-1920x1080": dict(
        skin="web", screen=(1920, 1080), scale=1.0, window="maximised",
        board=(16, 16, 40), kind="every", seed=2,
    ),
    "web-beginner-125-1600x900": dict(
        skin="web", screen=(1600, 900), scale=1.25, window="beside an xterm",
        board=(9, 9, 10), kind="play", seed=3,
    ),
    "web-beginner-cut-125-1600x900": dict(
        skin="web", screen=(1600, 900), scale=1.25, window="beside an xterm",
        board=(9, 9, 10), kind="play", seed=3, scroll=False,
        note="the page not scrolled: the board's last row half hidden by the panel",
        expect="refused",
    ),
    "web-expert-15-max-1920x1080": dict(
        skin="web", screen=(1920, 1080), scale=1.5, window="maximised",
        board=(30, 16, 99), kind="play", seed=4,
    ),
    "web-lost-2-2560x1440": dict(
        skin="web", screen=(2560, 1440), scale=2.0, window="beside an xterm",
        board=(16, 16, 40), kind="lost", seed=5,
    ),
    "jsms-expert-24-1920x1080": dict(
        skin="jsms", screen=(1920, 1080), scale=1.0, window="beside an xterm",
        board=(30, 16, 99), kind="play", tile=24, seed=11,
    ),
    "jsms-intermediate-20-125-max-1600x900": dict(
        skin="jsms", screen=(1600, 900), scale=1.25, window="maximised",
        board=(16, 16, 40), kind="play", tile=20, seed=12,
    ),
    "jsms-every-20-2-2560x1440": dict(
        skin="jsms", screen=(2560, 1440), scale=2.0, window="beside an xterm",
        board=(15, 15, 55), kind="every", tile=20, seed=13,
    ),
    "gnome-8x8-1600x900": dict(
        skin="gnome", screen=(1600, 900), scale=1.0, window="beside an xterm",
        board=(8, 8, 10), kind="fresh", seed=31, theme="bgcolors", size=(600, 500),
    ),
    "gnome-default-16x16-max-1920x1080": dict(
        skin="gnome-default", screen=(1920, 1080), scale=1.0, window="maximised",
        board=(16, 16, 40), kind="fresh", seed=32, theme="default", size=(900, 800),
    ),
    "gnome-classic-30x16-1920x1080": dict(
        skin="gnome-classic", screen=(1920, 1080), scale=1.0, window="beside an xterm",
        board=(30, 16, 99), kind="fresh", seed=33, theme="classic", size=(1260, 700),
    ),
    "gnome-16x16-2-2560x1440": dict(
        skin="gnome", screen=(2560, 1440), scale=2.0, window="beside an xterm",
        board=(16, 16, 40), kind="fresh", seed=34, theme="bgcolors", size=(700, 600),
    ),
    "gnome-default-8x8-2-max-2560x1440": dict(
        skin="gnome-default", screen=(2560, 1440), scale=2.0, window="maximised",
        board=(8, 8, 10), kind="fresh", seed=35, theme="default", size=(600, 500),
    ),
    "kmines-16x16-1600x900": dict(
        skin="kmines", screen=(1600, 900), scale=1.0, window="beside an xterm",
        board=(16, 16, 40), flags=12, seed=41, theme="default", size=(760, 640),
    ),
    "kmines-30x16-15-max-1920x1080": dict(
        skin="kmines", screen=(1920, 1080), scale=1.5, window="maximised",
        board=(30, 16, 99), flags=30, seed=42, theme="default",
    ),
    "kmines-9x9-2-2560x1440": dict(
        skin="kmines", screen=(2560, 1440), scale=2.0, window="beside an xterm",
        board=(9, 9, 10), flags=3, seed=45, theme="default", size=(700, 640),
        wallpaper="gradient",
    ),
    "kmines-classic-16x16-15-max-1600x900": dict(
        skin="kmines-classic", screen=(1600, 900), scale=1.5, window="maximised",
        board=(16, 16, 40), flags=10, seed=46, theme="classic",
    ),
    "kmines-classic-30x16-play-1920x1080": dict(
        skin="kmines-classic", screen=(1920, 1080), scale=1.0, window="beside an xterm",
        board=(30, 16, 99), kind="play", cell=26, moves=4, opens=5, flags=3, seed=47,
        theme="classic", size=(980, 560),
        labelled_from="each cell's pixels equal to one person-labelled kind of cell",
    ),
    "kmines-classic-16x16-play-1600x900": dict(
        skin="kmines-classic", screen=(1600, 900), scale=1.0, window="beside an xterm",
        board=(16, 16, 40), kind="play", cell=34, moves=3, opens=4, flags=3, seed=48,
        theme="classic", size=(820, 700),
        labelled_from="each cell's pixels equal to one person-labelled kind of cell",
    ),
    "kmines-classic-9x9-125-1280x800": dict(
        skin="kmines-classic", screen=(1280, 800), scale=1.25, window="beside an xterm",
        board=(9, 9, 10), flags=4, seed=43, theme="classic", size=(560, 480),
    ),
    "kmines-classic-30x16-2-2560x1440": dict(
        skin="kmines-classic", screen=(2560, 1440), scale=2.0, window="beside an xterm",
        board=(30, 16, 99), flags=25, seed=44, theme="classic", size=(900, 520),
        wallpaper="gradient",
    ),
    "xdemineur-16x16-1280x800": dict(
        skin="xdemineur", screen=(1280, 800), scale=1.0, window="beside an xterm",
        board=(16, 16, 40), moves=3, opens=3, flags=2, seed=51,
    ),
    "xdemineur-30x16-1920x1080": dict(
        skin="xdemineur", screen=(1920, 1080), scale=1.0, window="beside an xterm",
        board=(30, 16, 99), moves=4, opens=4, flags=3, seed=52,
    ),
    "xdemineur-lost-20x12-1280x800": dict(
        skin="xdemineur", screen=(1280, 800), scale=1.0, window="beside an xterm",
        board=(20, 12, 40), kind="lost", moves=3, opens=4, flags=3, seed=54,
    ),
    "xdemineur-42x30-1600x900": dict(
        skin="xdemineur", screen=(1600, 900), scale=1.0, window="beside an xterm",
        board=(42, 30, 250), moves=4, opens=4, flags=3, seed=53,
    ),
    "metasweeper-expert-16-15-1920x1080": dict(
        skin="classic", screen=(1920, 1080), scale=1.5, window="beside an xterm",
        board=(30, 16, 99), pix=16, kind="play", opens=30, flags=12, seed=65,
    ),
    "metasweeper-expert-20-1920x1080": dict(
        skin="classic", screen=(1920, 1080), scale=1.0, window="beside an xterm",
        board=(30, 16, 99), pix=20, kind="play", opens=25, flags=15, seed=61,
    ),
    "metasweeper-intermediate-24-1600x900": dict(
        skin="classic", screen=(1600, 900), scale=1.0, window="beside an xterm",
        board=(16, 16, 40), pix=24, kind="play", opens=20, flags=8, seed=62,
    ),
    "metasweeper-beginner-16-2-2560x1440": dict(
        skin="classic", screen=(2560, 1440), scale=2.0, window="beside an xterm",
        board=(8, 8, 10), pix=16, kind="play", opens=8, flags=3, seed=63,
        wallpaper="gradient",
    ),
    "metasweeper-lost-20-125-1600x900": dict(
        skin="classic", screen=(1600, 900), scale=1.25, window="beside an xterm",
        board=(16, 16, 40), pix=20, kind="lost", opens=15, flags=6, seed=64,
    ),
}  # fmt: skip

PROGRAM = {
    "web": "minesolver's web page in Chromium",
    "jsms": "JSMinesweeper's page in Chromium",
    "xdemineur": "xdemineur",
    "kmines": "KMines",
    "kmines-classic": "KMines",
    "classic": "Metasweeper",
    "gnome": "GNOME Mines",
    "gnome-default": "GNOME Mines",
    "gnome-classic": "GNOME Mines",
}
LABELLED_FROM = {
    "web": "the position the page was told to draw",
    "jsms": "the page's own board, checked against the layout dealt",
    "xdemineur": "each cell's pixels equal to one person-labelled kind of xdemineur cell",
    "kmines": "a fresh board and the flags placed, checked in the capture",
    "classic": "Metasweeper's own game board",
    "gnome": "a fresh board of the level chosen",
}
"""Where each skin's labels come from (by its family, the skin's name before a dash)."""
DISPLAY_NUM = int(os.environ.get("DESKTOP_DISPLAY", "71"))


def _origin(win: str, env: dict[str, str]) -> tuple[int, int]:
    """Where window ``win``'s own area (inside the window manager's frame) starts on
    the screen."""
    info = _run("xwininfo", "-id", win, env=env)
    x = re.search(r"Absolute upper-left X:\s+(-?\d+)", info)
    y = re.search(r"Absolute upper-left Y:\s+(-?\d+)", info)
    assert x is not None and y is not None, info
    return int(x.group(1)), int(y.group(1))


def _run(*cmd: str, env: dict[str, str]) -> str:
    return subprocess.run(
        cmd, env=env, check=True, capture_output=True, text=True, errors="replace"
    ).stdout


@contextlib.contextmanager
def desktop(
    size: tuple[int, int], seed: int, wallpaper: str = "plasma"
) -> Iterator[dict[str, str]]:
    """A virtual screen with openbox, tint2, a wallpaper (a plasma, or a plain gradient
    from blue to dark blue) and an xterm showing a directory listing; yields the
    environment whose ``DISPLAY`` is that screen."""
    w, h = size
    if Path(f"/tmp/.X11-unix/X{DISPLAY_NUM}").exists():
        raise SystemExit(f"display :{DISPLAY_NUM} is in use: its screen is not ours to capture")
    env = dict(os.environ, DISPLAY=f":{DISPLAY_NUM}")
    procs = [
        subprocess.Popen(
            ["Xvfb", f":{DISPLAY_NUM}", "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
            stderr=subprocess.DEVNULL,
        )
    ]
    tmp = Path(tempfile.mkdtemp(prefix="desk-"))
    try:
        for _ in range(100):
            if subprocess.run(["xdpyinfo"], env=env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        wall = tmp / "wall.png"
        paint = (
            ["plasma:fractal", "-blur", "0x2"] if wallpaper == "plasma"
            else ["gradient:#3a6ea5-#0b2540"]
        )  # fmt: skip
        subprocess.run(
            ["convert", "-seed", str(seed), "-size", f"{w}x{h}", *paint, str(wall)],
            check=True,
        )
        _run("hsetroot", "-fill", str(wall), env=env)
        procs.append(subprocess.Popen(["openbox"], env=env, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
        procs.append(subprocess.Popen(["tint2"], env=env, stderr=subprocess.DEVNULL))
        x = w - 660 if w > 1400 else w - 500
        procs.append(
            subprocess.Popen(
                ["xterm", "-geometry", f"80x30+{x}+{h // 3}", "-e",
                 "ls -l /usr/bin | head -40; sleep 300"],
                env=env, stderr=subprocess.DEVNULL,
            )
        )  # fmt: skip
        time.sleep(1.5)
        yield env
    finally:
        for p in reversed(procs):
            p.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(5)
        shutil.rmtree(tmp, ignore_errors=True)


def capture(env: dict[str, str], path: Path) -> None:
    _run("import", "-window", "root", str(path), env=env)


WEB_DRAW = """([rows, w, h, m, lost, layout, exploded]) => {
  stopAutoplay(); clearInterval(state.timer);
  $("hints").checked = false;
  state.game = {width: w, height: h, mines: m, board: rows,
    status: lost ? "lost" : "playing", layout: lost ? layout : null,
    exploded: exploded, moves: 1};
  state.rows = rows; state.analysis = null; render();
  const left = m - (rows.join("").split("F").length - 1);
  $("mine-counter").textContent = left < 0
    ? "-" + String(-left).padStart(2, "0") : String(left).padStart(3, "0");
}"""


def _browser(p: Any, spec: dict[str, Any], env: dict[str, str]) -> Any:
    sw, sh = spec["screen"]
    args = [
        "--no-sandbox", "--disable-gpu", "--no-first-run",
        f"--force-device-scale-factor={spec['scale']}",
    ]  # fmt: skip
    if spec["window"] == "maximised":
        args.append("--start-maximized")
    else:  # a window of the left part of the screen, in CSS pixels
        s = spec["scale"]
        args += [
            "--window-position=0,0",
            f"--window-size={int(sw * 0.62 / s)},{int((sh - 40) / s)}",
        ]
    return p.chromium.launch(
        executable_path="/usr/bin/chromium", headless=False, args=args, env=env
    )


def web_sample(name: str, spec: dict[str, Any], env: dict[str, str], port: int) -> str:
    from playwright.sync_api import sync_playwright

    rng = random.Random(spec["seed"])
    w, h, m = spec["board"]
    lost = spec["kind"] == "lost"
    make = synth.every_label_board if spec["kind"] == "every" else synth.random_board
    cells = make(rng, w, h, m, lost=lost)
    rows = [
        "".join("F" if v in (-2, synth.WRONG_FLAG) else "H" if v < 0 else str(v)
                for v in cells[i : i + w])
        for i in range(0, len(cells), w)
    ]  # fmt: skip
    mines_at = [[i % w, i // w] for i, v in enumerate(cells) if v in (synth.MINE, synth.EXPLODED)]
    mines_at += [[i % w, i // w] for i, v in enumerate(cells) if v == -2 and lost]
    exploded = next(([i % w, i // w] for i, v in enumerate(cells) if v == synth.EXPLODED), None)
    with sync_playwright() as p:
        browser = _browser(p, spec, env)
        page = browser.new_page(no_viewport=True)
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_function("document.querySelectorAll('#board .cell').length > 0")
        page.evaluate(WEB_DRAW, [rows, w, h, m, lost, mines_at, exploded])
        if spec.get("scroll", True):
            page.evaluate("document.getElementById('board').scrollIntoView({block: 'end'})")
        page.mouse.move(2, 2)
        time.sleep(1.0)
        capture(env, OUT / f"{name}.png")
        browser.close()
    return mvs.labels(cells, w, m)


def jsms_sample(name: str, spec: dict[str, Any], env: dict[str, str], port: int) -> str:
    from playwright.sync_api import sync_playwright

    rng = random.Random(spec["seed"])
    w, h, m = spec["board"]
    tile, kind = spec["tile"], spec["kind"]
    with sync_playwright() as p:
        browser = _browser(p, spec, env)
        page = browser.new_page(no_viewport=True)
        page.goto(f"http://127.0.0.1:{port}/index.html?board={w}x{h}x{m}")
        page.wait_for_function(
            "typeof board !== 'undefined' && board != null && board.tiles.length > 0",
            timeout=120_000,
        )
        page.uncheck("#autoplay")
        page.uncheck("#showhints")
        page.select_option("#overlay", "none")
        page.select_option("#tilesize", str(tile))
        layout, centres = mvs.jsms_layout(rng, w, h, m, every=kind == "every")
        mines = [w, h, m] + [v for i in sorted(layout) for v in (i % w, i // w)]
        page.evaluate("(mines) => newGameFromArray([mines, [], []])", mines)
        page.wait_for_function(f"board.width == {w} && board.height == {h}")
        mvs._jsms_play(page, rng, w, h, layout, centres, tile, 0.5, lost=False)
        page.mouse.move(2, 2)
        time.sleep(1.0)
        rows = page.evaluate(mvs.JSMS_LABEL_JS)
        mvs._jsms_check(rows, layout, w, h, lost=False)
        b = page.evaluate(
            "() => { const b = document.getElementById('board');"
            " return [b.clientWidth, b.clientHeight]; }"
        )
        if b[0] < w * tile or b[1] < h * tile:
            raise SystemExit(f"{name}: the board does not fit the page ({b})")
        capture(env, OUT / f"{name}.png")
        browser.close()
    return "\n".join([f"{w}x{h}x{m}", *rows]) + "\n"


LEVEL = {(8, 8): (0.30, 0.32), (16, 16): (0.70, 0.32), (30, 16): (0.30, 0.76)}
"""Where GNOME Mines' level buttons are, as a share of its window's size."""


def _runs(counts: Any, least: float) -> list[tuple[int, int]]:
    """The runs (start, end) of indices whose count is at least ``least``."""
    runs: list[tuple[int, int]] = []
    start = None
    for i, c in enumerate([*counts, 0]):
        if c >= least and start is None:
            start = i
        elif c < least and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _gnome_cells(path: Path, win: tuple[int, int, int, int], w: int, h: int) -> Any:
    """The centres of a fresh GNOME Mines board's tiles in the capture ``path``: the
    columns and rows of the window whose pixels differ from its background (the tiles,
    apart by lines of background) make runs, one a tile; ``None`` unless there are
    exactly ``w`` and ``h`` of them, evenly spaced."""
    import numpy as np
    from PIL import Image

    x0, y0, ww, wh = win
    rgb = np.asarray(Image.open(path).convert("RGB")).astype(int)[y0 : y0 + wh, x0 : x0 + ww]
    top = wh // 8  # below the header bar
    bg = rgb[top + 5, 8]
    off = np.abs(rgb - bg).max(axis=2) > 24
    off[:top] = False
    cols = _runs(off.sum(axis=0), 0.6 * off.sum(axis=0).max())
    rows = _runs(off.sum(axis=1), 0.6 * off.sum(axis=1).max())
    if len(cols) != w or len(rows) != h:
        return None
    for runs in (cols, rows):
        steps = np.diff([a for a, _ in runs])
        if len(steps) and steps.max() - steps.min() > 2:
            return None
    return [(x0 + (a + b) // 2, y0 + (c + d) // 2) for c, d in rows for a, b in cols]


def gnome_sample(name: str, spec: dict[str, Any], env: dict[str, str]) -> str:
    """GNOME Mines with its settings in a fresh folder, its level chosen with a click;
    flags placed (right clicks on a fresh board) on cells chosen beforehand, at the
    tiles' centres found in a capture of the fresh board (:func:`_gnome_cells`)."""
    rng = random.Random(spec["seed"])
    w, h, m = spec["board"]
    cfg = Path(tempfile.mkdtemp(prefix="desk-gm-"))
    genv = dict(env, GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=str(cfg))
    if spec["scale"] != 1.0:
        genv["GDK_SCALE"] = str(int(spec["scale"]))
    settings = {
        "theme": spec["theme"], "window-width": str(spec["size"][0]),
        "window-height": str(spec["size"][1]),
        "window-is-maximized": "true" if spec["window"] == "maximised" else "false",
    }  # fmt: skip
    for key, value in settings.items():
        _run("gsettings", "set", "org.gnome.Mines", key, value, env=genv)
    proc = subprocess.Popen(
        ["dbus-run-session", "--", "/usr/games/gnome-mines"],
        env=genv, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        win = _run("xdotool", "search", "--sync", "--onlyvisible", "--name", "^Mines$",
                   env=genv).split()[0]  # fmt: skip
        time.sleep(2.0)
        geo = dict(
            line.split("=") for line in _run("xdotool", "getwindowgeometry", "--shell", win,
                                             env=genv).split()
        )  # fmt: skip
        box = (int(geo["X"]), int(geo["Y"]), int(geo["WIDTH"]), int(geo["HEIGHT"]))
        fx, fy = LEVEL[(w, h)]
        _run("xdotool", "mousemove", str(box[0] + int(fx * box[2])),
             str(box[1] + int(fy * box[3])), "click", "1", env=genv)  # fmt: skip
        rest = (str(box[0] + box[2] - 20), str(box[1] + box[3] - 12))
        _run("xdotool", "mousemove", *rest, env=genv)
        time.sleep(1.5)
        capture(genv, OUT / f"{name}.png")
        centres = _gnome_cells(OUT / f"{name}.png", box, w, h)
        flags = set()
        if centres is not None and spec["kind"] == "flags":
            flags = set(rng.sample(range(w * h), m // 3))
            for i in sorted(flags):
                _run("xdotool", "mousemove", *map(str, centres[i]), "click", "3", env=genv)
                time.sleep(0.1)
            _run("xdotool", "mousemove", *rest, env=genv)
            time.sleep(1.0)
            capture(genv, OUT / f"{name}.png")
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(5)
        shutil.rmtree(cfg, ignore_errors=True)
    rows = ["".join("F" if y * w + x in flags else "H" for x in range(w)) for y in range(h)]
    return "\n".join([f"{w}x{h}x{m}", *rows]) + "\n"


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "manifest.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    server = None
    jsms_server = None
    for name, spec in SAMPLES.items():
        if names and name not in names:
            continue
        wallpaper = spec.get("wallpaper", "plasma")
        with desktop(spec["screen"], spec["seed"], wallpaper) as env:
            if spec["skin"] == "web":
                if server is None:
                    server, port = mvs._serve_app()
                text = web_sample(name, spec, env, port)
            elif spec["skin"] == "jsms":
                if jsms_server is None:
                    jsms_server, jport = _jsms_server()
                text = jsms_sample(name, spec, env, jport)
            elif spec["skin"].startswith("gnome"):
                text = gnome_sample(name, spec, env)
            elif spec["skin"].startswith("kmines") and spec.get("kind") == "play":
                text = native.kmines_play_sample(name, spec, env)
            elif spec["skin"].startswith("kmines"):
                text = native.kmines_sample(name, spec, env)
            elif spec["skin"] == "classic":
                text = native.metasweeper_sample(name, spec, env)
            else:
                text = native.xdemineur_sample(name, spec, env)
        (OUT / f"{name}.txt").write_text(text)
        w, h = spec["screen"]
        data[name] = {
            "skin": spec["skin"],
            "program": PROGRAM[spec["skin"]],
            "screen": f"{w}x{h}",
            "scale": spec["scale"],
            "window": spec["window"],
            "also_on_screen": f"openbox, tint2 panel, {wallpaper} wallpaper, xterm"
            + (", Metasweeper's score board" if spec["skin"] == "classic" else ""),
            "held_out": True,
            "labelled_from": spec.get("labelled_from") or LABELLED_FROM[spec["skin"].split("-")[0]],
        }
        for key in ("note", "expect"):  # expect: "refused" when no whole board shows
            if key in spec:
                data[name][key] = spec[key]
        print(name, data[name], flush=True)
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    if server is not None:
        server.should_exit = True
    if jsms_server is not None:
        jsms_server.shutdown()


def _jsms_server() -> tuple[Any, int]:
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory="/tmp/jsms")
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def measure(names: list[str]) -> None:
    """Each sample read once by today's reader: read exactly, refused (and why) or
    wrong, and the CPU seconds of the read (``time.process_time``), as a Markdown table."""
    from minesolver.vision import VisionError, read_screenshot

    data = json.loads((OUT / "manifest.json").read_text())
    print("| image | skin | scale | window | outcome | CPU s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in sorted(names or data):
        text = (OUT / f"{name}.txt").read_text().split()
        rows = text[1:] if re.fullmatch(r"\d+x\d+x\d+", text[0]) else text
        start = time.process_time()
        try:
            reading = read_screenshot(OUT / f"{name}.png")
            seen = reading.text().split()
            problem = reading.problem
        except VisionError as exc:
            seen, problem = [], str(exc)
        cpu = time.process_time() - start
        lost = any(ch in "*!x" for r in rows for ch in r)
        if problem is None:
            outcome = "read exactly" if seen == rows else "WRONG"
        elif lost and problem.startswith("the game is lost") and seen == rows:
            outcome = "read exactly (refused as lost)"
        else:
            outcome = f"refused: {problem[:90]}"
        e = data[name]
        print(
            f"| {name} | {e['skin']} | {e['scale']} | {e['window']} | {outcome} | {cpu:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the screens closed on a kill
    if sys.argv[1:2] == ["--measure"]:
        measure(sys.argv[2:])
    else:
        main(sys.argv[1:])
