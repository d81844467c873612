"""Play one Metasweeper game as told and capture the desktop (run by make_desktop_samples.py).

    METASWEEPER/.venv/bin/python scripts/desktop_metasweeper.py SPEC.json

Run with Metasweeper's own Python (github eee555/Solvable-Minesweeper, its source in the
folder ``METASWEEPER``, a virtual environment of its own with ``pyQt5==5.15.7`` and
``ms-toollib==1.4.12``; none of its code is copied here) on the virtual display of
``DISPLAY``. It imports the program's main window in-process (its ``main.py`` is for
Windows only), starts a game of ``rows`` x ``cols`` with ``mines`` at a cell size of
``pix`` pixels, lays the layout given (its ``layMine`` is replaced; its calls into
Windows do nothing; a lost game is not restarted by itself), and plays through the
board's own mouse signals: left clicks on ``opens`` (rows and columns), right clicks on
``flags``, then the left click ``boom`` (a mine) if any. Then it saves the whole screen
(``import -window root``) to ``png`` and writes the program's own game board to
``label`` as JSON (ms-toollib's codes: 0-8, 10 closed, 11 flag, 14 crossed-out flag, 15
the mine that exploded, 16 a mine), with the board widget's box on the screen. Its main
window keeps the size of its board (it undoes any other size, a window manager's
maximising too).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    src = Path(os.environ.get("METASWEEPER", "/tmp/metasweeper")) / "src"
    for name in ("gameSetting.ini", "record.ini", "scoreBoardSetting.ini"):
        (src.parent / name).unlink(missing_ok=True)  # its settings fresh each time
    os.chdir(src)
    sys.path.insert(0, str(src))
    import mainWindowGUI
    import mineSweeperGUI
    from PyQt5 import QtCore, QtWidgets

    app = QtWidgets.QApplication([str(src / "main.py")])
    window = mainWindowGUI.MainWindow()
    ui = mineSweeperGUI.MineSweeperGUI(window, [str(src / "main.py")])
    windows_only = ("disable_screenshot", "enable_screenshot", "limit_cursor", "unlimit_cursor")
    for call in windows_only:
        setattr(ui, call, lambda: None)  # Windows' calls, not on X
    ui.auto_replay = -1  # a lost game stays on screen (its setting "allow_auto_replay" off)
    rows, cols, mines = spec["rows"], spec["cols"], spec["mines"]
    layout = {(r, c) for r, c in spec["layout"]}
    board = [
        [
            -1 if (r, c) in layout else sum(
                (r + dr, c + dc) in layout for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            )
            for c in range(cols)
        ]
        for r in range(rows)
    ]  # fmt: skip

    def lay(i: int, j: int) -> None:
        ui.label.ms_board.board = board

    ui.layMine = lay
    window.move(*spec.get("at", (40, 40)))
    ui.setBoard_and_start(rows, cols, mines)
    ui.pixSize = spec["pix"]
    ui.gameRestart()
    window.show()
    pix = ui.pixSize

    def settle(ms: int = 300) -> None:
        loop = QtCore.QEventLoop()
        QtCore.QTimer.singleShot(ms, loop.quit)
        loop.exec_()

    settle(1500)
    label = ui.label
    for r, c in spec["opens"]:
        y, x = r * pix + pix // 2, c * pix + pix // 2
        label.leftPressed.emit(y, x)
        label.leftRelease.emit(y, x)
        settle(30)
    for r, c in spec["flags"]:
        y, x = r * pix + pix // 2, c * pix + pix // 2
        label.rightPressed.emit(y, x)
        label.rightRelease.emit(y, x)
        settle(30)
    if spec.get("boom"):
        r, c = spec["boom"]
        label.leftPressed.emit(r * pix + pix // 2, c * pix + pix // 2)
        label.leftRelease.emit(r * pix + pix // 2, c * pix + pix // 2)
    ui.timer_10ms.stop()
    settle(1500)
    subprocess.run(["import", "-window", "root", spec["png"]], check=True)
    at = label.mapToGlobal(QtCore.QPoint(0, 0))
    ratio = label.devicePixelRatioF()
    game = [[int(v) for v in row] for row in label.ms_board.game_board]
    Path(spec["label"]).write_text(
        json.dumps(
            {
                "game_board": game,
                "state": ui.game_state,
                "widget": [at.x(), at.y(), label.width(), label.height()],
                "ratio": ratio,
                "pix": pix,
            }
        )
    )
    window.hide()
    app.quit()


if __name__ == "__main__":
    main(sys.argv[1])
