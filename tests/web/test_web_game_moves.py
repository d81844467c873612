"""A web game's moves go through ``Game.push``: counted, timed, a person's flag toggles."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from minesolver.game import PRESETS, GameError
from minesolver.position import FLAG, HIDDEN
from minesolver.web.games import GameStore, game_state


def test_moves_are_pushed_counted_and_timed() -> None:
    store = GameStore()
    gid, stored = store.create(PRESETS["beginner"], "opening", 5)
    assert stored.elapsed() == 0.0
    step = stored.push("open", (4, 4))
    assert step.changed and step.opened[0] == (4, 4) and stored.moves == 1
    assert stored.started_at is not None
    hidden = next(c for c in stored.game.mine_cells() if step.view[c] == HIDDEN)
    assert stored.push("flag", hidden).view[hidden] == FLAG  # a person's flag toggles...
    assert stored.push("flag", hidden).view[hidden] == HIDDEN
    stored.push("flag", hidden, toggle=False)
    assert not stored.push("flag", hidden, toggle=False).changed  # ...a player's only sets
    assert stored.moves == 5
    assert game_state(gid, stored)["status"] == "playing"


def test_bad_moves_are_game_errors_and_the_end_is_reported() -> None:
    store = GameStore()
    gid, stored = store.create(PRESETS["beginner"], "safe", 5)
    with pytest.raises(GameError, match="move kind 'dig'"):
        stored.push("dig", (0, 0))
    with pytest.raises(GameError, match="off the 9x9 board"):
        stored.push("open", (9, 0))
    with pytest.raises(GameError, match="the cell is hidden"):
        stored.push("chord", (0, 0))
    stored.push("open", (0, 0))
    mine = stored.game.mine_cells()[0]
    step = stored.push("open", mine)
    assert step.outcome.exploded == mine and stored.ended_at is not None
    state = game_state(gid, stored)
    assert state["status"] == "lost" and state["exploded"] == list(mine)
    with pytest.raises(GameError, match="already lost"):
        stored.push("open", (1, 1))
