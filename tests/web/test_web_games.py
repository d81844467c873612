"""The game store: random ids, a bounded number of games, idle games forgotten."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")

from minesolver.game import PRESETS
from minesolver.web.games import GameStore, game_state


def test_capacity_forgets_the_least_recently_used() -> None:
    store = GameStore(capacity=2)
    a, _ = store.create(PRESETS["beginner"], "safe", 1)
    b, _ = store.create(PRESETS["beginner"], "safe", 2)
    assert store.get(a) is not None  # a is now the most recently used
    c, _ = store.create(PRESETS["beginner"], "safe", 3)
    assert len(store) == 2
    assert store.get(b) is None
    assert store.get(a) is not None and store.get(c) is not None


def test_idle_games_expire() -> None:
    store = GameStore(ttl=0.05)
    a, _ = store.create(PRESETS["beginner"], "safe", None)
    assert store.get(a) is not None
    time.sleep(0.1)
    assert store.get(a) is None and len(store) == 0


def test_ids_are_random_and_unseeded_games_differ() -> None:
    store = GameStore()
    made = [store.create(PRESETS["expert"], "safe", None) for _ in range(5)]
    assert len({gid for gid, _ in made}) == 5
    assert len({stored.seed for _, stored in made}) == 5
    for gid, stored in made:
        stored.game.open((0, 0))
        state = game_state(gid, stored)
        assert ("layout" in state) == stored.game.over
    layouts = {stored.game.layout for _, stored in made}
    assert len(layouts) == 5
