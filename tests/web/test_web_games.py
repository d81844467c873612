"""The game store: random ids, a bounded number of games, idle games forgotten."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")

from minesolver.game import PRESETS, Move
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
        stored.game.push(Move("open", (0, 0)))
        state = game_state(gid, stored)
        assert ("layout" in state) == stored.game.over
    layouts = {stored.game.layout for _, stored in made}
    assert len(layouts) == 5


def test_a_client_past_its_limit_forgets_its_own_oldest_game() -> None:
    store = GameStore(capacity=10, per_owner=3)
    others = [store.create(PRESETS["beginner"], "safe", None, "10.0.0.1")[0] for _ in range(3)]
    greedy = [store.create(PRESETS["beginner"], "safe", None, "10.0.0.2")[0] for _ in range(3)]
    assert store.get(greedy[0]) is not None  # used again: greedy[1] is now its oldest
    for _ in range(100):
        store.create(PRESETS["beginner"], "safe", None, "10.0.0.2")
    assert all(store.get(g) is not None for g in others)
    assert store.owned("10.0.0.2") == 3 and store.owned("10.0.0.1") == 3
    assert store.get(greedy[1]) is None and store.get(greedy[2]) is None
    assert len(store) == 6


def test_a_full_store_takes_from_the_new_game_s_owner_first() -> None:
    store = GameStore(capacity=4, per_owner=3)
    for _ in range(3):
        store.create(PRESETS["beginner"], "safe", None, "a")
    b = store.create(PRESETS["beginner"], "safe", None, "b")[0]
    store.create(PRESETS["beginner"], "safe", None, "b")  # full: b's own game goes, not a's
    assert (store.owned("a"), store.owned("b"), len(store)) == (3, 1, 4)
    assert store.get(b) is None
    c = store.create(PRESETS["beginner"], "safe", None, "c")[0]  # c owns none: the LRU of all
    assert (store.owned("a"), store.owned("b"), store.owned("c")) == (2, 1, 1)
    store.delete(c)
    assert store.owned("c") == 0 and len(store) == 3


def test_seeded_games_are_marked() -> None:
    store = GameStore()
    gid, stored = store.create(PRESETS["beginner"], "safe", 5)
    assert game_state(gid, stored)["seeded"] is True
    gid, stored = store.create(PRESETS["beginner"], "safe", None)
    assert game_state(gid, stored)["seeded"] is False
    with pytest.raises(ValueError, match="at least 1"):
        GameStore(per_owner=0)
