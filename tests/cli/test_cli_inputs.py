"""A file of the wrong kind is refused in one line that says what it is: binary data given
as a position, a replay given as a position or as layouts, a position or an image given as
a replay. Replays are told by their content, whatever the file is called."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from minesolver.replay import ReplayFormatError, load
from minesolver.ui.cli import main

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "tests" / "data" / "replays"
AVF = SAMPLES / "arbiter-beginner-24bv.avf"
EVF = SAMPLES / "metasweeper-v4-beginner-10bv.evf"
POSITION = ROOT / "examples" / "known-5x5.txt"
IMAGE = ROOT / "examples" / "arbiter-expert.png"
SCRIPT = Path(sys.executable).parent / "minesolver"
NOISE = random.Random(7).randbytes(300)


def error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line of standard error of a command that must fail with status 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    return err[len("error: ") : -1]


def copy(tmp_path: Path, source: Path | bytes, name: str) -> str:
    path = tmp_path / name
    path.write_bytes(source if isinstance(source, bytes) else source.read_bytes())
    return str(path)


def test_binary_data_is_not_a_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    noise = copy(tmp_path, NOISE, "noise.txt")
    assert error(["solve", noise], capsys) == f"{noise} is not a position (binary data)"
    nul = copy(tmp_path, b"HH\x00H\nHHH\n", "nul.txt")
    assert error(["solve", nul], capsys) == f"{nul} is not a position (binary data)"


def test_binary_data_on_standard_input_is_not_a_position(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for data in (NOISE, AVF.read_bytes()):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
        assert error(["solve", "-"], capsys) == "standard input is not a position (binary data)"


def test_a_replay_or_a_layout_list_is_not_a_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = copy(tmp_path, AVF, "game.txt")
    assert error(["solve", game], capsys) == (
        f"{game} is a replay (AVF), not a position: minesolver replay {game} grades it"
    )
    boards = copy(tmp_path, b"4x3x2: 0,0 3,2\n", "boards.txt")
    assert error(["solve", boards], capsys).startswith(
        f"{boards} is a list of mine layouts, not a position: minesolver efficiency {boards}"
    )


def test_a_replay_is_told_by_its_content_not_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for source, name in ((AVF, "game.dat"), (EVF, "game.avf"), (AVF, "game")):
        assert main(["replay", copy(tmp_path, source, name), "--json"]) == 0
        assert capsys.readouterr().out.startswith('{"format": "' + source.suffix[1:] + '"')


def test_a_file_that_is_no_replay_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = copy(tmp_path, POSITION, "position.avf")
    assert error(["replay", shown], capsys) == (
        f"{shown} is not a replay (AVF, RMV, EVF or MVF): it is a position; "
        f"minesolver solve {shown} analyses it"
    )
    noise = copy(tmp_path, NOISE, "noise.rmv")
    assert error(["replay", noise], capsys) == (
        f"{noise} is not a replay (AVF, RMV, EVF or MVF): it holds binary data"
    )
    image = copy(tmp_path, IMAGE, "board.avf")
    assert error(["replay", image], capsys) == (
        f"{image} is an image, not a replay: minesolver read {image} reads the board it shows"
    )
    with pytest.raises(ReplayFormatError, match=r"^not a replay, byte 0: expected a replay") as e:
        load(POSITION.read_bytes())
    assert e.value.format == "replay"


def test_a_damaged_replay_still_names_its_format_and_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = copy(tmp_path, AVF.read_bytes()[:60], "cut.bin")
    assert error(["replay", cut], capsys).startswith("avf replay, byte ")


def test_layout_files_refuse_replays_images_positions_and_noise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = copy(tmp_path, AVF, "game.avf")
    assert error(["efficiency", game], capsys) == (
        f"{game} is a replay (AVF), not a layout file: minesolver replay {game} grades it"
    )
    assert error(["bench", "--layouts", game], capsys).startswith(f"{game} is a replay (AVF)")
    assert error(["efficiency", str(IMAGE)], capsys).startswith(f"{IMAGE} is an image")
    assert error(["efficiency", str(POSITION)], capsys) == (
        f"{POSITION} is a position, not a layout file: minesolver solve {POSITION} analyses it"
    )
    noise = copy(tmp_path, NOISE, "noise.bin")
    assert error(["bench", "--layouts", noise], capsys).startswith(
        f"{noise} is not a layout file: binary data that is not MBF either ("
    )


@pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")
def test_the_console_script_on_binary_data(tmp_path: Path) -> None:
    noise = copy(tmp_path, NOISE, "noise")
    done = subprocess.run([str(SCRIPT), "solve", noise], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (
        2,
        f"error: {noise} is not a position (binary data)\n",
    )
