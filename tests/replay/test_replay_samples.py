"""Every sample replay reads, replays to its recorded result and gives ms-toollib's figures."""

from __future__ import annotations

import math

import pytest
from replay_samples import SAMPLES, SHARED, Figures, figures, sample_files

from minesolver.game import Game
from minesolver.game.efficiency import board_stats
from minesolver.replay import Replay, grade_replay, load, play_events
from minesolver.replay.actions import apply


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: p.name)
def test_every_sample_reads_and_replays_to_a_win(path: object) -> None:
    replay = load(path)  # type: ignore[arg-type]
    assert isinstance(replay, Replay)
    playback = play_events(replay)
    assert playback.status == "won"
    assert playback.warnings == ()
    assert len(replay.mine_cells) == replay.mines
    # the final position shows every safe cell open, as our own game says
    game = Game.from_layout(replay.layout)
    for action in playback.actions:
        apply(game, action)
    assert game.outcome.status == "won"
    assert game.view() == playback.final


@pytest.mark.parametrize("row", figures(), ids=lambda r: r.name)
def test_figures_equal_ms_toollib(row: Figures) -> None:
    replay = load(SAMPLES / row.name)
    assert (replay.width, replay.height, replay.mines) == (row.width, row.height, row.mines)
    a = grade_replay(replay)
    clicks = a.playback.clicks
    assert a.bbbv == row.bbbv
    assert (clicks.left, clicks.right, clicks.double) == (row.left, row.right, row.double)
    assert (clicks.total, clicks.effective) == (row.cl, row.ce)
    assert replay.time == pytest.approx(row.time, abs=1e-9)
    assert math.isclose(a.pluck, row.pluck, abs_tol=1e-9)


def test_the_figures_table_covers_every_readable_sample() -> None:
    names = {r.name for r in figures()}
    files = {p.name for p in sample_files()}
    assert names == {n for n in files if "invalid" not in n}


@pytest.mark.parametrize("twin", ["vienna-rmv1_utf8", "vienna-rmv2_utf8"])
def test_a_name_that_is_not_utf8_is_shown_with_replacement_characters(twin: str) -> None:
    basic = load(SAMPLES / f"{twin}_basic.rmv")
    invalid = load(SAMPLES / f"{twin}_invalid.rmv")
    assert "\ufffd" in invalid.player
    assert basic.player == "Thomas Kolar"
    assert invalid.player.replace("\ufffd", "T") == basic.player
    assert invalid.layout == basic.layout
    assert invalid.events == basic.events
    assert grade_replay(invalid).pluck == grade_replay(basic).pluck


def test_names_in_other_encodings() -> None:
    assert load(SAMPLES / "arbiter-beginner-chinese-name.avf").player == "王嘉宁"
    assert load(SAMPLES / "vienna-rmv1_utf8_nonascii.rmv").player == "aaȑaa Kolar"


def test_cell_size_and_preflags() -> None:
    big = load(SAMPLES / "vienna-rmv2_24px.rmv")
    assert big.cell_size == 24
    for e in big.events:
        if e.cell is not None:
            assert e.cell == (e.x // 24, e.y // 24)
    pre = load(SAMPLES / "vienna-rmv2_16px_preflags.rmv")
    flags = [e for e in pre.events if e.kind == "pf"]
    assert flags and all(e.time_ms == 0 for e in flags)
    first_actions = play_events(pre).actions[: len(flags)]
    assert [a.kind for a in first_actions] == ["flag"] * len(flags)


def test_statistics_are_the_board_figures() -> None:
    replay = load(SAMPLES / "arbiter-expert-127bv.avf")
    stats = board_stats(replay.layout)
    assert (stats.bbbv, stats.openings, stats.islands) == (127, 11, 14)
    a = grade_replay(replay)
    c = a.playback.clicks
    assert a.ioe == c.bbbv_solved / c.total
    assert a.correctness == c.effective / c.total
    assert a.throughput == c.bbbv_solved / c.effective
    assert c.bbbv_solved == 127


@pytest.mark.skipif(not SHARED.is_dir(), reason="no shared/ folder beside the repository")
def test_the_copies_equal_the_shared_files() -> None:
    for path in sample_files():
        assert path.read_bytes() == (SHARED / path.name).read_bytes()
