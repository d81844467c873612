"""The desktop programs' samples of make_desktop_samples.py: KMines, xdemineur, Metasweeper.

Each function runs the program on the virtual screen that ``make_desktop_samples.desktop``
made (openbox, tint2, a wallpaper, an xterm), brings the board to a state it can vouch
for, saves the whole screen as ``OUT/NAME.png`` and returns the label (position text).
How each is labelled:

- KMines (:func:`kmines_sample`): its own settings in a fresh folder (``HOME`` and
  ``XDG_CONFIG_HOME``; ``kminesrc`` names the level, ``[KgDifficulty] Level=``, and the
  theme, ``[KgTheme] Theme=themes/NAME.desktop``), ``QT_SCALE_FACTOR`` for the display
  scale (KMines, a Qt program, honours it). A fresh board (no click, so every cell
  closed) with flags placed by right clicks on cells chosen beforehand: the label is
  those flags. The clicks go to the tiles' centres found in a capture of the fresh board
  (:func:`_kmines_grid`), and the sample is kept only if the capture after them shows a
  flag's red exactly on the cells flagged (:func:`_kmines_check`). Boards in play
  (:func:`kmines_play_sample`) in the classic theme only, at display scale 1 and a cell
  size of the person-labelled classic samples: that theme draws each kind of cell the
  same to the pixel at one size, so the cells are labelled as xdemineur's below.
- xdemineur (:func:`xdemineur_sample`): it opens a region of its own when it starts (no
  click sent), so its state is not the script's to choose and it has no way to tell it.
  Its cells are drawn the same to the pixel each time: the 15 kinds of cell (closed,
  0-8, flag, question mark, mine, the mine that exploded, a crossed-out flag) are cut
  from the labelled xdemineur samples of tests/data/vision (each labelled by a person,
  one image per kind, no two kinds alike: :func:`cell_kinds`) and each cell of a
  capture, near the place the X server gives for the window (board from ``(16, 81)``
  inside it, 21-pixel cells), is labelled by the kind whose pixels it equals exactly
  (:func:`exact_board`); a cell equal to none makes no sample. Moves are safe cells
  and certain mines by the exact analysis of the board so labelled (:func:`_play`);
  the label must be consistent (a test checks). It draws fixed pixmaps (no display
  scale) in a window of fixed size (the window manager cannot maximise it).
- Metasweeper (:func:`metasweeper_sample`, skin ``classic``): run in-process by
  ``desktop_metasweeper.py`` with its own Python (its source in ``$METASWEEPER``,
  default ``/tmp/metasweeper``, with a virtual environment of its own: see that script),
  a layout laid from a seed, moves sent through its board's mouse signals; the label is
  its own game board. ``QT_SCALE_FACTOR`` for the display scale. Its window keeps the
  size of its board (none is maximised).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VISION = ROOT / "tests" / "data" / "vision"
KMINES_LEVEL = {(9, 9, 10): "Easy", (16, 16, 40): "Medium", (30, 16, 99): "Hard"}
XD_CELL = 21
XD_BOARD = (16, 81)
"""xdemineur's board inside its window (pixels) and its cells' size, as its samples."""


def _geometry(win: str, env: dict[str, str]) -> tuple[int, int, int, int]:
    import make_desktop_samples as mds

    shell = mds._run("xdotool", "getwindowgeometry", "--shell", win, env=env)
    geo = dict(line.split("=") for line in shell.split())
    return int(geo["X"]), int(geo["Y"]), int(geo["WIDTH"]), int(geo["HEIGHT"])


def _place(win: str, spec: dict[str, Any], env: dict[str, str]) -> None:
    """The window maximised by the window manager, or sized and moved as ``spec`` says."""
    import make_desktop_samples as mds

    if spec["window"] == "maximised":
        mds._run("wmctrl", "-i", "-r", win, "-b", "add,maximized_vert,maximized_horz", env=env)
    elif "size" in spec:
        mds._run("xdotool", "windowsize", win, *map(str, spec["size"]), env=env)
        mds._run("xdotool", "windowmove", win, *map(str, spec.get("at", (30, 30))), env=env)
    time.sleep(2.0)


def _rgb(path: Path) -> Any:
    import numpy as np
    from PIL import Image

    return np.asarray(Image.open(path).convert("RGB")).astype(int)


def _kmines_grid(
    path: Path, box: tuple[int, int, int, int], w: int, h: int, theme: str
) -> list[tuple[int, int]] | None:
    """The centres of a fresh KMines board's tiles in the capture ``path`` of its window
    ``box`` (see :func:`kmines_board`), ``None`` when no board is found."""
    board = kmines_board(path, box, w, h, theme)
    return None if board is None else _centres(board, w, h)


def _centres(board: tuple[float, float, float, float], w: int, h: int) -> list[tuple[int, int]]:
    """The centres of the ``w`` x ``h`` tiles of a board's box, rounded to pixels."""
    left, top, right, bottom = board
    sx, sy = (right - left) / w, (bottom - top) / h
    return [
        (round(left + (i + 0.5) * sx), round(top + (j + 0.5) * sy))
        for j in range(h)
        for i in range(w)
    ]


