"""The JSON API: each endpoint, each error, each limit, and the secrecy of the layout."""

from __future__ import annotations

import json
import random
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import KNOWN, assert_no_layout, error_of, hard_position, replay

from minesolver.analysis import analyze, fraction_text
from minesolver.engines import ENGINES
from minesolver.game import PRESETS, Move
from minesolver.position import Position
from minesolver.strategy import get_player
from minesolver.ui.json_shapes import analysis_json as to_json
from minesolver.web import Settings, create_app
from minesolver.web.openapi import openapi_document

SETTINGS = Settings(workers=2, budget=2.0, queue_wait=20.0)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SETTINGS)) as c:
        yield c


@pytest.fixture(scope="module")
def roomy() -> Iterator[TestClient]:
    """A server whose analyses' budget is far above what its requests need (60 s), so
    that no safety deadline of the tests using it comes before their work budgets on a
    loaded machine (a replay's grading has its own budget, 120 s by default)."""
    with TestClient(create_app(Settings(workers=1, budget=60.0, queue_wait=60.0))) as c:
        yield c


# -- analysis -----------------------------------------------------------------------------


def test_analyze_matches_the_engine(client: TestClient) -> None:
    r = client.post("/api/analyze", json={"position": KNOWN})
    assert r.status_code == 200
    body = r.json()
    expected = to_json(analyze(Position.from_text(KNOWN)))
    assert body["layouts"] == "72"
    assert body["cells"] == expected["cells"]
    assert body["safe"] == [[2, 1], [2, 3], [3, 3], [3, 4]]
    move = body["move"]
    assert move["kind"] == "open" and [move["x"], move["y"]] in body["safe"]
    assert move["player"] in ("best", "greedy", "lowest")


def test_analyze_mines_density_and_untrusted_flags(client: TestClient) -> None:
    text = "1HH\nHHH\nHHH\n"
    r = client.post("/api/analyze", json={"position": text, "mines": 1})
    assert r.json()["layouts"] == "3"
    r = client.post("/api/analyze", json={"position": text, "density": "1/4"})
    expected = analyze(Position.from_text(text), density="1/4")
    assert r.json()["layouts"] == str(expected.layouts)
    assert r.json()["move"] is None  # no total: the players need one
    flagged = "3x1x1\nF1H\n"
    trusted = client.post("/api/analyze", json={"position": flagged}).json()
    untrusted = client.post("/api/analyze", json={"position": flagged, "trust_flags": False})
    assert {c["p"] for c in trusted["cells"]} == {"0"}
    assert {c["p"] for c in untrusted.json()["cells"]} == {"1/2"}


def test_analyze_with_an_approximate_engine(client: TestClient) -> None:
    body = client.post("/api/analyze", json={"position": KNOWN, "engine": "bp"}).json()
    assert body["exact"] is False and body["engine"] == "bp"
    assert all("error" in c for c in body["cells"])
    assert body["move"] is None  # the players stand on the exact engine
    expected = analyze(Position.from_text(KNOWN), engine="bp")
    assert [c["prob"] for c in body["cells"]] == [
        float(expected.probabilities[(c["x"], c["y"])]) for c in body["cells"]
    ]


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        # characters the document allows, in a shape it cannot state: 422; others: 400
        ({"position": "3x3x1\n9HH\nHHH\nHHH"}, 422, "malformed_position", "line 2, column 1"),
        ({"position": "3x3x1\nHHH\nHH\nHHH"}, 422, "malformed_position", "line 3"),
        ({"position": "3x3x1\nHZH\nHHH\nHHH"}, 400, "malformed_position", "line 2, column 2"),
        ({"position": "3x3x1\n3HH\nHHH\nHHH"}, 422, "inconsistent_position", "mines"),
        ({"position": "1HH\nHHH"}, 422, "mines_unknown", "total"),
        ({"position": "H" * 101}, 422, "board_too_large", "100 per side"),
        ({"position": ("H" * 80 + "\n") * 80}, 422, "board_too_large", "6400 cells"),
        ({}, 400, "missing_field", "'position'"),
        ({"position": 5}, 400, "bad_field", "'position' must be str"),
        ({"position": KNOWN, "mines": "3"}, 400, "bad_field", "'mines' must be int"),
        ({"position": KNOWN, "mines": True}, 400, "bad_field", "'mines'"),
        ({"position": KNOWN, "mines": 26}, 422, "inconsistent_position", "do not fit"),
        ({"position": KNOWN, "density": "2"}, 422, "bad_field", "between 0 and 1"),
        ({"position": KNOWN, "density": "lots"}, 400, "bad_field", "not a number"),
        ({"position": KNOWN, "trust_flags": "yes"}, 400, "bad_field", "boolean"),
        ({"position": KNOWN, "engine": "magic"}, 400, "bad_field", "expected one of"),
        (
            {"position": ("H" * 70 + "\n") * 70, "mines": 5, "engine": "brute"},
            422,
            "engine_limit_exceeded",
            "brute",
        ),
    ],
)
def test_analyze_errors(
    client: TestClient, body: dict[str, Any], status: int, code: str, words: str
) -> None:
    detail = error_of(client.post("/api/analyze", json=body), status, code)
    assert words in detail


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("3x3x1\n9HH\nHHH\nHHH", 2, 1),
        ("3x3x1\nHHH\nHH\nHHH", 3, 3),
        ("3x3x1\nHHH\nH9H\nHHH\n", 3, 2),
        ("3x3x1\nHHH\n", 1, None),
        ("\n\n3x3x1\nHHH\nHZH\nHHH", 5, 2),
    ],
)
def test_a_malformed_position_says_its_line_and_column(
    client: TestClient, text: str, line: int, column: int | None
) -> None:
    body = client.post("/api/analyze", json={"position": text}).json()
    assert body["error"] == "malformed_position"
    assert body["line"] == line and body.get("column") == column
    assert body["detail"].startswith(f"line {line}")


