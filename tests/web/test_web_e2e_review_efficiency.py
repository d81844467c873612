"""End to end: the Replays view's efficiency lines and its list of wasted clicks, in
Chromium, against what :mod:`minesolver.replay` computes locally from the same bytes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_helpers import Page
from replay_samples import SAMPLES

from minesolver.replay import grade_replay, load, replay_efficiency
from minesolver.ui.json_shapes import positions_json
from minesolver.ui.json_shapes import replay_json as to_json

pytest.importorskip("playwright.sync_api")

SAMPLE = SAMPLES / "vienna-rmv2_16px_preflags.rmv"
"""A beginner game with flags placed before the start, flags taken away, chords that opened
nothing and chords that opened one cell: every kind of wasted click."""

WORDS = {
    "nothing": "a click that did nothing",
    "unused_flag": "a flag no chord used",
    "unflag": "a click that took a flag away",
    "one_cell_chord": "a chord that opened one cell",
}
BUTTONS = {"left": "left click", "right": "right click", "double": "chord"}


def graded(data: bytes) -> dict[str, Any]:
    analysis = grade_replay(load(data))
    efficiency = replay_efficiency(analysis.replay, analysis.playback)
    report = to_json(analysis, efficiency)
    report["positions"] = positions_json(analysis, efficiency.wasted)
    out: dict[str, Any] = json.loads(json.dumps(report))
    return out


def step_of(positions: list[dict[str, Any]], w: dict[str, Any]) -> int:
    """The step a wasted click leads to: its own graded action, else the last graded
    position at or before its time."""
    for k, entry in enumerate(positions):
        if w["action"] is not None and entry["index"] == w["action"]:
            return k
    return max([k for k, e in enumerate(positions) if e["time"] <= w["time"]], default=0)


def test_efficiency_lines_and_wasted_clicks(server: str, page: Page) -> None:
    data = SAMPLE.read_bytes()
    expected = graded(data)
    e = expected["efficiency"]
    assert e["optimal"] and e["wasted"] == 22
    page.goto(server)
    page.click("#tab-review")
    page.set_input_files(
        "#replay-file",
        files=[{"name": SAMPLE.name, "mimeType": "application/octet-stream", "buffer": data}],
    )
    page.wait_for_selector("#board .cell.action")
    assert {k: v for k, v in page.evaluate("review.report").items() if k != "positions"} == {
        k: v for k, v in expected.items() if k != "positions"
    }
    figures = dict(
        zip(
            page.locator("#review-summary dt").all_inner_texts(),
            page.locator("#review-summary dd").all_inner_texts(),
            strict=True,
        )
    )
    r = expected
    assert figures["Speed"] == f"RQP {r['rqp']:.3f}, IOS {r['ios']:.3f}, STNB {r['stnb']:.3f}"
    assert figures["ZiNi"] == (
        f"{e['zini']}, HZiNi {e['hzini']}; ZiNi/s {r['zini_per_second']:.3f}, "
        f"ZNE {r['zne']:.3f}, ZNT {r['znt']:.3f}"
    )
    assert figures["Fewest clicks"] == (
        f"{e['min_clicks']} (proved); 41 used, {41 - e['min_clicks']} more"
    )
    assert figures["Efficiency"] == (
        f"{16 / 41:.3f}, best {16 / e['min_clicks']:.3f}: {e['efficiency_lost']:.3f} lost"
    )
    by_kind = e["wasted_by_kind"]
    assert figures["Wasted"] == (
        f"22: {by_kind['nothing']} clicks that did nothing, "
        f"{by_kind['unused_flag']} flags no chord used, "
        f"{by_kind['unflag']} clicks that took a flag away, "
        f"{by_kind['one_cell_chord']} chords that opened one cell"
    )
    # every wasted click is listed, in order, with its time, button, cell and why
    items = page.locator("#review-wasted li")
    wasted = expected["wasted_clicks"]
    assert items.count() == len(wasted) == 22
    for i, w in enumerate(wasted):
        where = "off the board" if w["x"] is None else f"({w['x']}, {w['y']})"
        text = f"{w['time']:.2f} s, {BUTTONS[w['button']]} {where}: {WORDS[w['why']]}"
        assert items.nth(i).inner_text() == text
    # a one-cell chord is a graded action: its item goes to it, and the step says so
    positions = expected["positions"]
    chord = next(i for i, w in enumerate(wasted) if w["why"] == "one_cell_chord")
    items.nth(chord).locator("button").click()
    k = step_of(positions, wasted[chord])
    assert positions[k]["index"] == wasted[chord]["action"]
    assert positions[k]["wasted"] == "one_cell_chord"
    page.wait_for_function(f"review.step === {k}")
    assert "A wasted click: a chord that opened one cell" in page.inner_text("#review-action")
    current = page.locator("#review-wasted li.current")
    assert current.count() == 1 and current.inner_text() == items.nth(chord).inner_text()
    # a click that did nothing goes to the position it was made in
    late = max(i for i, w in enumerate(wasted) if w["why"] == "nothing")
    items.nth(late).locator("button").click()
    k = step_of(positions, wasted[late])
    page.wait_for_function(f"review.step === {k}")
    shown = "A wasted click" in page.inner_text("#review-action")
    assert shown == (positions[k]["wasted"] is not None)
