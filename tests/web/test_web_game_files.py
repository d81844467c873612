"""Games' files and options through the API: no-guess games, the AI that makes no guess,
a game's EVF replay and MBF layout (after the game, or during it, which marks it), a game
played on an MBF layout, and the replay's times without the server's player's thinking."""

from __future__ import annotations

import asyncio
import base64
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import assert_no_layout, error_of

from minesolver.analysis import analyze
from minesolver.game import Game, Move, read_mbf
from minesolver.position import HIDDEN
from minesolver.replay import load
from minesolver.web import Settings, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, budget=5.0))) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def move(client: TestClient, gid: str, kind: str, x: int, y: int) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/move", json={"kind": kind, "x": x, "y": y})
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_no_guess_game_is_won_with_certain_moves_only(client: TestClient, seed: int) -> None:
    g = new_game(client, level="intermediate", seed=seed, no_guess=True)
    assert g["no_guess"] is True
    g = move(client, g["id"], "open", 8, 8)
    while g["status"] == "playing":
        a = client.post(f"/api/games/{g['id']}/ai?guesses=0").json()
        assert a["applied"], a["move"]  # never a guess to make
        assert a["move"]["guess"] is False
        g = a["game"]
    assert g["status"] == "won"


def test_the_ai_makes_no_guess_when_asked_not_to(client: TestClient) -> None:
    g = new_game(client, level="beginner", seed=2)
    g = move(client, g["id"], "open", 0, 0)
    while True:
        a = client.post(f"/api/games/{g['id']}/ai?guesses=0").json()
        if not a["applied"]:
            break
        g = a["game"]
    assert a["move"]["guess"] is True and a["move"]["risk"] > 0
    assert a["game"]["moves"] == g["moves"] and a["game"]["board"] == g["board"]  # unchanged
    assert_no_layout(a["game"])
    b = client.post(f"/api/games/{g['id']}/ai").json()  # guesses allowed: the same move
    assert b["applied"] and (b["move"]["x"], b["move"]["y"]) == (a["move"]["x"], a["move"]["y"])


def test_files_of_a_game_during_and_after_it(client: TestClient) -> None:
    g = new_game(client, level="beginner", seed=5)
    gid = g["id"]
    error_of(client.get(f"/api/games/{gid}/layout?running=1"), 409, "game_not_over")  # no mines
    move(client, gid, "open", 0, 0)
    error_of(client.get(f"/api/games/{gid}/replay"), 409, "game_not_over")
    assert client.get(f"/api/games/{gid}").json()["revealed"] is False
    evf = client.get(f"/api/games/{gid}/replay?running=1")
    assert evf.status_code == 200
    assert client.get(f"/api/games/{gid}").json()["revealed"] is True  # the mines went out
    mbf = client.get(f"/api/games/{gid}/layout?running=1").content
    layout = read_mbf(mbf)[0]
    replay = load(evf.content)
    assert replay.layout == layout and replay.player == "" and replay.software == "minesolver web"
    # the same board again, from its MBF file: the player's view equals a game on the layout
    h = new_game(client, layout=base64.b64encode(mbf).decode())
    assert (h["from_layout"], h["started"], h["rule"], h["level"]) == (
        True,
        False,
        "none",
        "9x9x10",
    )
    local = Game.from_layout(layout)
    safe = next(c for c in local.view() if not layout.is_mine(c))
    local.push(Move("open", safe))
    h = move(client, h["id"], "open", *safe)
    assert h["board"] == local.view().to_text(header=False).splitlines()
    error_of(client.post("/api/games", json={"layout": "AAAA"}), 422, "bad_layout")
    error_of(client.post("/api/games", json={"layout": "not base64!"}), 422, "bad_layout")