def test_bad_json_and_body_limit(client: TestClient) -> None:
    headers = {"Content-Type": "application/json"}
    r = client.post("/api/analyze", content=b"{not json", headers=headers)
    error_of(r, 400, "bad_json")
    error_of(client.post("/api/analyze", json=[KNOWN]), 400, "bad_json")
    big = json.dumps({"position": "H" * (SETTINGS.max_body + 10)})
    r = client.post("/api/analyze", content=big, headers=headers)
    assert "exceeds" in error_of(r, 413, "body_too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the stream itself is counted
        for _ in range(SETTINGS.max_body // 1000 + 2):
            yield b" " * 1000

    r = client.post("/api/analyze", content=chunks(), headers=headers)
    error_of(r, 413, "body_too_large")


def test_a_hard_position_does_not_block_other_requests(client: TestClient) -> None:
    client.app.state.api.pool.warm()  # type: ignore[attr-defined]  # both workers idle
    done = threading.Event()

    def hard() -> None:
        client.post("/api/analyze", json={"position": hard_position(seed=2)})
        done.set()

    thread = threading.Thread(target=hard)
    thread.start()
    try:
        r = client.post("/api/analyze", json={"position": KNOWN})
        assert r.json()["layouts"] == "72"
        assert not done.is_set()  # answered while the hard one still runs
    finally:
        thread.join()


def test_compute_budget_stops_a_hard_position_and_the_server_goes_on(
    client: TestClient,
) -> None:
    # bucket elimination works on for many seconds (the exact engines refuse this position
    # at once for the memory their counts would take: see the next test)
    r = client.post("/api/analyze", json={"position": hard_position(), "engine": "elimination"})
    detail = error_of(r, 503, "compute_budget_exceeded")
    assert "budget of 2 s" in detail
    # no engine is advised: the approximate ones fail on this position too
    assert not set(detail.replace(",", " ").split()) & set(ENGINES)
    assert client.post("/api/analyze", json={"position": KNOWN}).json()["layouts"] == "72"


def test_the_native_engine_refuses_a_hard_position_cleanly(client: TestClient) -> None:
    """The native count stops at its memory bound (422, saying to use auto) or, on a
    loaded machine, at the server's budget first (503): either way a clean answer, and
    the server goes on."""
    r = client.post("/api/analyze", json={"position": hard_position()})
    if r.status_code == 422:
        detail = error_of(r, 422, "engine_limit_exceeded")
        assert "in memory" in detail and "'auto'" in detail
    else:
        assert "budget of 2 s" in error_of(r, 503, "compute_budget_exceeded")
    assert client.post("/api/analyze", json={"position": KNOWN}).json()["layouts"] == "72"


def test_errors_never_show_a_stack_trace() -> None:
    app = create_app(SETTINGS)

    def broken(*args: object) -> None:
        raise RuntimeError("secret internals")

    app.state.api.games.create = broken
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/api/games", json={"level": "beginner"})
    assert r.status_code == 500
    assert r.json() == {"error": "internal", "detail": "internal server error"}
    assert "secret" not in r.text


# -- games ----------------------------------------------------------------------------------


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    assert_no_layout(state)
    return state


def test_levels(client: TestClient) -> None:
    body = client.get("/api/levels").json()
    assert body["presets"]["expert"] == {"width": 30, "height": 16, "mines": 99}
    assert set(body["presets"]) == set(PRESETS)
    assert body["rules"] == ["safe", "opening", "none"]
    assert body["limits"]["max_side"] == SETTINGS.max_side


def test_new_game_levels_and_ids(client: TestClient) -> None:
    a = new_game(client, level="expert")
    assert (a["width"], a["height"], a["mines"], a["mines_left"]) == (30, 16, 99, 99)
    assert a["board"] == ["H" * 30] * 16 and not a["started"]
    b = new_game(client, width=12, height=7, mines=20, rule="opening")
    assert (b["level"], b["rule"]) == ("12x7x20", "opening")
    c = new_game(client)
    assert c["level"] == "beginner"
    assert len({a["id"], b["id"], c["id"]}) == 3 and len(a["id"]) >= 20


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"level": "huge"}, 400, "bad_level"),
        ({"level": "9x9x82"}, 422, "bad_level"),
        ({"width": 9, "height": 9, "mines": 73, "rule": "opening"}, 422, "bad_level"),
        ({"level": "beginner", "rule": "lucky"}, 400, "bad_level"),
        ({"width": 101, "height": 5, "mines": 3}, 422, "board_too_large"),
        ({"width": 9}, 400, "missing_field"),
        ({"level": "beginner", "seed": -1}, 400, "bad_field"),
        ({"level": "beginner", "seed": "7"}, 400, "bad_field"),
    ],
)
def test_new_game_errors(client: TestClient, body: dict[str, Any], status: int, code: str) -> None:
    error_of(client.post("/api/games", json=body), status, code)


