"""Terminal play: a person's commands become moves through ``Game.push``; the outcome."""

from __future__ import annotations

import io
import random
import re
from fractions import Fraction

import pytest
from rich.console import Console

from minesolver.game import Game, Layout, Move, Outcome, Status
from minesolver.strategy import get_player
from minesolver.strategy.reasons import Lowest
from minesolver.ui.cli import main
from minesolver.ui.play import play_human, watch


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None), out


def test_commands_flag_toggle_refuse_a_bad_chord_and_win() -> None:
    game = Game.from_layout(Layout.from_cells(3, 3, [(0, 0)]))
    console, out = _console()
    lines = ["f 0 0", "f 0 0", "c 2 2", "o 1 1", "o 1 1", "f 1 1", "f 0 0", "2 2"]
    outcome = play_human(game, lines, console)
    text = out.getvalue()
    assert "chord (2, 2): the cell is hidden, not an open digit" in text
    assert "open (1,1): nothing to do" in text and "flag (1,1): nothing to do" in text
    assert outcome == Outcome(Status.WON) and text.rstrip().endswith("won")


def test_a_loss_names_the_mine_and_quitting_keeps_playing() -> None:
    game = Game.from_layout(Layout.from_cells(3, 1, [(2, 0)]))
    console, out = _console()
    assert play_human(game, ["o 1 0", "q", "o 2 0"], console) == Outcome(Status.PLAYING)
    assert play_human(game, ["o 2 0"], console) == Outcome(Status.LOST, (2, 0))
    assert "lost: a mine at (2,0)" in out.getvalue()


def test_watch_returns_the_outcome_of_the_simulated_game() -> None:
    game = Game.from_layout(Layout.from_cells(4, 4, [(3, 3)]))
    console, out = _console()
    outcome = watch(game, get_player("greedy"), (0, 0), random.Random(0), console)
    assert outcome == game.outcome == Outcome(Status.WON)
    assert "first click (0,0)" in out.getvalue()


def test_watch_redraws_in_place_on_a_terminal_and_scrolls_elsewhere() -> None:
    def run(terminal: bool) -> str:
        game = Game.from_layout(Layout.from_cells(6, 6, [(5, 5), (4, 5), (5, 3)]))
        out = io.StringIO()
        console = Console(file=out, width=120, force_terminal=terminal, color_system=None)
        watch(game, get_player("best"), (0, 0), random.Random(0), console)
        return out.getvalue()

    piped, live = run(False), run(True)
    rounds = piped.count("move ")
    assert rounds >= 1 and piped.count("legend:") == rounds + 1  # every board, then the last
    assert "\x1b[1A" not in piped and "\x1b[2K" not in piped
    assert "\x1b[1A" in live or "\x1b[2K" in live  # the live display moves the cursor back
    assert live.count("legend:") >= rounds + 1


def test_guesses_are_described_in_plain_words() -> None:
    from minesolver.ui.play import describe_moves

    move = Move("open", (2, 3), guess=True, risk=0.25, reason=Lowest(Fraction(1, 4)))
    assert describe_moves([move]) == "guess (2,3), 25.0% risk: the lowest risk on the board"


def test_a_won_board_flags_every_mine_and_a_lost_one_tells_mines_from_wrong_flags() -> None:
    game = Game.from_layout(Layout.from_cells(3, 3, [(0, 0)]))
    console, out = _console()
    assert play_human(game, ["o 2 2"], console) == Outcome(Status.WON)  # no flag placed
    final = out.getvalue().split("won")[0].splitlines()[-5:]
    assert final[1].split() == ["0", "F", "1"] and "*" not in "".join(final)
    assert "F flag" in final[-1] and "mine" not in final[-1]
    game = Game.from_layout(Layout.from_cells(4, 1, [(2, 0), (3, 0)]))
    console, out = _console()
    assert play_human(game, ["f 0 0", "o 2 0"], console) == Outcome(Status.LOST, (2, 0))
    lost = out.getvalue().split("lost")[0].splitlines()[-3:]
    assert lost[1].split() == ["0", "x", ".", "X", "*"]
    assert "x flag on a safe cell" in lost[2] and "X the mine that went off" in lost[2]


def test_the_hint_gives_the_risk_in_percent_and_the_reason_in_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("4 4\nh\nq\n"))
    assert main(["play", "--human", "--level", "beginner", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    safest = next(line for line in out.splitlines() if line.startswith("safest:"))
    assert re.fullmatch(r"safest: \(\d,\d\), \d+\.\d% risk of a mine \(p = \d+/\d+\): .+", safest)
    assert "≈" not in safest and "the lowest on the board" in safest
    best = next(line for line in out.splitlines() if line.startswith("best player:"))
    assert re.match(r"best player: guess \(\d,\d\), \d+\.\d% risk: ", best)
    assert "score" not in best and "P(" not in best and "surviving this click" in best