def test_the_clock_and_the_replay_leave_out_the_ai_s_thinking(client: TestClient) -> None:
    api = client.app.state.api  # type: ignore[attr-defined]
    think = api.compute

    async def slow(*args: Any, **kwargs: Any) -> Any:  # a player that thinks 0.3 s a move
        await asyncio.sleep(0.3)
        return await think(*args, **kwargs)

    g = new_game(client, level="expert", seed=4, rule="opening")
    g = move(client, g["id"], "open", 15, 8)
    api.compute = slow
    try:
        for _ in range(8):
            g = client.post(f"/api/games/{g['id']}/ai").json()["game"]
    finally:
        del api.compute
    assert g["status"] == "playing"
    stored = api.games.get(g["id"])
    assert stored.paused >= 8 * 0.3
    assert g["elapsed"] < 1.5  # the game's clock: the moves, not the thinking
    replay = load(client.get(f"/api/games/{g['id']}/replay?running=1").content)
    assert replay.time_ms / 1000 < 1.5


def test_a_no_guess_board_is_uniform_over_the_solvable_layouts(client: TestClient) -> None:
    """Each no-guess game's layout is solved from its first click by certain moves only."""
    g = new_game(client, level="beginner", seed=9, no_guess=True)
    move(client, g["id"], "open", 4, 4)
    layout = client.app.state.api.games.get(g["id"]).game.layout  # type: ignore[attr-defined]
    game = Game.from_layout(layout)
    game.push(Move("open", (4, 4)))
    while not game.over:
        a = analyze(game.view())
        assert a.safe, "a guess was needed"
        for c in a.safe:
            if game.view()[c] == HIDDEN:
                game.push(Move("open", c))
    assert game.outcome.won


def graded_both_ways(client: TestClient, gid: str, player: str) -> dict[str, Any]:
    """The game's review and its downloaded EVF uploaded back, graded alike (the
    efficiency left out: its safety deadline depends on the load); the review."""
    query = f"player={player}&best=0"
    review = client.get(f"/api/games/{gid}/review?{query}")
    data = client.get(f"/api/games/{gid}/replay?{query}")
    assert review.status_code == data.status_code == 200, review.text
    upload = client.post("/api/replays?best=0", content=data.content).json()
    review = review.json()
    for report in (review, upload):
        report.pop("efficiency")
    assert review == upload
    return dict(review)


@pytest.mark.parametrize(
    ("body", "rule", "risk"),
    [
        ({"rule": "safe"}, "safe", "0"),
        ({"rule": "opening"}, "opening", "0"),
        ({"rule": "none"}, "none", "10/81"),
        ({"rule": "none", "no_guess": True}, "safe", "0"),  # solved from its first click
    ],
)
def test_a_downloaded_game_is_graded_as_its_review(
    client: TestClient, body: dict[str, Any], rule: str, risk: str
) -> None:
    """The file states the player and the game's first-click rule (EVF's game mode): its
    first click is graded by that rule, in the review and from the file alike (seed 12's
    first click is no mine under any rule)."""
    g = new_game(client, level="beginner", seed=12, **body)
    gid = g["id"]
    g = move(client, gid, "open", 4, 4)
    while g["status"] == "playing":
        g = client.post(f"/api/games/{gid}/ai").json()["game"]
    player = "you, with 3 of 4 moves by the AI (AI moves)"
    report = graded_both_ways(client, gid, player)
    assert report["player"] == player and report["first_click"] == rule
    first = report["moves"][0]
    assert (first["graded"], first["p"], first["x"], first["y"]) == (True, risk, 4, 4)
    assert first["guess"] is (risk != "0")
    # a board the client gave (its MBF): no rule protects its first click (UPK)
    mbf = client.get(f"/api/games/{gid}/layout").content
    h = new_game(client, layout=base64.b64encode(mbf).decode())
    h = move(client, h["id"], "open", 4, 4)
    while h["status"] == "playing":
        h = client.post(f"/api/games/{h['id']}/ai").json()["game"]
    report = graded_both_ways(client, h["id"], "you")
    assert (report["mode"], report["first_click"]) == (1, None)
    assert report["moves"][0]["graded"] is False
