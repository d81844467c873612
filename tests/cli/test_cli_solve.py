"""``minesolver solve``: the JSON object of issue 2 item 5, the options, and the
``error: …`` line with exit status 2 for every kind of bad input.

Most tests call :func:`minesolver.ui.cli.main` in-process; two run the installed console
script in a real subprocess.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from minesolver import FLAG, HIDDEN, Position
from minesolver.ui.cli import main

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "known-5x5.txt"
SCRIPT = Path(sys.executable).parent / "minesolver"

SPEC_KEYS = {"width", "height", "mines", "layouts", "cells", "safe", "mines_found", "best"}


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    out: dict[str, Any] = json.loads(captured.out)
    return out


def check_shape(out: dict[str, Any], position: Position, trust_flags: bool = True) -> None:
    """The JSON object as issue 2 item 5 defines it, for ``position``."""
    assert set(out) >= SPEC_KEYS
    assert (out["width"], out["height"]) == (position.width, position.height)
    assert isinstance(out["layouts"], str) and out["layouts"].isdigit()
    assert int(out["layouts"]) >= 1
    unknown = {
        c for c in position if position[c] == HIDDEN or (position[c] == FLAG and not trust_flags)
    }
    cells = out["cells"]
    assert [set(c) >= {"x", "y", "p", "prob"} for c in cells] == [True] * len(cells)
    assert {(c["x"], c["y"]) for c in cells} == unknown
    assert len(cells) == len(unknown)  # one entry per cell
    for c in cells:
        assert type(c["x"]) is int and type(c["y"]) is int
        assert isinstance(c["p"], str) and isinstance(c["prob"], float)
        p = Fraction(c["p"])
        assert 0 <= p <= 1
        assert c["p"] == (
            str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
        )  # "0", "1" or "num/den" in lowest terms
        assert c["prob"] == pytest.approx(float(p), abs=1e-12)
    by_cell = {(c["x"], c["y"]): Fraction(c["p"]) for c in cells}
    assert sorted(map(tuple, out["safe"])) == sorted(c for c, p in by_cell.items() if p == 0)
    assert sorted(map(tuple, out["mines_found"])) == sorted(c for c, p in by_cell.items() if p == 1)
    assert all(
        len(c) == 2 and all(type(v) is int for v in c) for c in out["safe"] + out["mines_found"]
    )
    if out["best"] is not None:
        best = tuple(out["best"])
        assert by_cell[best] == min(by_cell.values())


def test_json_of_the_design_example(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(["solve", str(EXAMPLE), "--json"], capsys)
    position = Position.from_text(EXAMPLE.read_text(encoding="utf-8"))
    check_shape(out, position)
    assert (out["width"], out["height"], out["mines"], out["layouts"]) == (5, 5, 5, "72")
    probs = {(c["x"], c["y"]): c["p"] for c in out["cells"]}
    assert probs[(1, 1)] == "5/6" and probs[(0, 1)] == "1/6" and probs[(2, 1)] == "0"
    assert probs[(4, 4)] == "11/36"
    assert out["safe"] == [[2, 1], [2, 3], [3, 3], [3, 4]]
    assert out["mines_found"] == []
    assert out["best"] == [2, 1]


def test_json_certain_mines_and_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Flags get no entry (they are mines); a forced mine has ``"p": "1"``."""
    text = "5x2x3\nHHHHF\n121HH\n"
    path = tmp_path / "p.txt"
    path.write_text(text, encoding="utf-8")
    out = run_json(["solve", str(path), "--json"], capsys)
    position = Position.from_text(text)
    check_shape(out, position)
    probs = {(c["x"], c["y"]): c["p"] for c in out["cells"]}
    assert (4, 0) not in probs
    assert (probs[(0, 0)], probs[(1, 0)], probs[(2, 0)], probs[(4, 1)]) == ("1", "0", "1", "0")
    assert out["mines_found"] == [[0, 0], [2, 0]]
    # untrusted, the flag is a cell like the others.
    out = run_json(["solve", str(path), "--json", "--untrusted-flags"], capsys)
    check_shape(out, position, trust_flags=False)
    probs = {(c["x"], c["y"]): c["p"] for c in out["cells"]}
    assert probs[(4, 0)] == probs[(4, 1)] == "1/2"


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "position.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_mines_option_overrides_the_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """chain-two-mines with --mines 3 is chain-three-mines (tests/data/known)."""
    path = write(tmp_path, "7x1x2\nH1H1HHH\n")
    out = run_json(["solve", path, "--json", "--mines", "3"], capsys)
    assert out["mines"] == 3
    assert out["layouts"] == "3"
    probs = {(c["x"], c["y"]): c["p"] for c in out["cells"]}
    assert probs == {(0, 0): "2/3", (2, 0): "1/3", (4, 0): "2/3", (5, 0): "2/3", (6, 0): "2/3"}


def test_mines_option_supplies_an_unknown_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.txt"
    path.write_text("H1H1HHH\n", encoding="utf-8")
    out = run_json(["solve", str(path), "--json", "--mines", "2"], capsys)
    assert (out["mines"], out["layouts"]) == (2, "3")


def test_density_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """chain-density.txt of tests/data/known."""
    out = run_json(["solve", write(tmp_path, "H1H1HHH\n"), "--json", "--density", "0.25"], capsys)
    position = Position.from_text("H1H1HHH")
    check_shape(out, position)
    assert out["mines"] is None
    assert out["layouts"] == "8"
    probs = {(c["x"], c["y"]): c["p"] for c in out["cells"]}
    assert probs == {(0, 0): "1/4", (2, 0): "3/4", (4, 0): "1/4", (5, 0): "1/4", (6, 0): "1/4"}


def test_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(EXAMPLE.read_text(encoding="utf-8")))
    out = run_json(["solve", "-", "--json"], capsys)
    assert out["layouts"] == "72"


def test_human_output_names_the_count_the_certain_cells_and_the_best(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "72" in out
    for cell in ("(2,1)", "(2,3)", "(3,3)", "(3,4)"):
        assert cell.replace(",", ", ") in out or cell in out


# -- errors ------------------------------------------------------------------------------

ERRORS = [
    pytest.param(["solve", "{tmp}/missing.txt"], None, "cannot read", id="missing-file"),
    pytest.param(["solve", "{tmp}"], None, "cannot read", id="a-directory"),
    pytest.param(["solve", "{file}"], "3x2x1\nHHH\nHXH\n", "line 3, column 2", id="malformed"),
    pytest.param(["solve", "{file}"], "HHH\nHH\n", "line 2", id="ragged"),
    pytest.param(["solve", "{file}"], "", "empty", id="empty-file"),
    pytest.param(["solve", "{file}"], "3x1x2\nH1H\n", "total of 2", id="inconsistent-total"),
    pytest.param(["solve", "{file}"], "1x2x1\n2\nH\n", "(0, 0)", id="inconsistent-digit"),
    pytest.param(["solve", "{file}"], "H1H\n", "unknown", id="unknown-total"),
    pytest.param(
        ["solve", "{file}", "--mines", "1", "--density", "0.2"],
        "H1H\n",
        "not both",
        id="mines-and-density",
    ),
    pytest.param(["solve", "{file}", "--mines", "-1"], "H1H\n", "-1", id="negative-mines"),
    pytest.param(["solve", "{file}", "--mines", "4"], "H1H\n", "4", id="too-many-mines"),
    pytest.param(["solve", "{file}", "--mines", "abc"], "H1H\n", "--mines", id="mines-not-int"),
    pytest.param(
        ["solve", "{file}", "--density", "0"], "H1H\n", "between 0 and 1", id="density-zero"
    ),
    pytest.param(["solve", "{file}", "--density", "abc"], "H1H\n", "abc", id="density-nan"),
    pytest.param(
        ["solve", "{file}", "--engine", "nope"], "3x1x1\nH1H\n", "nope", id="unknown-engine"
    ),
    pytest.param(
        ["solve", "{file}", "--frobnicate"], "3x1x1\nH1H\n", "--frobnicate", id="bad-option"
    ),
    pytest.param(["solve", "{file}", "extra"], "3x1x1\nH1H\n", "extra", id="extra-argument"),
    pytest.param(["frobnicate"], None, "frobnicate", id="unknown-command"),
]


@pytest.mark.parametrize(("argv", "text", "words"), ERRORS)
def test_error_line_and_status_2(
    argv: list[str],
    text: str | None,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "p.txt"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    args = [a.format(tmp=tmp_path, file=path) for a in argv]
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ")
    assert words in lines[0]
    assert "Traceback" not in captured.err


def test_bad_input_on_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("H9H\n"))
    assert main(["solve", "-"]) == 2
    assert capsys.readouterr().err == (
        "error: line 1, column 2: digit 9 is more than the 8 neighbours a cell has\n"
    )


# -- the installed console script -----------------------------------------------------------


def test_console_script_json() -> None:
    done = subprocess.run(
        [str(SCRIPT), "solve", "--json", "-"],
        input=EXAMPLE.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    check_shape(out, Position.from_text(EXAMPLE.read_text(encoding="utf-8")))
    assert out["layouts"] == "72"


def test_console_script_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("5x5x5\nHHHHH\n", encoding="utf-8")
    done = subprocess.run(
        [str(SCRIPT), "solve", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("error: line 1: header says 5x5")
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_solve_recommends_the_move_play_human_hints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``solve`` gives the best player's move with its reason, the very move the hint of
    ``play --human`` gives on the same position, not only the safest cell."""
    import random
    import re

    from minesolver.game import Game, Move
    from minesolver.simulate import derive_seed, make_setup

    monkeypatch.setattr(sys, "stdin", io.StringIO("o 0 0\nh\nq\n"))
    assert main(["play", "--human", "--level", "beginner"]) == 0
    hint = re.search(r"best player: guess \((\d+),(\d+)\)", capsys.readouterr().out)
    assert hint is not None
    hinted = [int(hint.group(1)), int(hint.group(2))]
    setup, _ = make_setup(
        level="beginner", first_click="safe", start="corner", players=["best"], seed=0
    )
    game = Game.new(setup.level, random.Random(derive_seed(0, 0, "layout")), setup.rule)
    game.push(Move("open", (0, 0)))
    path = tmp_path / "after-first-click.txt"
    path.write_text(game.view().to_text())
    out = run_json(["solve", str(path), "--json"], capsys)
    move = out["recommended"]
    assert move["cell"] == hinted and move["kind"] == "open" and move["guess"] is True
    assert move["player"] == "best" and "risk" in move["why"]
    assert move["p"] == next(c["p"] for c in out["cells"] if [c["x"], c["y"]] == hinted)
    assert out["safest"] != hinted  # the safest cell is not what a strong player opens here
    assert main(["solve", str(path)]) == 0
    text = capsys.readouterr().out
    assert f"recommended (the best player's move): guess ({hinted[0]},{hinted[1]})" in text


