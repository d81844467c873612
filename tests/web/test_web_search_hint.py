"""The hint and the AI button with ``?player=search``: ``search``'s move where it answers
within its share of the move's budget, else ``best``'s, saying so."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from webtest_helpers import replay

from minesolver import Position
from minesolver.strategy import get_player
from minesolver.web.app import Settings, create_app
from minesolver.web.jobs import choose_move_noted, search_fallback


@pytest.fixture(scope="module")
def roomy() -> Iterator[TestClient]:
    # a budget far above what a move takes: the answer is search's on any load
    with TestClient(create_app(Settings(workers=1, budget=120.0, queue_wait=60.0))) as c:
        yield c


def _move_of(name: str, view: Position, seed: int) -> tuple[str, int, int]:
    player = get_player(name)
    player.reset(random.Random(seed))
    move = player.next_moves(view)[0]
    return move.kind, *move.cell


def test_the_hint_and_the_ai_move_of_search(roomy: TestClient) -> None:
    r = roomy.post("/api/games", json={"level": "intermediate", "seed": 5})
    gid = r.json()["id"]
    roomy.post(f"/api/games/{gid}/move", json={"kind": "open", "x": 0, "y": 0})
    view = replay("intermediate", 5, "safe", (0, 0)).view()
    hint = roomy.get(f"/api/games/{gid}/hint?player=search").json()["move"]
    assert hint["player"] == "search" and "note" not in hint
    assert (hint["kind"], hint["x"], hint["y"]) == _move_of("search", view, 0)
    ai = roomy.post(f"/api/games/{gid}/ai?player=search").json()
    assert ai["applied"] and ai["move"]["player"] == "search"
    assert (ai["move"]["kind"], ai["move"]["x"], ai["move"]["y"]) == _move_of("search", view, 1)


def test_past_its_deadline_the_hint_is_best_and_says_so() -> None:
    # an expert position where search must value its guess: a deadline no computation
    # meets (a nanosecond) stops it at its first check, whatever the load
    text = "30x16x99\n" + "\n".join(["1" + "H" * 29] + ["H" * 30] * 15)
    position = Position.from_text(text)
    name, move, note = choose_move_noted(position, 3, "search", 1e-9)
    assert name == "best" and note == search_fallback(1e-9)
    assert move is not None and (move.kind, *move.cell) == _move_of("best", position, 3)
    name, move, note = choose_move_noted(position, 3, "search", None)
    assert name == "search" and note == ""
    assert move is not None and (move.kind, *move.cell) == _move_of("search", position, 3)
