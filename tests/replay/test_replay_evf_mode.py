"""The first-click rule through EVF's game mode: written by ours, read by ours and by
ms-toollib, and the first click graded by it (certainly safe when protected, mines /
cells when not, ungraded where the file leaves it unknown)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from replay_samples import SAMPLES

from minesolver.game import PRESETS, Game, Layout, Move
from minesolver.replay import Replay, grade_replay, load
from minesolver.replay.evf_write import evf_mode, replay_from_game, replay_from_moves, write_evf
from minesolver.replay.record import first_click_of_mode
from minesolver.ui.json_shapes import replay_json
from minesolver.ui.replay_report import summary_lines

# 4x3, mines at (3, 0) and (3, 2): (0, 0) opens all but (3, 1), which finishes the game
LAYOUT = Layout.from_cells(4, 3, [(3, 0), (3, 2)])
MOVES = [("open", (0, 0), 0), ("open", (3, 1), 500)]


def written(mode: int | None, player: str = "someone") -> Replay:
    """The game of MOVES in ``mode``, written as EVF and read back."""
    return load(write_evf(replay_from_moves(LAYOUT, MOVES, player=player, mode=mode)))


@pytest.mark.parametrize(
    ("rule", "no_guess", "known", "mode", "back"),
    [
        ("safe", False, False, 0, "safe"),
        ("opening", False, False, 4, "opening"),
        ("none", False, False, 65535, "none"),
        ("safe", True, False, 5, "safe"),
        ("none", True, False, 5, "safe"),  # a no-guess board is solved from its first click
        ("none", False, True, 1, None),  # a board given before the game: UPK, no rule
    ],
)
def test_the_rule_goes_through_the_game_mode(
    rule: str, no_guess: bool, known: bool, mode: int, back: str | None
) -> None:
    assert evf_mode(rule, no_guess=no_guess, known_layout=known) == mode  # type: ignore[arg-type]
    r = written(mode)
    assert (r.mode, r.first_click, r.player) == (mode, back, "someone")
    assert first_click_of_mode(mode) == back


def test_only_the_standard_mode_is_official() -> None:
    """EVF's summary byte: completed and fair for a won game; official (bit 6) only in
    the standard mode, as the specification says."""
    for mode, flags in ((0, 0xE0), (4, 0xA0), (65535, 0xA0), (None, 0xE0)):
        data = write_evf(replay_from_moves(LAYOUT, MOVES, mode=mode))
        assert data[1] & 0xE0 == flags, mode
        assert int.from_bytes(data[8:10], "big") == (0 if mode is None else mode)


@pytest.mark.parametrize(
    ("mode", "p"), [(0, Fraction(0)), (4, Fraction(0)), (65535, Fraction(2, 12)), (None, None)]
)
def test_the_first_click_is_graded_by_the_rule(mode: int | None, p: Fraction | None) -> None:
    # a replay that does not know its rule (mode None) is written in the standard mode
    replay = written(mode) if mode is not None else replay_from_moves(LAYOUT, MOVES)
    graded = grade_replay(replay, best=False)
    first, second = graded.moves
    assert first.graded is (p is not None) and first.p == p and first.analysis is None
    assert second.graded and second.p == 0
    assert graded.safe_product == 1 - (p or 0)  # the unprotected first click is the one risk
    assert [m.verdict for m in graded.guesses] == (["guess"] if p else [])
    shaped = replay_json(graded)
    assert shaped["first_click"] == first_click_of_mode(mode) and shaped["mode"] == mode
    assert shaped["moves"][0]["graded"] is (p is not None)
    assert shaped["guesses"] == (1 if p else 0)


def test_the_summary_says_the_rule() -> None:
    words = {
        0: "first     click protected (never a mine)",
        4: "first     click protected (always an opening)",
        65535: "first     click unprotected (may hit a mine)",
        1: "first     click's rule unknown (not graded)",
    }
    for mode, line in words.items():
        assert line in summary_lines(grade_replay(written(mode), best=False)), mode


def test_a_game_saves_its_rule() -> None:
    """``play --save``'s replay: the game's rule, or UPK for a game on a given layout."""
    for rule, mode in (("safe", 0), ("opening", 4), ("none", 65535)):
        game = Game.new(PRESETS["beginner"], random.Random(3), rule)  # type: ignore[arg-type]
        game.push(Move("open", (4, 4)))
        assert load(write_evf(replay_from_game(game))).mode == mode, rule
    game = Game.from_layout(LAYOUT)
    game.push(Move("open", (0, 0)))
    assert load(write_evf(replay_from_game(game))).first_click is None


@pytest.mark.parametrize(
    ("name", "mode"),
    [("metasweeper-v4-beginner-10bv.evf", 0), ("metasweeper-v3-beginner-3bv.evf", 5)],
)
def test_metasweeper_files_state_their_mode(name: str, mode: int) -> None:
    """Metasweeper's standard and classic no-guess games: the first click never a mine,
    graded certainly safe (which leaves their pluck as it was)."""
    r = load((SAMPLES / name).read_bytes())
    assert r.mode == mode and r.first_click == "safe"
    first = next(m for m in grade_replay(r, best=False).moves if m.action.kind == "open")
    assert first.graded and first.p == 0 and first.verdict == "safe"


READ_MODE = r"""
import json, sys, ms_toollib as ms
v = ms.EvfVideo(sys.argv[1])
v.parse()
print(json.dumps([v.mode, v.player_identifier, v.is_official, v.is_fair]))
"""


def test_ms_toollib_reads_the_mode_and_the_player(tmp_path: Path) -> None:
    """ms-toollib (in a subprocess: it aborts on a bad file) reads what we write."""
    pytest.importorskip("ms_toollib")
    for mode in (0, 4, 5, 65535):
        path = tmp_path / f"m{mode}.evf"
        path.write_bytes(write_evf(replay_from_moves(LAYOUT, MOVES, player="you", mode=mode)))
        done = subprocess.run(
            [sys.executable, "-c", READ_MODE, str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-500:]
        assert json.loads(done.stdout) == [mode, "you", mode == 0, True]
