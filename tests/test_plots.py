"""Images: ``solve --png``, ``bench --plot`` and the plotting functions; ``serve`` errors."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from matplotlib.image import imread

from minesolver.analysis import analyze
from minesolver.position import Position
from minesolver.ui.cli import main
from minesolver.ui.plots import plot_heat_map, plot_win_rates, win_rate_rows

ROOT = Path(__file__).resolve().parents[1]
PNG = b"\x89PNG\r\n\x1a\n"


def test_solve_png_writes_the_heat_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "heat.png"
    assert main(["solve", str(ROOT / "examples" / "expert-midgame.txt"), "--png", str(out)]) == 0
    assert out.read_bytes().startswith(PNG)
    height, width = imread(out).shape[:2]
    assert width > 1.5 * height  # a 30x16 board (and its colour bar) is wide
    assert "layouts" in capsys.readouterr().out


def test_heat_map_colours_follow_the_probabilities(tmp_path: Path) -> None:
    # a 1x2 board with one mine fixed by the digit: cell (0,1) certainly a mine (dark red)
    sure = analyze(Position.from_text("1x2x1\n1\nH\n"))
    assert sure.certain_mines == frozenset({(0, 1)})
    path = tmp_path / "sure.png"
    plot_heat_map(sure, path)
    image = imread(path)
    red = (image[..., 0] > 0.55) & (image[..., 1] < 0.1) & (image[..., 2] < 0.2)
    assert red.sum() > 100  # the certain mine's cell is painted the colour map's red end
    unsure = analyze(Position.from_text("3x1x1\nHHH\n"))
    plot_heat_map(unsure, tmp_path / "unsure.png")
    image = imread(tmp_path / "unsure.png")
    board = image[: image.shape[0] // 2]
    assert ((board[..., 0] > 0.55) & (board[..., 1] < 0.1) & (board[..., 2] < 0.2)).sum() < 50


def test_solve_png_unwritable(capsys: pytest.CaptureFixture[str]) -> None:
    known = str(ROOT / "examples" / "known-5x5.txt")
    assert main(["solve", known, "--png", "/nonexistent/dir/x.png"]) == 2
    assert capsys.readouterr().err.startswith("error: cannot write the heat map")


def test_win_rate_rows_accepts_every_bench_shape() -> None:
    one = {"level": "beginner", "player": "greedy", "games": 9, "win_rate": 0.5,
           "ci95": [0.2, 0.8]}  # fmt: skip
    many = {"results": {"best": {**one, "player": "best"}, "greedy": one}, "paired": []}
    assert win_rate_rows(one) == [one]
    assert [r["player"] for r in win_rate_rows(many)] == ["best", "greedy"]
    assert len(win_rate_rows([one, many])) == 3
    with pytest.raises(ValueError, match="no results"):
        plot_win_rates([], "unused.png")


def test_bench_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rates.png"
    argv = ["bench", "--level", "5x5x3", "--games", "4", "--player", "greedy",
            "--json", "--plot", str(out)]  # fmt: skip
    assert main(argv) == 0
    assert out.read_bytes().startswith(PNG)
    assert '"win_rate"' in capsys.readouterr().out


def test_serve_rejects_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "error: --port 70000" in capsys.readouterr().err
    assert main(["serve", "--budget", "0"]) == 2
    assert "--budget positive" in capsys.readouterr().err
    assert main(["serve", "--read-budget", "0"]) == 2
    assert "error: --read-budget 0 must be a positive number" in capsys.readouterr().err
    assert main(["serve", "--replay-budget", "0"]) == 2
    assert "error: --replay-budget 0 must be a positive number" in capsys.readouterr().err
    assert main(["serve", "--replay-budget", "nan"]) == 2
    assert "error: --replay-budget nan must be a positive number" in capsys.readouterr().err
    assert main(["serve", "--queue-wait", "inf"]) == 2
    assert "error: --queue-wait inf must be a positive number" in capsys.readouterr().err