def kmines_board(
    path: Path, box: tuple[int, int, int, int], w: int, h: int, theme: str
) -> tuple[float, float, float, float] | None:
    """The box (left, top, right, bottom, in the capture's pixels) of a fresh KMines
    board's ``w`` x ``h`` tiles in the capture ``path`` of its window ``box``: in the
    default theme inside the board's dark frame; in the classic theme from the dark line
    at each tile's right and bottom edge (exactly ``w`` and ``h`` of them, evenly
    spaced). ``None`` when the capture shows neither, or tiles that are not square."""
    import make_desktop_samples as mds

    x0, y0, ww, wh = box
    rgb = _rgb(path)[y0 : y0 + wh, x0 : x0 + ww]
    dark = rgb.max(axis=2) < (110 if theme == "default" else 170)
    colc = dark.sum(axis=0)
    colc[colc >= 0.95 * wh] = 0  # lines down the whole window: its edges, not the board
    cols = [r for r in mds._runs(colc, 0.6 * colc.max()) if r[0] > 0 and r[1] < ww]
    if len(cols) < 2:
        return None
    rowc = dark[:, cols[0][0] : cols[-1][1]].sum(axis=1)  # across the board's columns
    rows = [r for r in mds._runs(rowc, 0.6 * rowc.max()) if r[0] > 0 and r[1] < wh]
    if theme != "default":  # the longest chain of evenly spaced lines (not the status bar's)
        cols, rows = _even(cols), _even(rows)
    if len(cols) < 2 or len(rows) < 2:
        return None
    if theme == "default":  # the frame: its left, right and top sides, then its bottom
        left, right, top = cols[0][1], cols[-1][0], rows[0][1]
        bottom = top + h * (right - left) / w
        near = [a for a, _ in rows if abs(a - bottom) <= 2]
        if len(near) != 1:
            return None
        bottom = near[0]
    else:
        if len(cols) != w or len(rows) != h:
            return None
        sx = (cols[-1][0] - cols[0][0]) / (w - 1)
        sy = (rows[-1][0] - rows[0][0]) / (h - 1)
        left, right = cols[-1][0] + 1 - w * sx, cols[-1][0] + 1
        top, bottom = rows[-1][0] + 1 - h * sy, rows[-1][0] + 1
    sx, sy = (right - left) / w, (bottom - top) / h
    if abs(sx - sy) > 1.0 or sx < 8:
        return None
    return x0 + left, y0 + top, x0 + right, y0 + bottom