def test_solve_recommends_certain_moves_and_says_when_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_json(["solve", str(EXAMPLE), "--json"], capsys)
    assert out["recommended"]["cell"] in out["safe"] and out["recommended"]["p"] == "0"
    assert out["recommended"]["why"] == "certainly safe" and "no_move" not in out
    path = tmp_path / "open.txt"
    path.write_text("1HH\nHHH\nHHH\n")
    out = run_json(["solve", str(path), "--density", "0.2", "--json"], capsys)
    assert out["recommended"] is None and "total number of mines" in out["no_move"]
    out = run_json(["solve", str(EXAMPLE), "--engine", "sampling", "--json"], capsys)
    assert out["recommended"] is None and "approximate" in out["no_move"]
    path.write_text("2x1x1\nH1\n")
    out = run_json(["solve", str(path), "--json"], capsys)
    assert out["recommended"] is None and out["no_move"].startswith("no move left")


def test_a_budget_too_short_for_any_answer_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """A deadline of a nanosecond has passed before any count or sample can be made, on
    any machine: ``auto`` says that no answer, not even an approximate one, fitted."""
    midgame = str(ROOT / "examples" / "expert-midgame.txt")
    assert main(["solve", midgame, "--budget", "1e-9"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: no answer within --budget 1e-09 s, not even an approximate one: the deadline "
        "passed before either the exact count or the sampler could answer; allow more "
        "seconds, or --budget 0 for no limit\n"
    )
    assert main(["solve", midgame, "--budget", "1e-9", "--engine", "exact"]) == 2
    assert "took more than the time limit of 1e-09 s" in capsys.readouterr().err