def test_seeded_game_is_the_game_engine_s_game(client: TestClient) -> None:
    state = new_game(client, level="beginner", seed=11)
    r = client.post(f"/api/games/{state['id']}/move", json={"kind": "open", "x": 4, "y": 4})
    local = replay("beginner", 11, "safe", (4, 4))
    assert r.json()["board"] == local.view().to_text(header=False).splitlines()
    assert r.json()["started"] and r.json()["moves"] == 1


def test_flag_chord_lose_and_the_layout_only_at_the_end(client: TestClient) -> None:
    state = new_game(client, level="beginner", seed=5)
    gid = state["id"]
    url = f"/api/games/{gid}/move"
    local = replay("beginner", 5, "safe", (0, 0))
    state = client.post(url, json={"kind": "open", "x": 0, "y": 0}).json()
    assert_no_layout(state)
    assert local.layout is not None
    mines = local.layout.cells()
    mx, my = mines[0]
    state = client.post(url, json={"kind": "flag", "x": mx, "y": my}).json()
    assert state["board"][my][mx] == "F" and state["mines_left"] == 9
    assert_no_layout(state)
    state = client.post(url, json={"kind": "flag", "x": mx, "y": my}).json()
    assert state["board"][my][mx] == "H" and state["flags"] == 0
    # chord on a digit whose mines are all flagged opens the rest, as the engine does
    view = local.view()
    digit = next(c for c in view if view[c] > 0)  # an open digit
    for n in view.neighbours(digit):
        if local.layout.is_mine(n):
            client.post(url, json={"kind": "flag", "x": n[0], "y": n[1]})
            local.push(Move("flag", n))
    state = client.post(url, json={"kind": "chord", "x": digit[0], "y": digit[1]}).json()
    local.push(Move("chord", digit))
    assert state["board"] == local.view().to_text(header=False).splitlines()
    assert_no_layout(state)
    assert_no_layout(client.get(f"/api/games/{gid}").json())
    unflagged = next(c for c in mines if local.view()[c] != -2)
    state = client.post(url, json={"kind": "open", "x": unflagged[0], "y": unflagged[1]}).json()
    assert state["status"] == "lost"
    assert state["exploded"] == list(unflagged)
    assert sorted(map(tuple, state["layout"])) == sorted(mines)
    assert state["seed"] == 5
    r = client.post(url, json={"kind": "open", "x": 1, "y": 1})
    error_of(r, 409, "game_over")
    error_of(client.get(f"/api/games/{gid}/hint"), 409, "game_over")


