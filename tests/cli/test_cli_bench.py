"""``minesolver bench`` and ``minesolver play``: output and errors."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from minesolver.game import PRESETS, dump_layouts, random_layout
from minesolver.strategy import register_player
from minesolver.strategy.greedy import GreedyPlayer
from minesolver.ui.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def bench_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code, out, err = run(["bench", "--json", *argv], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_bench_json_single_player(capsys: pytest.CaptureFixture[str]) -> None:
    data = bench_json(["--level", "beginner", "--games", "30", "--seed", "5"], capsys)
    required = {
        "level", "player", "games", "wins", "win_rate", "ci95", "guesses_per_game",
        "games_per_second",
    }  # fmt: skip
    assert required <= set(data)
    assert (data["level"], data["player"], data["games"]) == ("beginner", "greedy", 30)
    wins = data["wins"]
    assert isinstance(wins, int) and data["win_rate"] == wins / 30
    ci = data["ci95"]
    assert isinstance(ci, list) and ci[0] <= wins / 30 <= ci[1]
    again = bench_json(
        ["--level", "beginner", "--games", "30", "--seed", "5", "--workers", "2"], capsys
    )
    assert (again["wins"], again["guesses_per_game"]) == (wins, data["guesses_per_game"])


class _Lowest(GreedyPlayer):
    """Greedy with ties always to the first cell in reading order."""

    name = "lowest-first"

    def reset(self, rng: random.Random) -> None:
        super().reset(random.Random(0))


def test_bench_json_paired(capsys: pytest.CaptureFixture[str]) -> None:
    register_player("lowest-first", _Lowest)
    data = bench_json(
        ["--level", "beginner", "--games", "20", "--players", "greedy,lowest-first"], capsys
    )
    results = data["results"]
    assert isinstance(results, dict) and set(results) == {"greedy", "lowest-first"}
    (pair,) = data["paired"]  # type: ignore[misc]
    assert set(pair) == {"a", "b", "a_only", "b_only", "p_value"}
    assert (pair["a"], pair["b"]) == ("greedy", "lowest-first")
    a_wins, b_wins = results["greedy"]["wins"], results["lowest-first"]["wins"]
    assert a_wins - b_wins == pair["a_only"] - pair["b_only"]
    assert 0 < pair["p_value"] <= 1


def test_bench_table_and_layout_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    layouts = [random_layout(PRESETS["beginner"], random.Random(s), (0, 0)) for s in range(7)]
    dump_layouts(layouts, tmp_path / "seven.mbf")
    code, out, err = run(["bench", "--layouts", str(tmp_path / "seven.mbf")], capsys)
    assert code == 0, err
    assert "beginner" in out and "7 games" in out and "95% CI" in out and "greedy" in out


def test_bench_on_layouts_with_a_mine_under_the_first_click(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mined = "9x9x10: 0,0 4,4 8,8 1,2 5,5 6,1 2,7 7,3 3,0 8,5\n"
    one = tmp_path / "one.txt"
    one.write_text(mined)
    code, out, err = run(["bench", "--layouts", str(one)], capsys)
    assert code == 0, err
    title = out.splitlines()[0]
    assert "safe" not in title and "1 game," in title and "1 worker" in title
    assert "first click at (0,0) (1 of 1 with a mine there, lost on it)" in title
    row = next(line for line in out.splitlines() if "greedy" in line)
    assert row.replace("│", " ").split()[-2:] == ["-", "-"]  # no speed: no move was made
    data = bench_json(["--layouts", str(one)], capsys)
    assert (data["games"], data["wins"], data["lost_on_first_click"]) == (1, 0, 1)
    assert data["first_click"] == "given"  # no rule moved the mine: the JSON says so too
    assert data["games_per_second"] is None and data["games_per_second_per_core"] is None
    two = tmp_path / "two.txt"
    two.write_text(mined + mined.replace("0,0 ", "1,0 ", 1))
    data = bench_json(["--layouts", str(two)], capsys)
    assert (data["games"], data["lost_on_first_click"]) == (2, 1)
    assert isinstance(data["games_per_second_per_core"], float)
    drawn = bench_json(["--level", "beginner", "--games", "3"], capsys)
    assert drawn["lost_on_first_click"] == 0  # the safe rule moved every mine away
    assert drawn["first_click"] == "safe"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--level", "hard"], "level 'hard'"),
        (["--level", "9x9x81"], "81 mines do not fit"),
        (["--level", "9x9x78", "--first-click", "opening"], "78 mines do not fit"),
        (["--layouts", "/no/such/file.mbf"], "cannot read /no/such/file.mbf"),
        (["--player", "nobody"], "unknown player 'nobody'"),
        (["--players", "greedy,best-no-luck"], "best has no ingredient 'luck'"),
        (["--first-click", "lucky"], "first-click rule 'lucky'"),
        (["--start", "99,99"], "off the"),
    ],
)
def test_bench_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["bench", "--games", "2", *argv], capsys)
    assert code == 2
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert out == ""


def test_bench_corrupt_layout_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mbf"
    bad.write_bytes(bytes((9, 9, 0, 10, 1, 1)))
    code, _, err = run(["bench", "--layouts", str(bad)], capsys)
    assert code == 2 and f"error: {bad}, offset 6: truncated" in err


def test_play_watch_shows_moves_and_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--level", "8x8x10", "--seed", "2"], capsys)
    assert code == 0, err
    assert "first click (0,0)" in out and "move 1:" in out
    assert out.rstrip().endswith("won") or "lost: a mine at" in out
    _, again, _ = run(["play", "--level", "8x8x10", "--seed", "2"], capsys)
    assert again == out  # the same seed shows the same game


def test_play_human_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("h\n4 4\nh\nf 0 0\nwhat\nq\n"))
    code, out, err = run(["play", "--human", "--level", "beginner", "--seed", "1"], capsys)
    assert code == 0, err
    assert "no cell open yet" in out
    assert "safest: (" in out  # the hint after the first click: the safest cell
    assert "0 F . ." in out  # the flag shown on row 0
    assert "unknown command 'what'" in out
    # a 3x1 board with one mine, the first click an opening at (0,0): one click wins
    monkeypatch.setattr("sys.stdin", io.StringIO("0 0\n"))
    code, out, _ = run(["play", "--human", "--level", "3x1x1", "--first-click", "opening"], capsys)
    assert code == 0 and out.rstrip().endswith("won")


def test_bench_saves_the_layouts_it_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--level", "beginner", "--games", "15", "--seed", "9"]
    saved = tmp_path / "played.txt"
    first = bench_json([*argv, "--save-layouts", str(saved)], capsys)
    assert len(saved.read_text().splitlines()) == 15
    replayed = bench_json(["--layouts", str(saved), "--seed", "9"], capsys)
    assert (replayed["games"], replayed["wins"]) == (15, first["wins"])
    code, _, err = run(["bench", *argv, "--save-layouts", str(tmp_path / "no" / "x.mbf")], capsys)
    assert code == 2 and err.startswith("error: cannot write")


def test_play_saves_the_game_as_a_replay_our_reader_plays_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A watched game and a person's game saved with --save read back as EVF replays
    whose actions replay to the same result on the same mines (ms-toollib's reading of
    the writer's files is tested with the replay writer)."""
    from minesolver.replay import load, play_events

    watched = tmp_path / "watched.evf"
    code, out, err = run(
        ["play", "--level", "beginner", "--seed", "3", "--no-probabilities", "--save",
         str(watched)],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    replay = load(watched)
    assert replay.format == "evf" and (replay.width, replay.height, replay.mines) == (9, 9, 10)
    assert play_events(replay).status == ("won" if out.rstrip().endswith("won") else "lost")
    assert not play_events(replay).warnings
    monkeypatch.setattr("sys.stdin", io.StringIO("0 0\n"))
    mine = tmp_path / "mine.evf"
    argv = ["play", "--human", "--level", "3x1x1", "--first-click", "opening", "--save", str(mine)]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert play_events(load(mine)).status == "won" and load(mine).player == "minesolver"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, _, err = run([*argv[:-1], str(tmp_path / "none.evf")], capsys)
    assert code == 2 and "nothing to save" in err
