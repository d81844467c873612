"""Games kept on the server under random ids, and what a client may see of them.

A game's id is ``secrets.token_urlsafe(16)`` (128 random bits: not guessable). The store
holds at most ``per_owner`` games of one client (its owner, the client's address) and
``capacity`` in all, and forgets any game untouched for ``ttl`` seconds. A new game past a
limit evicts its owner's own least recently used game first, so that no client can push
out the games of others; only when the store is full and the owner has no game in it does
the least recently used game of all go. A game laid out from a client's seed is marked
``seeded`` (its layout is predictable from the seed), one played on a layout the client
sent ``from_layout``, one whose file was downloaded while it ran ``revealed``.

A *no-guess* game lays its mines at the first open, uniformly among the layouts that the
exact analysis solves from that cell without a guess (:mod:`minesolver.noguess`), drawn
for at most :data:`NO_GUESS_SECONDS`. The game's clock leaves out the time the server's
player spends choosing its moves (:meth:`StoredGame.pause`), so that the times of its
replay are the player's own.

:func:`game_state` builds the JSON a client receives from :meth:`Game.view` only while
the game is on, so the mine layout cannot leak into a running game's response; the
layout is added once the game is won or lost.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from minesolver.game import Game, Layout, Level, Move, Step, move_kind
from minesolver.noguess import NoGuessError, no_guess_layout
from minesolver.position import Cell
from minesolver.replay import Replay
from minesolver.replay.evf_write import evf_mode, replay_from_moves

__all__ = ["NO_GUESS_SECONDS", "GameStore", "StoredGame", "game_state"]

NO_GUESS_SECONDS = 5.0
"""How long the first open of a no-guess game may search for its layout (an expert board
takes a tenth of a second on average); past it the open is refused."""

_NO_GUESS_BATCH = 20
"""Layouts drawn between two looks at the clock (rejection sampling stays uniform)."""


@dataclass
class StoredGame:
    """A game, its level, its seed, when it started and ended, and a lock for its moves."""

    game: Game
    level: Level
    seed: int
    seeded_by_client: bool
    started_at: float | None = None
    ended_at: float | None = None
    used_at: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    moves: int = 0
    owner: str = ""
    """The client (address) that created the game."""
    no_guess: bool = False
    """Lay the mines, at the first open, among the layouts solved without a guess."""
    from_layout: bool = False
    """The layout came from the client (an MBF file): it is known to the player."""
    revealed: bool = False
    """The game's file (with its mines) was downloaded while it ran."""
    paused: float = 0.0
    """Seconds left out of the game's clock (the server's player choosing its moves)."""
    record: list[tuple[str, Cell, float]] = field(default_factory=list)
    """Each move pushed: its kind, its cell and the game's clock (seconds) at that time."""

    def clock(self) -> float:
        """The game's clock: seconds since the store made it, less :attr:`paused`."""
        return time.monotonic() - self.paused

    def pause(self, seconds: float) -> None:
        """Leave ``seconds`` (the server's player thinking) out of the game's clock."""
        if self.started_at is not None and self.ended_at is None:
            self.paused += seconds

    def touch_clock(self) -> None:
        """Start the timer at the first open, stop it at the end."""
        now = time.monotonic()
        if self.started_at is None and self.game.started:
            self.started_at = now
        if self.ended_at is None and self.game.over:
            self.ended_at = now

    def push(self, kind: str, cell: Cell, *, toggle: bool = True) -> Step:
        """Make a client's move through :meth:`Game.push` and count it (call it under
        :attr:`lock`). A person's ``flag`` toggles; a player's (``toggle`` false) only
        sets. Raises :class:`~minesolver.game.GameError` for a bad move (an unknown kind,
        a cell off the board, a chord on a hidden cell, a move after the end)."""
        if kind == "flag" and toggle:
            move = self.game.toggle_move(cell)
        else:
            move = Move(move_kind(kind), cell)
        if self.no_guess and kind == "open" and not self.game.started:
            self._lay_no_guess(cell)
        step = self.game.push(move)
        self.moves += 1
        self.touch_clock()
        self.record.append((move.kind, move.cell, self.clock()))
        return step

    def _lay_no_guess(self, start: Cell) -> None:
        """Lay a no-guess layout for a first open at ``start`` (O(draws) analyses)."""
        game, rng = self.game, self.game.rng
        if rng is None or not (0 <= start[0] < game.width and 0 <= start[1] < game.height):
            return  # no generator, or off the board: the push says what is wrong
        deadline = time.monotonic() + NO_GUESS_SECONDS
        while True:
            try:
                layout, _ = no_guess_layout(
                    self.level, rng, start, game.rule, max_attempts=_NO_GUESS_BATCH
                )
                break
            except NoGuessError:
                if time.monotonic() > deadline:
                    raise NoGuessError(
                        f"level {self.level}: no layout solved without a guess from "
                        f"({start[0]}, {start[1]}) found in {NO_GUESS_SECONDS:g} seconds"
                    ) from None
        self.game = Game(game.width, game.height, game.mines, rule=game.rule, layout=layout)

    def moves_ms(self) -> list[tuple[str, Cell, int]]:
        """The moves as a replay records them: kind, cell, milliseconds from the first."""
        if not self.record:
            return []
        start = self.record[0][2]
        return [(kind, cell, round((t - start) * 1000)) for kind, cell, t in self.record]

    def replay(self, layout: Layout, player: str) -> Replay:
        """The game as a replay (call it under :attr:`lock`): its moves at the game's clock
        (the server's player's thinking left out), ``player``'s name (who made the moves:
        the page counts them) and the game mode of its first-click rule (no-guess, or UPK
        for a board the client gave), so that its file reviews as the page's review does,
        its first click included. O(moves)."""
        mode = evf_mode(self.game.rule, no_guess=self.no_guess, known_layout=self.from_layout)
        return replay_from_moves(
            layout, self.moves_ms(), player=player, software="minesolver web", mode=mode
        )

    def elapsed(self) -> float:
        """Seconds since the first open (frozen at the end of the game)."""
        if self.started_at is None:
            return 0.0
        end = self.ended_at if self.ended_at is not None else time.monotonic()
        return max(0.0, end - self.started_at - self.paused)