def test_win(client: TestClient) -> None:
    state = new_game(client, level="beginner", seed=3, rule="opening")
    url = f"/api/games/{state['id']}/move"
    local = replay("beginner", 3, "opening", (4, 4))
    assert local.layout is not None
    client.post(url, json={"kind": "open", "x": 4, "y": 4})
    for x, y in local.view():
        if not local.layout.is_mine((x, y)) and local.view()[(x, y)] == -1:
            local.push(Move("open", (x, y)))
            state = client.post(url, json={"kind": "open", "x": x, "y": y}).json()
            if state["status"] == "playing":
                assert_no_layout(state)
    assert state["status"] == "won" and local.outcome.status == "won"
    assert len(state["layout"]) == 10 and state["exploded"] is None
    frozen = state["elapsed"]
    assert client.get(f"/api/games/{state['id']}").json()["elapsed"] == frozen


def test_move_errors(client: TestClient) -> None:
    gid = new_game(client, level="beginner")["id"]
    url = f"/api/games/{gid}/move"
    assert "off the 9x9" in error_of(
        client.post(url, json={"kind": "open", "x": 9, "y": 0}), 422, "bad_move"
    )
    error_of(client.post(url, json={"kind": "dig", "x": 1, "y": 0}), 400, "bad_field")
    error_of(client.post(url, json={"kind": "open", "x": 1}), 400, "missing_field")
    error_of(client.post(url, json={"kind": "open", "x": 1.5, "y": 0}), 400, "bad_field")
    error_of(client.get("/api/games/nope"), 404, "game_not_found")
    error_of(client.post("/api/games/nope/move", json={}), 404, "game_not_found")
    error_of(client.post("/api/games/nope/ai"), 404, "game_not_found")
    error_of(client.get("/api/games/nope/hint"), 404, "game_not_found")
    error_of(client.put("/api/games"), 405, "method_not_allowed")
    assert client.put("/api/games").headers["allow"] == "POST"
    assert set(client.put(f"/api/games/{gid}").headers["allow"].split(", ")) == {
        "GET",
        "HEAD",
        "DELETE",
    }
    # JSON has one number type: 1.0 is the integer 1
    assert client.post(url, json={"kind": "flag", "x": 1.0, "y": 0}).status_code == 200
    error_of(client.get("/api/nothing"), 404, "not_found")


def test_hint_is_the_analysis_of_the_view(client: TestClient) -> None:
    state = new_game(client, level="beginner", seed=8)
    gid = state["id"]
    client.post(f"/api/games/{gid}/move", json={"kind": "open", "x": 0, "y": 0})
    local = replay("beginner", 8, "safe", (0, 0))
    hint = client.get(f"/api/games/{gid}/hint").json()
    expected = analyze(local.view())
    got = {(c["x"], c["y"]): c["p"] for c in hint["cells"]}
    assert got == {c: fraction_text(p) for c, p in expected.probabilities.items()}
    assert hint["layouts"] == str(expected.layouts)
    assert hint["move"] is not None


def test_hint_and_ai_move_of_the_fewest_clicks_player(client: TestClient) -> None:
    gid = new_game(client, level="beginner", seed=8)["id"]
    client.post(f"/api/games/{gid}/move", json={"kind": "open", "x": 0, "y": 0})
    view = replay("beginner", 8, "safe", (0, 0)).view()

    def first_move(name: str, seed: int) -> tuple[str, int, int]:
        player = get_player(name)
        player.reset(random.Random(seed))
        move = player.next_moves(view)[0]
        return move.kind, *move.cell

    for name in ("best", "efficient"):
        hint = client.get(f"/api/games/{gid}/hint?player={name}").json()["move"]
        assert hint["player"] == name
        assert (hint["kind"], hint["x"], hint["y"]) == first_move(name, 0)
    r = client.post(f"/api/games/{gid}/ai?player=efficient").json()
    assert r["applied"] and r["move"]["player"] == "efficient"
    assert (r["move"]["kind"], r["move"]["x"], r["move"]["y"]) == first_move("efficient", 1)
    detail = error_of(client.get(f"/api/games/{gid}/hint?player=pseq"), 400, "bad_field")
    assert "player='pseq'" in detail and "efficient" in detail
    error_of(client.post(f"/api/games/{gid}/ai?player=fast"), 400, "bad_field")


