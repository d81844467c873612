"""The page's replay report has a budget of its own (``replay_budget``, ``serve
--replay-budget``), not the analyses': its fewest clicks are searched with the command
line's work budget under a safety deadline a share of it, so the page shows the figures
``minesolver replay`` prints, whatever the analyses' budget."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from minesolver.replay import grade_replay, load
from minesolver.replay.efficiency import MIN_CLICKS_SECONDS
from minesolver.ui.json_shapes import efficiency_json
from minesolver.web import Settings, create_app
from minesolver.web.settings import REPLAY_CLICKS_SHARE

REPLAYS = Path(__file__).parents[1] / "data" / "replays"
FIGURES = ("zini", "hzini", "min_clicks", "lower_bound", "optimal", "work", "cut")
"""The fewest-clicks figures a report shows, and the work and the cut behind them."""


@pytest.fixture(scope="module")
def stingy() -> Iterator[TestClient]:
    """A server whose analyses may take a millisecond: under the analyses' budget, a
    replay's grading (or its fewest clicks, at a quarter of it) could never finish."""
    with TestClient(create_app(Settings(workers=1, budget=0.001, queue_wait=120.0))) as c:
        yield c


def test_the_replay_budget_defaults() -> None:
    """The command line's default is the server's, and the fewest clicks' safety deadline
    at the default is the command line's own (``minesolver replay``)."""
    from minesolver.ui.cli import serve

    default = inspect.signature(serve).parameters["replay_budget"].default
    assert default == Settings().replay_budget > Settings().budget
    assert Settings().replay_budget * REPLAY_CLICKS_SHARE == MIN_CLICKS_SECONDS
    assert Settings(replay_budget=9.0).limits()["replay_budget_seconds"] == 9.0


@pytest.mark.parametrize("name", ["arbiter-expert-127bv.avf", "vienna-rmv2_24px.rmv"])
def test_a_replay_graded_by_the_page_has_the_command_line_s_fewest_clicks(
    stingy: TestClient, name: str
) -> None:
    """``POST /api/replays`` on a real replay gives the fewest clicks, bound and proof of
    :func:`grade_replay` with the command line's defaults, proved or cut by the work budget
    (the same on every machine), though the server's analyses have a millisecond."""
    data = (REPLAYS / name).read_bytes()
    got = stingy.post("/api/replays?best=0", content=data)
    assert got.status_code == 200, got.text
    page = got.json()["efficiency"]
    library = efficiency_json(grade_replay(load(data), best=False).efficiency)
    assert library["cut"] != "deadline"  # proved, or cut by work: the same on any load
    assert {k: page[k] for k in FIGURES} == {k: library[k] for k in FIGURES}
    assert page["min_sequence"] == library["min_sequence"]


def test_a_game_s_review_is_held_to_the_replay_budget(stingy: TestClient) -> None:
    """A finished game's review grades its replay in the same budget as an upload."""
    created = stingy.post(
        "/api/games", json={"width": 5, "height": 1, "mines": 1, "rule": "opening"}
    )
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    moved = stingy.post(f"/api/games/{gid}/move", json={"kind": "open", "x": 2, "y": 0})
    assert moved.json()["status"] == "won"
    review = stingy.get(f"/api/games/{gid}/review?best=0")
    assert review.status_code == 200, review.text
    assert review.json()["efficiency"]["min_clicks"] == 1
    assert review.json()["efficiency"]["optimal"] is True
