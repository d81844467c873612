"""``minesolver efficiency``: the table, the JSON lines, the clicks replaying, errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from minesolver.game import Game, Layout, Level, dump_layouts, random_layout
from minesolver.game.clicks import parse_notation
from minesolver.game.efficiency import hzini, zini
from minesolver.ui.cli import main

pytest.importorskip("pysat")

KEYS = {
    "width", "height", "mines", "bbbv", "zini", "hzini", "min_clicks", "optimal",
    "lower_bound", "clicks",
}  # fmt: skip


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _layouts() -> list[Layout]:
    rng = random.Random(8)
    return [random_layout(Level(9, 9, 10), rng) for _ in range(2)] + [
        Layout.from_cells(5, 1, [(2, 0)])
    ]


@pytest.mark.parametrize("suffix", [".txt", ".mbf"])
def test_json_one_line_per_layout_whose_clicks_win(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layouts = _layouts()
    path = tmp_path / f"boards{suffix}"
    dump_layouts(layouts, path)
    code, out, err = run(["efficiency", str(path), "--json", "--budget", "100000"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == len(layouts)
    for line, layout in zip(lines, layouts, strict=True):
        row = json.loads(line)
        assert set(row) >= KEYS
        assert (row["width"], row["height"], row["mines"]) == (
            layout.width, layout.height, len(layout.mine_indices)
        )  # fmt: skip
        assert (row["zini"], row["hzini"]) == (zini(layout), hzini(layout))
        assert row["optimal"] is True and row["lower_bound"] == row["min_clicks"]
        assert row["min_clicks"] <= row["zini"]
        game = Game.from_layout(layout)
        for text in row["clicks"]:
            game.push(parse_notation(text))
        assert game.outcome.won and len(row["clicks"]) == row["min_clicks"]
    assert json.loads(lines[-1])["clicks"] == ["L 0,0", "L 4,0"]


def test_table_names_the_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.txt"
    path.write_text("# a board\n5x1x1: 2,0\n")
    code, out, err = run(["efficiency", str(path)], capsys)
    assert code == 0, err
    for word in ("3BV", "ZiNi", "HZiNi", "fewest clicks", "proved", "L 0,0 L 4,0", "1 mine"):
        assert word in out


def test_past_the_budget_says_what_is_proved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # no work at all: the ZiNi family's best and the bound that needs no search, never 0
    path = tmp_path / "expert.txt"
    dump_layouts([random_layout(Level(30, 16, 99), random.Random(3))], path)
    args = ["efficiency", str(path), "--json", "--budget", "0", "--seconds", "0"]
    code, out, err = run(args, capsys)
    assert code == 0, err
    row = json.loads(out)
    assert 0 < row["lower_bound"] < row["min_clicks"] <= min(row["zini"], row["hzini"])
    assert (row["optimal"], row["cut"], row["work"]) == (False, "work", 0)
    code, out, err = run([a for a in args if a != "--json"], capsys)
    assert code == 0, err
    assert "at least" in out and "0 steps, 0 rounds: the budget ran out" in out


def test_the_same_board_and_budget_give_the_same_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a budget in steps, no deadline: nothing in the answer depends on the machine
    path = tmp_path / "boards.txt"
    rng = random.Random(5)
    dump_layouts(
        [random_layout(Level(30, 16, 99), rng), random_layout(Level(16, 16, 40), rng)], path
    )
    args = ["efficiency", str(path), "--json", "--budget", "3000", "--seconds", "0"]
    runs = []
    for _ in range(2):
        code, out, err = run(args, capsys)
        assert code == 0, err
        runs.append(
            [
                {k: v for k, v in json.loads(line).items() if k != "seconds"}
                for line in out.splitlines()
            ]
        )
    assert runs[0] == runs[1] and len(runs[0]) == 2
    assert runs[0][0]["cut"] == "work" and 3000 <= runs[0][0]["work"] < 4000


def test_three_runs_at_once_print_the_same_lines(tmp_path: Path) -> None:
    # three processes side by side compete for the cores: the budget counts steps, so
    # each prints the same JSON lines (but for the seconds), with the default deadline
    path = tmp_path / "boards.txt"
    rng = random.Random(6)
    dump_layouts(
        [random_layout(Level(30, 16, 99), rng), random_layout(Level(16, 16, 40), rng)], path
    )
    code = "import sys; from minesolver.ui.cli import main; sys.exit(main(sys.argv[1:]))"
    args = [sys.executable, "-c", code, "efficiency", str(path), "--json", "--budget", "20000"]
    runs = [
        subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outs = []
    for proc in runs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-500:]
        lines = [json.loads(line) for line in out.splitlines()]
        outs.append([{k: v for k, v in line.items() if k != "seconds"} for line in lines])
    assert outs[0] == outs[1] == outs[2] and len(outs[0]) == 2
    assert "deadline" not in [line["cut"] for line in outs[0]]
    assert outs[0][0]["cut"] == "work" and outs[0][0]["work"] <= 20_000 + 10


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("garbage\n", [], "line 1"),
        ("9x9x10: 0,0\n", [], "header says 10 mines"),
        ("5x1x1: 2,0\n", ["--budget", "-1"], "--budget"),
        ("5x1x1: 2,0\n", ["--seconds", "-1"], "--seconds"),
    ],
)
def test_bad_input_is_one_error_line(
    content: str,
    args: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(content)
    code, out, err = run(["efficiency", str(path), *args], capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_a_missing_file_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["efficiency", str(tmp_path / "nope.mbf")], capsys)
    assert code == 2 and err.startswith("error: cannot read")


def test_help_shows_the_argument_and_the_budget(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["efficiency", "--help"]) == 0
    out = capsys.readouterr().out
    assert "efficiency [OPTIONS] FILE" in out
    assert "--budget" in out and "STEPS" in out and "<integer>" not in out
    assert "--seconds" in out and "SECONDS" in out and "<float>" not in out


def test_without_python_sat_the_error_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pysat.examples.rc2", None)  # import fails
    path = tmp_path / "one.txt"
    path.write_text("3x3x1: 1,1\n")  # eight 1s: 5 clicks, which only the search proves
    code, out, err = run(["efficiency", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and "pip install python-sat" in err


def test_the_defaults_are_the_library_s() -> None:
    from minesolver.game.clicks import DEFAULT_SECONDS, DEFAULT_WORK
    from minesolver.ui import cli

    assert (cli.EFFICIENCY_WORK, cli.EFFICIENCY_SECONDS) == (DEFAULT_WORK, DEFAULT_SECONDS)