def test_ai_moves_until_the_game_ends_and_never_leaks(client: TestClient) -> None:
    gid = new_game(client, level="beginner", seed=21)["id"]
    for seen in range(1, 81):
        r = client.post(f"/api/games/{gid}/ai").json()
        move, state = r["move"], r["game"]
        assert move["kind"] in ("open", "flag", "chord")
        assert state["moves"] == seen
        if state["status"] != "playing":
            assert "layout" in state
            break
        assert_no_layout(state)
    else:
        pytest.fail("the AI did not finish a beginner game in 80 moves")
    error_of(client.post(f"/api/games/{gid}/ai"), 409, "game_over")


def test_delete_game(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert client.delete(f"/api/games/{gid}").status_code == 204
    error_of(client.get(f"/api/games/{gid}"), 404, "game_not_found")
    error_of(client.delete(f"/api/games/{gid}"), 404, "game_not_found")


# -- documents ------------------------------------------------------------------------------


def test_openapi_is_valid_and_matches_the_routes(client: TestClient) -> None:
    from openapi_spec_validator import validate

    doc = client.get("/openapi.json").json()
    validate(doc)
    documented = {
        (path, method.upper())
        for path, item in doc["paths"].items()
        for method in item
        if method != "parameters"
    }
    routed = set()
    for route in client.app.routes:  # type: ignore[attr-defined]
        path = getattr(route, "path", "")
        if path.startswith("/api/"):
            routed |= {(path, m) for m in route.methods - {"HEAD"}}
    assert documented == routed
    codes = set(doc["components"]["schemas"]["Error"]["properties"]["error"]["enum"])
    assert {"malformed_position", "board_too_large", "compute_budget_exceeded"} <= codes
    assert openapi_document(SETTINGS.limits())["info"] == doc["info"]


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<script src="/static/app.js">' in page.text
    assert "function render" in client.get("/static/app.js").text
    assert client.get("/static/style.css").status_code == 200


# -- replays ------------------------------------------------------------------------------


def test_a_replay_uploaded_is_graded_as_the_command_line_grades_it(roomy: TestClient) -> None:
    """The API's report of a real replay equals the library's, with each graded action's
    position and analysis (equal to analysing that position afresh); bad files are 400s."""
    from replay_samples import SAMPLES

    from minesolver.replay import grade_replay, load
    from minesolver.ui.json_shapes import replay_json

    data = (SAMPLES / "vienna-rmv2_24px.rmv").read_bytes()
    got = roomy.post("/api/replays?best=0", content=data)
    assert got.status_code == 200, got.text
    body = got.json()
    expected = replay_json(grade_replay(load(data), best=False))
    assert {k: v for k, v in body.items() if k != "positions"} == json.loads(json.dumps(expected))
    assert body["positions"], "a graded game has positions"
    for entry in body["positions"]:
        position = Position.from_text(entry["position"])
        fresh = to_json(analyze(position, trust_flags=False))
        assert entry["analysis"]["cells"] == fresh["cells"]
    bad = roomy.post("/api/replays", content=data[: len(data) // 2])
    assert bad.status_code == 422 and bad.json()["error"] == "malformed_replay"
    assert "byte" in bad.json()["detail"]
    empty = roomy.post("/api/replays", content=b"")
    assert empty.status_code == 422 and empty.json()["error"] == "malformed_replay"
    huge = roomy.post("/api/replays", content=b"\0" * (SETTINGS.max_replay + 1))
    assert huge.status_code == 413


def test_a_finished_web_game_downloads_as_a_replay(client: TestClient) -> None:
    """The replay of a web game is refused while the game runs (it holds the mines), then
    reads back with our reader and plays to the game's result."""
    from minesolver.replay import load, play_events

    created = client.post(
        "/api/games", json={"width": 5, "height": 1, "mines": 1, "rule": "opening"}
    )
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    early = client.get(f"/api/games/{gid}/replay")
    assert early.status_code == 409 and early.json()["error"] == "game_not_over"
    # the opening at (2, 0) leaves the mine at an end; a flood fill opens the rest
    moved = client.post(f"/api/games/{gid}/move", json={"kind": "open", "x": 2, "y": 0})
    assert moved.json()["status"] == "won"
    got = client.get(f"/api/games/{gid}/replay")
    assert got.status_code == 200 and got.headers["content-type"] == "application/octet-stream"
    replay = load(got.content)
    assert replay.format == "evf" and replay.mine_cells in ([(0, 0)], [(4, 0)])
    assert play_events(replay).status == "won" and not play_events(replay).warnings
    assert client.get("/api/games/nope/replay").status_code == 404
