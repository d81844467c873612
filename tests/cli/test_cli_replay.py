"""``minesolver replay``: the summary and guesses table, the JSON object, the PNG, and
``error: …`` with exit status 2 for a bad file."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from extras import needs
from replay_samples import SAMPLES, figures
from test_cli_solve import run_json

from minesolver.ui.cli import main

SCRIPT = Path(sys.executable).parent / "minesolver"
KEYS = {
    "format", "software", "player", "width", "height", "mines", "mine_cells", "won", "time",
    "bbbv", "clicks", "ioe", "pluck", "moves",
}  # fmt: skip
MOVE_KEYS = {"index", "time", "action", "x", "y", "p", "safest", "guess", "needless"}


@pytest.mark.parametrize("row", figures(), ids=lambda r: r.name)
def test_json_has_the_figures(row: Any, capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(["replay", str(SAMPLES / row.name), "--json"], capsys)
    assert set(out) >= KEYS
    assert out["format"] == row.name.rsplit(".", 1)[1]
    assert (out["width"], out["height"], out["mines"]) == (row.width, row.height, row.mines)
    assert len(out["mine_cells"]) == row.mines
    assert out["won"] is True
    assert out["bbbv"] == row.bbbv
    c = out["clicks"]
    assert (c["left"], c["right"], c["double"], c["total"], c["effective"]) == (
        row.left, row.right, row.double, row.cl, row.ce,
    )  # fmt: skip
    assert out["time"] == pytest.approx(row.time)
    assert math.isclose(out["pluck"], row.pluck, abs_tol=1e-9)
    graded = [m for m in out["moves"] if m["p"] is not None]
    assert all(set(m) >= MOVE_KEYS for m in out["moves"])
    assert {m["action"] for m in out["moves"]} <= {"open", "flag", "unflag", "chord"}
    for m in graded:
        p, safest = Fraction(m["p"]), Fraction(m["safest"])
        assert 0 <= safest <= p <= 1
        assert m["guess"] == (p > 0)
        assert not m["needless"] or m["guess"]
        if "win" in m:
            win, best = Fraction(m["win"]), Fraction(m["best_win"])
            assert 0 <= win <= best <= 1 and win <= 1 - p
    # pluck is -log10 of the product of the graded actions' chances of being safe
    product = math.prod(1 - Fraction(m["p"]) for m in graded)
    assert math.isclose(out["pluck"], -math.log10(product), abs_tol=1e-9)


def test_summary_and_guesses_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SAMPLES / "vienna-rmv2_24px.rmv")]) == 0
    text = capsys.readouterr().out
    for word in ("Thomas Kolar", "Viennasweeper", "8x8, 10 mines", "won", "1.849 s", "3BV", "IOE"):
        assert word in text
    assert "pluck     0.3010" in text
    table = text.split("\n\n", 1)[1].splitlines()
    assert table[0].split() == [
        "move", "time", "cell", "risk", "safest", "best", "win", "best", "win", "verdict",
    ]  # fmt: skip
    assert "50.0%" in table[1] and "needless guess" in table[1]


@needs("plot")
def test_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "replay.png"
    assert main(["replay", str(SAMPLES / "arbiter-beginner-24bv.avf"), "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "avf replay, byte 0: expected an AVF version byte, but the file is empty"),
        (b"*rmv\x00\x09", "rmv replay, byte 4: expected RMV format version 1 or 2"),
        (None, "avf replay, byte 6: expected 99 mine positions"),
    ],
)
def test_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    path = tmp_path / "bad.avf"
    if content is None:
        content = (SAMPLES / "arbiter-expert-127bv.avf").read_bytes()[:100]
    elif content.startswith(b"*rmv"):
        path = tmp_path / "bad.rmv"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: " + message) and err.count("\n") == 1


def test_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "none.evf")]) == 2
    assert capsys.readouterr().err.startswith("error: cannot read")


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_console_script_on_a_truncated_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.evf"
    path.write_bytes((SAMPLES / "metasweeper-v4-beginner-10bv.evf").read_bytes()[:300])
    done = subprocess.run([str(SCRIPT), "replay", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("error: evf replay, byte") and "Traceback" not in done.stderr


EFFICIENCY_KEYS = {
    "zini", "hzini", "min_clicks", "lower_bound", "optimal", "min_sequence", "player_clicks",
    "extra_clicks", "efficiency", "best_efficiency", "best_efficiency_bound", "efficiency_lost",
    "zini_efficiency", "wasted", "wasted_by_kind", "work", "cut",
}  # fmt: skip
SPEED_KEYS = {"bbbv_per_second", "rqp", "ios", "stnb", "zini_per_second", "zne", "znt"}


def test_json_grades_the_game_for_efficiency(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(["replay", str(SAMPLES / "vienna-rmv2_16px_preflags.rmv"), "--json"], capsys)
    assert set(out) >= SPEED_KEYS | {"efficiency", "wasted_clicks"}
    e = out["efficiency"]
    assert set(e) == EFFICIENCY_KEYS
    # 8x8/10, 3BV 16, won in 41 clicks; the board's fewest, proved within the budget
    assert e["optimal"] is True and e["min_clicks"] == e["lower_bound"] == len(e["min_sequence"])
    assert e["min_clicks"] <= e["zini"] and e["player_clicks"] == out["clicks"]["total"] == 41
    assert e["extra_clicks"] == 41 - e["min_clicks"]
    assert e["efficiency"] == pytest.approx(16 / 41)
    assert e["best_efficiency"] == pytest.approx(16 / e["min_clicks"])
    assert e["efficiency_lost"] == pytest.approx(16 / e["min_clicks"] - 16 / 41)
    assert all(re.fullmatch(r"[LRC] \d+,\d+", click) for click in e["min_sequence"])
    wasted = out["wasted_clicks"]
    assert e["wasted"] == len(wasted) == sum(e["wasted_by_kind"].values())
    assert set(e["wasted_by_kind"]) == {"nothing", "unused_flag", "unflag", "one_cell_chord"}
    for w in wasted:
        assert set(w) == {"number", "time", "button", "x", "y", "action", "why"}
        assert e["wasted_by_kind"][w["why"]] > 0
        assert w["button"] in ("left", "right", "double")
    # a wasted click that made an action marks that action in the moves
    marked = {m["index"]: m["wasted"] for m in out["moves"] if m["wasted"] is not None}
    assert marked == {w["action"]: w["why"] for w in wasted if w["action"] is not None}
    assert set(marked.values()) <= {"unused_flag", "unflag", "one_cell_chord"}
    assert out["rqp"] == pytest.approx(out["time"] ** 2 / 16)
    assert out["stnb"] == pytest.approx(36 * 16 / out["time"] ** 1.7)


def test_summary_has_the_efficiency_and_the_wasted_clicks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(SAMPLES / "vienna-rmv2_16px_preflags.rmv")]) == 0
    text = capsys.readouterr().out
    lines = {line.split()[0]: line for line in text.splitlines() if line.strip()}
    assert re.fullmatch(r"speed +RQP 16\.064 +IOS 0\.999 +STNB 5\.152", lines["speed"])
    assert re.fullmatch(r"ZiNi +13 +HZiNi 13 .*", lines["ZiNi"])
    assert re.fullmatch(r"fewest +13 clicks \(proved\); you used 41, 28 more", lines["fewest"])
    assert re.fullmatch(
        r"effic\. +yours 0\.390, best 1\.231: 0\.841 lost +ZiNi's 1\.231", lines["effic."]
    )
    assert lines["wasted"].startswith(
        "wasted    22: 4 clicks that did nothing, 8 flags no chord used"
    )
    table = text.split("\n\n")[-1].splitlines()
    assert table[0].split() == ["click", "time", "button", "cell", "wasted"]
    assert len(table) == 1 + 22
    assert table[1].split() == ["0", "0.00", "right", "(5,", "5)", "flag", "no", "chord", "used"]
