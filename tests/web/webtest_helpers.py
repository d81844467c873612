"""Shared helpers of the web tests: positions, seeded layouts, JSON checks."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from minesolver.game import PRESETS, Game, Move
from minesolver.position import HIDDEN, Position, neighbour_table

T = TypeVar("T")

KNOWN = "5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH\n"
"""The design document's known answer: 72 layouts."""


def hard_position(side: int = 60, seed: int = 1) -> str:
    """A tangled position (random digits revealed over a dense board): one huge
    component, many seconds for the exact engine, well inside the board limits."""
    rng = random.Random(seed)
    n = side * side
    mines = set(rng.sample(range(n), n // 5))
    table = neighbour_table(side, side)
    cells = [
        sum(j in mines for j in table[i]) if i not in mines and rng.random() < 0.3 else HIDDEN
        for i in range(n)
    ]
    return Position(side, side, tuple(cells), len(mines)).to_text()


def replay(level: str, seed: int, rule: str, first: tuple[int, int]) -> Game:
    """The server's game for ``seed``, rebuilt here: same generator, same first click."""
    game = Game.new(PRESETS[level], random.Random(seed), rule)  # type: ignore[arg-type]
    game.push(Move("open", first))
    return game


def assert_no_layout(state: dict[str, Any]) -> None:
    """A running game's JSON: no mines, no seed, only the player's view on the board."""
    assert state["status"] == "playing"
    assert not {"layout", "exploded", "seed"} & set(state)
    assert all(set(row) <= set("HF012345678") for row in state["board"])


def error_of(response: Any, status: int, code: str) -> str:
    """The detail of an error response, after checking its status, code and that it
    shows no stack trace."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code
    assert "Traceback" not in response.text
    return str(body["detail"])


def run_coroutine(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` on a thread of its own.

    The browser tests share one Playwright per xdist worker, and Playwright's sync API
    keeps an event loop running in the main thread for as long as it lives: a plain
    ``asyncio.run`` in any later test of that worker fails ("cannot be called from a
    running event loop"), depending on which tests the worker drew before.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
