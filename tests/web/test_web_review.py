"""The review of a finished web game (``GET /api/games/{id}/review``): the game graded as
its EVF download is graded by the library, refused while the game runs."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import error_of, replay

from minesolver.game import Game, Move
from minesolver.position import HIDDEN
from minesolver.replay import grade_replay, load
from minesolver.ui.json_shapes import positions_json
from minesolver.ui.json_shapes import replay_json as to_json
from minesolver.web import Settings, create_app

SEED = 5
FIRST = (0, 0)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, budget=10.0, queue_wait=30.0))) as c:
        yield c


def _open(client: TestClient, gid: str, cell: tuple[int, int]) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/move", json={"kind": "open", "x": cell[0], "y": cell[1]})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def _seeded_game(client: TestClient) -> tuple[str, Game]:
    """A seeded beginner game opened at FIRST on the server, and the same game here."""
    created = client.post("/api/games", json={"level": "beginner", "seed": SEED, "rule": "safe"})
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    _open(client, gid, FIRST)
    return gid, replay("beginner", SEED, "safe", FIRST)


def _graded_download(client: TestClient, gid: str, best: bool) -> dict[str, Any]:
    """What the library makes of the game's EVF download: the report and its positions."""
    evf = client.get(f"/api/games/{gid}/replay")
    assert evf.status_code == 200, evf.text
    graded = grade_replay(load(evf.content), best=best)
    report = to_json(graded)
    report["positions"] = positions_json(graded)
    out: dict[str, Any] = json.loads(json.dumps(report))
    return out


def test_a_running_game_has_no_review(client: TestClient) -> None:
    gid, _ = _seeded_game(client)
    detail = error_of(client.get(f"/api/games/{gid}/review"), 409, "game_not_over")
    assert "finish it first" in detail
    error_of(client.get("/api/games/nope/review"), 404, "game_not_found")


@pytest.mark.parametrize("best", [True, False])
def test_the_review_of_a_lost_game_is_the_grading_of_its_download(
    client: TestClient, best: bool
) -> None:
    gid, local = _seeded_game(client)
    assert local.layout is not None
    mine = local.layout.cells()[0]
    lost = _open(client, gid, mine)
    assert lost["status"] == "lost" and lost["exploded"] == list(mine)
    got = client.get(f"/api/games/{gid}/review" + ("" if best else "?best=0"))
    assert got.status_code == 200, got.text
    body = got.json()
    assert body == _graded_download(client, gid, best)
    assert body["status"] == "lost" and body["exploded"] == list(mine)
    last = body["positions"][-1]
    assert (last["x"], last["y"]) == mine and last["guess"]
    # the losing click's risk is its probability in the position before it
    before = {(c["x"], c["y"]): c["p"] for c in last["analysis"]["cells"]}
    assert last["p"] == before[mine] and last["p"] not in ("0", "1")
    assert last["position"] == local.view().to_text()


def test_the_review_of_a_won_game_is_the_grading_of_its_download(client: TestClient) -> None:
    gid, local = _seeded_game(client)
    assert local.layout is not None
    state: dict[str, Any] = {}
    for cell in local.view():
        if local.view()[cell] == HIDDEN and not local.layout.is_mine(cell):
            local.push(Move("open", cell))
            state = _open(client, gid, cell)
    assert state["status"] == "won" and local.outcome.status == "won"
    got = client.get(f"/api/games/{gid}/review")
    assert got.status_code == 200, got.text
    body = got.json()
    assert body == _graded_download(client, gid, True)
    assert body["won"] and body["pluck"] is not None
    assert body["positions"] and all(p["p"] is not None for p in body["positions"])


def test_the_review_grades_the_game_for_efficiency_as_its_document_says(
    client: TestClient,
) -> None:
    """A game with a click on an open cell, and a flag placed and taken away (a second flag
    on a cell toggles it), then lost: the review names those clicks, and the report keeps
    to its OpenAPI schema."""
    import jsonschema

    from minesolver.web.openapi import openapi_document

    gid, local = _seeded_game(client)
    assert local.layout is not None
    opened = next(c for c in local.view() if local.view()[c] != HIDDEN)
    hidden = [c for c in local.view() if local.view()[c] == HIDDEN]
    mine = local.layout.cells()[0]
    for kind, cell in [("open", opened), ("flag", hidden[0]), ("flag", hidden[0])]:
        moved = client.post(
            f"/api/games/{gid}/move", json={"kind": kind, "x": cell[0], "y": cell[1]}
        )
        assert moved.status_code == 200, moved.text
    lost = _open(client, gid, mine)
    assert lost["status"] == "lost"
    body = client.get(f"/api/games/{gid}/review?best=0").json()
    assert body == _graded_download(client, gid, False)
    why = [(w["button"], w["why"]) for w in body["wasted_clicks"]]
    assert why == [("left", "nothing"), ("right", "unused_flag"), ("right", "unflag")]
    assert body["efficiency"]["wasted_by_kind"]["unflag"] == 1
    assert body["efficiency"]["extra_clicks"] is None  # lost: no comparison of whole games
    assert body["zne"] is None and body["rqp"] is not None
    schema = openapi_document({})["components"]["schemas"]["ReplayReport"]
    jsonschema.validate(body, schema)