class GameStore:
    """In-memory games by id, bounded in number and in idle time."""

    def __init__(
        self, capacity: int = 1000, ttl: float = 6 * 3600.0, per_owner: int | None = None
    ) -> None:
        self.capacity = capacity
        self.ttl = ttl
        self.per_owner = capacity if per_owner is None else per_owner
        if min(capacity, self.per_owner) < 1:
            raise ValueError(f"game store limits {capacity}, {per_owner} must be at least 1")
        self._games: OrderedDict[str, StoredGame] = OrderedDict()
        self._owned: dict[str, OrderedDict[str, None]] = {}  # owner -> its ids, LRU first
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._games)

    def owned(self, owner: str) -> int:
        """How many games ``owner`` has in the store."""
        with self._lock:
            return len(self._owned.get(owner, ()))

    def create(
        self,
        level: Level,
        rule: str,
        seed: int | None,
        owner: str = "",
        *,
        no_guess: bool = False,
        layout: Layout | None = None,
    ) -> tuple[str, StoredGame]:
        """A new game of ``owner`` with a fresh id; without ``seed`` the seed is drawn at
        random; with ``layout``, on that layout (the first-click rule does not apply).
        Past a limit, the owner's least recently used game is forgotten first."""
        seeded = seed is not None
        actual = seed if seed is not None else secrets.randbits(63)
        if layout is not None:
            game = Game(
                layout.width, layout.height, len(layout.mine_indices), rule="none", layout=layout
            )
        else:
            game = Game.new(level, random.Random(actual), rule)  # type: ignore[arg-type]
        stored = StoredGame(
            game,
            level,
            actual,
            seeded,
            owner=owner,
            no_guess=no_guess and layout is None,
            from_layout=layout is not None,
        )
        game_id = secrets.token_urlsafe(16)
        with self._lock:
            self._expire()
            mine = self._owned.get(owner, OrderedDict())
            while mine and (len(mine) >= self.per_owner or len(self._games) >= self.capacity):
                self._forget(next(iter(mine)))
            while len(self._games) >= self.capacity:
                self._forget(next(iter(self._games)))
            self._games[game_id] = stored
            self._owned.setdefault(owner, OrderedDict())[game_id] = None
        return game_id, stored

    def _forget(self, game_id: str) -> StoredGame | None:
        """Drop a game from the store and from its owner's list (the lock is held)."""
        stored = self._games.pop(game_id, None)
        if stored is not None:
            mine = self._owned.get(stored.owner)
            if mine is not None:
                mine.pop(game_id, None)
                if not mine:
                    del self._owned[stored.owner]
        return stored

    def get(self, game_id: str) -> StoredGame | None:
        """The game with this id (marking it used), or ``None``."""
        with self._lock:
            self._expire()
            stored = self._games.get(game_id)
            if stored is not None:
                stored.used_at = time.monotonic()
                self._games.move_to_end(game_id)
                self._owned[stored.owner].move_to_end(game_id)
            return stored

    def delete(self, game_id: str) -> bool:
        """Forget a game; whether it existed."""
        with self._lock:
            return self._forget(game_id) is not None

    def _expire(self) -> None:
        limit = time.monotonic() - self.ttl
        while self._games:
            oldest_id, oldest = next(iter(self._games.items()))
            if oldest.used_at >= limit:
                break
            self._forget(oldest_id)


def game_state(game_id: str, stored: StoredGame) -> dict[str, Any]:
    """What the client sees: the view's text and counters; the mines only after the end."""
    game = stored.game
    view = game.view()
    flags = view.flags
    state: dict[str, Any] = {
        "id": game_id,
        "level": str(stored.level),
        "width": view.width,
        "height": view.height,
        "mines": view.mines,
        "rule": game.rule,
        "status": game.outcome.status.value,
        # a game on a client's layout has its mines from the start: it starts at a move
        "started": game.started and (stored.moves > 0 or not stored.from_layout),
        "board": view.to_text(header=False).splitlines(),
        "flags": flags,
        "mines_left": (view.mines or 0) - flags,
        "elapsed": round(stored.elapsed(), 3),
        "moves": stored.moves,
        "seeded": stored.seeded_by_client,
        "no_guess": stored.no_guess,
        "from_layout": stored.from_layout,
        "revealed": stored.revealed,
    }
    if game.over:
        state["layout"] = [[x, y] for x, y in game.mine_cells()]
        exploded = game.outcome.exploded
        state["exploded"] = list(exploded) if exploded is not None else None
        state["seed"] = stored.seed
        state["seed_text"] = str(stored.seed)  # exact in JavaScript too
    return state