def _even(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of consecutive runs evenly spaced (their starts' steps within
    2 pixels of each other)."""
    best: list[tuple[int, int]] = runs[:1]
    for i in range(len(runs) - 1):
        chain = runs[i : i + 2]
        step = chain[1][0] - chain[0][0]
        for run in runs[i + 2 :]:
            if abs(run[0] - chain[-1][0] - step) > 2:
                break
            chain.append(run)
        if len(chain) > len(best):
            best = chain
    return best


def _kmines_check(path: Path, centres: list[tuple[int, int]], size: int, flags: set[int]) -> None:
    """The capture against the flags placed: the middle of each tile shows a flag's red
    exactly when it was flagged, else the sample is not made."""
    rgb = _rgb(path)
    r = max(3, size // 3)
    for i, (x, y) in enumerate(centres):
        cell = rgb[y - r : y + r, x - r : x + r]
        red = ((cell[..., 0] > 170) & (cell[..., 1] < 90) & (cell[..., 2] < 90)).sum()
        if (red >= 3) != (i in flags):
            raise SystemExit(f"{path.name}: tile {i} (red {red}) is not as placed")


@contextlib.contextmanager
def _kmines(
    spec: dict[str, Any], env: dict[str, str]
) -> Iterator[tuple[dict[str, str], tuple[int, int, int, int], tuple[str, str]]]:
    """KMines with its settings in a fresh folder, its window placed; yields its
    environment, its window's box and where the pointer rests: the tool bar's empty
    right end (over a tile KMines lights it)."""
    import make_desktop_samples as mds

    home = Path(tempfile.mkdtemp(prefix="desk-km-"))
    (home / "cfg").mkdir()
    (home / "cfg" / "kminesrc").write_text(
        f"[KgDifficulty]\nLevel={KMINES_LEVEL[tuple(spec['board'])]}\n\n"
        f"[KgTheme]\nTheme=themes/{spec['theme']}.desktop\n"
    )
    kenv = dict(env, HOME=str(home), XDG_CONFIG_HOME=str(home / "cfg"), QT_QPA_PLATFORM="xcb")
    if spec["scale"] != 1.0:
        kenv["QT_SCALE_FACTOR"] = str(spec["scale"])
    proc = subprocess.Popen(
        ["dbus-run-session", "--", "/usr/games/kmines"],
        env=kenv, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        win = mds._run("xdotool", "search", "--sync", "--onlyvisible", "--classname", "kmines",
                       env=kenv).split()[-1]  # fmt: skip
        time.sleep(1.0)
        _place(win, spec, kenv)
        box = _geometry(win, kenv)
        rest = (str(box[0] + box[2] - 20), str(box[1] + int(60 * spec["scale"])))
        mds._run("xdotool", "mousemove", *rest, env=kenv)
        time.sleep(0.5)
        yield kenv, box, rest
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(5)
        shutil.rmtree(home, ignore_errors=True)


def kmines_sample(name: str, spec: dict[str, Any], env: dict[str, str]) -> str:
    with _kmines(spec, env) as (kenv, box, rest):
        rows, _ = kmines_flagged(OUT() / f"{name}.png", spec, kenv, box, rest)
    w, h, m = spec["board"]
    return "\n".join([f"{w}x{h}x{m}", *rows]) + "\n"


def kmines_flagged(
    png: Path,
    spec: dict[str, Any],
    kenv: dict[str, str],
    box: tuple[int, int, int, int],
    rest: tuple[str, str],
) -> tuple[list[str], tuple[float, float, float, float]]:
    """A fresh KMines board (window ``box``, pointer resting at ``rest``) captured into
    ``png`` with flags right-clicked on ``spec["flags"]`` cells drawn by ``spec["seed"]``,
    checked in the capture: its rows (``F`` and ``H``) and the board's box."""
    import make_desktop_samples as mds

    rng = random.Random(spec["seed"])
    w, h, _ = spec["board"]
    mds.capture(kenv, png)
    board = kmines_board(png, box, w, h, spec["theme"])
    if board is None:
        raise SystemExit(f"{png.name}: no KMines board of {w}x{h} tiles found")
    centres = _centres(board, w, h)
    flags = set(rng.sample(range(w * h), spec["flags"]))
    for i in sorted(flags):
        mds._run("xdotool", "mousemove", *map(str, centres[i]), "click", "3", env=kenv)
        time.sleep(0.1)
    mds._run("xdotool", "mousemove", *rest, env=kenv)
    time.sleep(1.0)
    mds.capture(kenv, png)
    _kmines_check(png, centres, centres[1][0] - centres[0][0], flags)
    rows = ["".join("F" if y * w + x in flags else "H" for x in range(w)) for y in range(h)]
    return rows, board


def kmines_play_sample(name: str, spec: dict[str, Any], env: dict[str, str]) -> str:
    """KMines' classic theme in play, at display scale 1 in a window whose tiles are
    ``spec["cell"]`` pixels, a size of the person-labelled classic samples: the first
    click in the middle, then moves by :func:`_play`; each capture's cells labelled by
    :func:`exact_board` with the kinds of :func:`cell_kinds` (the classic theme draws
    each kind the same to the pixel at one size)."""
    import make_desktop_samples as mds

    rng = random.Random(spec["seed"])
    w, h, m = spec["board"]
    size = spec["cell"]
    kinds = cell_kinds("kmines-classic", size)
    with _kmines(spec, env) as (kenv, box, rest):
        png = OUT() / f"{name}.png"
        mds.capture(kenv, png)
        centres = _kmines_grid(png, box, w, h, spec["theme"])
        if centres is None:
            raise SystemExit(f"{name}: no KMines board of {w}x{h} tiles found")
        guess = (centres[0][0] - size // 2, centres[0][1] - size // 2)

        def read() -> tuple[list[str], tuple[int, int]]:
            mds._run("xdotool", "mousemove", *rest, env=kenv)
            time.sleep(0.8)
            mds.capture(kenv, png)
            return exact_board(png, guess, w, h, size, kinds, 4)

        def click(at: tuple[int, int], x: int, y: int, button: str) -> None:
            cx, cy = at[0] + size * x + size // 2, at[1] + size * y + size // 2
            mds._run("xdotool", "mousemove", str(cx), str(cy), "click", button, env=kenv)
            time.sleep(0.15)

        _, at = read()
        click(at, w // 2, h // 2, "1")
        rows = _play(spec, rng, (w, h, m), read, click)
    return "\n".join([f"{w}x{h}x{m}", *rows]) + "\n"


def OUT() -> Path:  # the samples' folder, as make_desktop_samples names it
    import make_desktop_samples as mds

    return mds.OUT


def cell_kinds(skin: str, size: int) -> dict[bytes, str]:
    """Each kind of ``skin``'s cell drawn ``size`` pixels square (its pixels, RGB) and
    its label, cut from the labelled samples of tests/data/vision whose board's box is
    exactly that many pixels a cell (each sample labelled by a person); an error if one
    image has two labels."""
    samples = json.loads((VISION / "samples.json").read_text())
    kinds: dict[bytes, str] = {}
    for name, entry in samples.items():
        if entry["skin"] != skin:
            continue
        text = (VISION / f"{name}.txt").read_text().split()
        rows = [r for r in text if not re.fullmatch(r"\d+x\d+x\d+", r)]
        left, top, right, bottom = entry["box"]
        if (right - left, bottom - top) != (size * len(rows[0]), size * len(rows)):
            continue
        rgb = _rgb(VISION / f"{name}.png").astype("uint8")
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                y0, x0 = top + size * y, left + size * x
                key = rgb[y0 : y0 + size, x0 : x0 + size].tobytes()
                if kinds.setdefault(key, ch) != ch:
                    raise SystemExit(f"{name}: one {skin} cell image labelled two ways")
    return kinds


def exact_board(
    path: Path,
    guess: tuple[int, int],
    w: int,
    h: int,
    size: int,
    kinds: dict[bytes, str],
    reach: int,
) -> tuple[list[str], tuple[int, int]]:
    """The board's rows (and its top-left pixel) in the capture ``path``: its top-left
    cell is sought within ``reach`` pixels of ``guess``, each cell the kind whose pixels
    it equals exactly; every cell of the ``w`` x ``h`` board must be one, at one place
    only, else no sample is made."""
    rgb = _rgb(path).astype("uint8")

    def cell(x0: int, y0: int) -> str | None:
        return kinds.get(rgb[y0 : y0 + size, x0 : x0 + size].tobytes())

    def board(left: int, top: int) -> list[str] | None:
        rows = []
        for y in range(h):
            row = [cell(left + size * x, top + size * y) for x in range(w)]
            if None in row:
                return None
            rows.append("".join(str(ch) for ch in row))
        return rows

    found = [
        (rows, (guess[0] + dx, guess[1] + dy))
        for dy in range(-reach, reach + 1)
        for dx in range(-reach, reach + 1)
        if cell(guess[0] + dx, guess[1] + dy) is not None
        and (rows := board(guess[0] + dx, guess[1] + dy))
    ]
    if len(found) != 1:
        raise SystemExit(f"{path.name}: {len(found)} places for a board of known cells")
    return found[0]


def _play(
    spec: dict[str, Any],
    rng: random.Random,
    board: tuple[int, int, int],
    read: Any,
    click: Any,
) -> list[str]:
    """``spec["moves"]`` rounds of play: the board labelled (``read()``: rows and the
    board's top-left pixel), then ``opens`` of its safe cells and ``flags`` of its
    certain mines (by the exact analysis of those rows) clicked (``click(at, x, y,
    button)``); the rows at the end. A lost board ends the play."""
    from minesolver.analysis import analyze
    from minesolver.position import Position

    w, h, m = board
    for _ in range(spec["moves"]):
        rows, at = read()
        if any(ch in "!*x" for row in rows for ch in row):
            return list(rows)
        analysis = analyze(Position.from_text("\n".join([f"{w}x{h}x{m}", *rows])))
        safe = sorted(analysis.safe)
        mines = sorted(c for c in analysis.certain_mines if rows[c[1]][c[0]] == "H")
        picks = [(c, "1") for c in rng.sample(safe, min(len(safe), spec["opens"]))]
        picks += [(c, "3") for c in rng.sample(mines, min(len(mines), spec["flags"]))]
        for (x, y), button in picks:
            click(at, x, y, button)
    return list(read()[0])


def _lose(
    rows: list[str], board: tuple[int, int, int], read: Any, click: Any
) -> tuple[list[str], tuple[int, int]]:
    """A left click on the first closed cell that the exact analysis of ``rows`` proves
    a mine; the rows read after it (a lost board), else no sample."""
    from minesolver.analysis import analyze
    from minesolver.position import Position

    w, h, m = board
    analysis = analyze(Position.from_text("\n".join([f"{w}x{h}x{m}", *rows])))
    mines = sorted((y, x) for x, y in analysis.certain_mines if rows[y][x] == "H")
    if not mines:
        raise SystemExit("no closed cell is a certain mine: the game cannot be lost for sure")
    _, at = read()
    click(at, mines[0][1], mines[0][0], "1")
    lost, at = read()
    if not any(ch == "!" for row in lost for ch in row):
        raise SystemExit("the click on a certain mine did not lose the game")
    return lost, at


def xdemineur_sample(name: str, spec: dict[str, Any], env: dict[str, str]) -> str:
    import make_desktop_samples as mds

    rng = random.Random(spec["seed"])
    w, h, m = spec["board"]
    kinds = cell_kinds("xdemineur", XD_CELL)
    proc = subprocess.Popen(
        ["/usr/games/xdemineur", "-geometry", f"{w}x{h}+40+60", "-m", str(m)],
        env=env, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        found = mds._run("xdotool", "search", "--sync", "--onlyvisible", "--classname",
                         "xdemineur", env=env).split()  # fmt: skip
        if len(found) != 1:
            raise SystemExit(f"{name}: {len(found)} xdemineur windows on the screen")
        win = found[0]
        time.sleep(1.0)
        _place(win, spec, env)
        wx, wy = mds._origin(win, env)
        png = OUT() / f"{name}.png"
        rest = (str(wx + 5), str(wy + 5))

        def read() -> tuple[list[str], tuple[int, int]]:
            mds._run("xdotool", "mousemove", *rest, env=env)
            time.sleep(0.8)
            mds.capture(env, png)
            guess = (wx + XD_BOARD[0], wy + XD_BOARD[1])  # give or take the frame
            return exact_board(png, guess, w, h, XD_CELL, kinds, 30)

        def click(at: tuple[int, int], x: int, y: int, button: str) -> None:
            cx, cy = at[0] + XD_CELL * x + 11, at[1] + XD_CELL * y + 11
            mds._run("xdotool", "mousemove", str(cx), str(cy), "click", button, env=env)
            time.sleep(0.1)

        rows = _play(spec, rng, (w, h, m), read, click)
        if spec.get("kind") == "lost":  # then a click on a certain mine, to lose
            rows, _ = _lose(rows, (w, h, m), read, click)
    finally:
        proc.terminate()
        proc.wait(5)
    return "\n".join([f"{w}x{h}x{m}", *rows]) + "\n"


def metasweeper_sample(name: str, spec: dict[str, Any], env: dict[str, str]) -> str:
    """Metasweeper plays a layout of ``spec["seed"]``: the first click in the middle (its
    neighbours kept free of mines), then ``opens`` safe cells and ``flags`` mines chosen
    at random, and for ``kind="lost"`` a click on a mine at the end."""
    rng = random.Random(spec["seed"])
    w, h, m = spec["board"]
    first = (h // 2, w // 2)
    cells = [(r, c) for r in range(h) for c in range(w)]
    near = {(first[0] + dr, first[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    layout = set(rng.sample([c for c in cells if c not in near], m))
    opens = [first, *rng.sample([c for c in cells if c not in layout], spec["opens"])]
    flags = rng.sample(sorted(layout), spec["flags"])
    boom = next(c for c in sorted(layout, key=lambda _: rng.random()) if c not in flags)
    home = Path(os.environ.get("METASWEEPER", "/tmp/metasweeper"))
    with tempfile.TemporaryDirectory(prefix="desk-ms-") as tmp:
        drive = {
            "rows": h, "cols": w, "mines": m, "pix": spec["pix"],
            "layout": sorted(layout), "opens": opens, "flags": flags,
            "boom": boom if spec["kind"] == "lost" else None,
            "at": [30, 30],
            "png": str(OUT() / f"{name}.png"), "label": f"{tmp}/label.json",
        }  # fmt: skip
        Path(tmp, "spec.json").write_text(json.dumps(drive))
        menv = dict(env, QT_QPA_PLATFORM="xcb", METASWEEPER=str(home))
        if spec["scale"] != 1.0:
            menv["QT_SCALE_FACTOR"] = str(spec["scale"])
        subprocess.run(
            [str(home / ".venv" / "bin" / "python"),
             str(ROOT / "scripts" / "desktop_metasweeper.py"), f"{tmp}/spec.json"],
            env=menv, check=True, timeout=300, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        state = json.loads(Path(tmp, "label.json").read_text())
    code = {10: "H", 11: "F", 14: "x", 15: "!", 16: "*"}
    rows = ["".join(code[v] if v > 8 else str(v) for v in row) for row in state["game_board"]]
    if spec["kind"] != "lost" and state["state"] != "playing":
        raise SystemExit(f"{name}: the game is {state['state']}, not in play")
    print(name, "board widget", state["widget"], "ratio", state["ratio"], flush=True)
    return "\n".join([f"{w}x{h}x{m}", *rows]) + "\n"
