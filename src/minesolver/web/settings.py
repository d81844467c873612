"""The web app's settings: every limit the server keeps, with its default.

:class:`Settings` is what ``minesolver serve`` and :func:`minesolver.web.create_app` take;
``GET /api/levels`` and the OpenAPI document state its :meth:`~Settings.limits` to clients.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["REPLAY_CLICKS_SHARE", "Settings"]

REPLAY_CLICKS_SHARE = 0.5
"""The share of :attr:`Settings.replay_budget` a replay's fewest clicks may take before its
safety deadline cuts them (the grading needs the rest): 60 s at the default 120 s, the
deadline of ``minesolver replay``'s."""


@dataclass(frozen=True)
class Settings:
    """The server's limits; each is enforced with a 4xx (or 503) naming it."""

    max_side: int = 100
    """Largest width or height of a position or game."""
    max_cells: int = 5000
    """Largest number of cells of a position or game."""
    max_body: int = 64 * 1024
    """Largest request body in bytes."""
    max_replay: int = 2 * 1024 * 1024
    """Largest replay file accepted by ``POST /api/replays`` (bytes)."""
    max_image: int = 8 * 1024 * 1024
    """Largest screenshot accepted by ``POST /api/read`` (bytes)."""
    budget: float = 5.0
    """Seconds of computation allowed per analysis or player's move."""
    replay_budget: float = 120.0
    """Seconds allowed to grade a replay or review a game (``POST /api/replays``, ``GET
    /api/games/{id}/review``), in the expensive lane: an analysis per action and the
    board's fewest clicks, whose search counts its work (as ``minesolver replay`` does)
    and gets :data:`REPLAY_CLICKS_SHARE` of this as its safety deadline (at most the
    command line's), so that the page's figures are the command line's on a loaded
    machine as on an idle one. A grading cut by it is a 503."""
    read_budget: float = 600.0
    """Seconds allowed to read a screenshot (``POST /api/read``, ``POST /api/reads``):
    only a safety deadline. The reader bounds its own work (the image's size is limited,
    and every search in it counts its work, not seconds), so whatever image the command
    line reads is read here too, on a loaded server as on an idle one: a read takes
    seconds of CPU (the slowest whole-desktop capture about 23 s), and a machine with
    eight times as many busy processes as cores stretches that about tenfold
    (``benchmarks/bench_read_load.py``): the largest image the reader takes, a
    7700x5190 lattice of 16-pixel cells, took 224 s in a worker there. A read cut by it
    is a 503 that says so. A read waits for a free reader this long too (or
    ``queue_wait``, when longer)."""
    read_workers: int = 1
    """Worker processes that read screenshots (a lane of their own: at most this many
    reads at once, and a read never holds up an analysis)."""
    read_nice: int = 0
    """How much lower the readers run in the scheduler (``nice``). A read is a person
    waiting on bounded work, so not lowered by default: at the expensive lane's ``nice``
    a read took 3.5 times as long on a busy machine (``benchmarks/bench_read_load.py``)."""
    client_reads: int = 2
    """Reads of one client (address) not yet finished, one being read and the others
    waiting (more: 429)."""
    max_reads: int = 100
    """Reads kept at once (``/api/reads``), finished or not: past it the oldest finished
    one is forgotten, and when none is finished a new one is a 503."""
    read_ttl: float = 600.0
    """Seconds a finished read (``/api/reads/{id}``) is kept for its client to fetch."""
    memory_mb: int | None = 2048
    """Address-space limit of each worker process, in MiB."""
    workers: int = 2
    """Worker processes for expensive analyses (at most this many run at once)."""
    fast_workers: int = 1
    """Worker processes for cheap analyses only (the fast lane)."""
    heavy_nice: int = 10
    """How much lower the expensive lane's workers run in the scheduler (``nice``), so
    that they leave the processor to the server and the fast lane when both want it."""
    fast_budget: float = 1.0
    """Seconds a request in the fast lane may take before it is moved to the other lane."""
    cheap_boxes: int = 64
    """A request is cheap when its largest component has at most this many boxes..."""
    cheap_frontier: int = 400
    """... and its frontier at most this many cells."""
    client_jobs: int = 1
    """Analyses of one client (address) running at once, in each lane."""
    client_queue: int = 2
    """Expensive analyses of one client waiting for a worker (more: 429)."""
    client_fast_queue: int = 4
    """Cheap analyses of one client waiting for a worker (more: 429)."""
    queue_wait: float = 10.0
    """Seconds a request waits for a free worker before a 503."""
    max_games: int = 1000
    """Games kept at once (the least recently used are forgotten)."""
    games_per_client: int = 20
    """Games kept at once for one client address (its own oldest is forgotten first)."""
    game_ttl: float = 6 * 3600.0
    """Seconds an untouched game is kept."""

    def limits(self) -> dict[str, Any]:
        """The limits as JSON, for clients."""
        return {
            "max_side": self.max_side,
            "max_cells": self.max_cells,
            "max_body": self.max_body,
            "max_replay": self.max_replay,
            "max_image": self.max_image,
            "read_budget_seconds": self.read_budget,
            "client_reads": self.client_reads,
            "max_reads": self.max_reads,
            "read_ttl_seconds": self.read_ttl,
            "budget_seconds": self.budget,
            "replay_budget_seconds": self.replay_budget,
            "fast_budget_seconds": self.fast_budget,
            "client_jobs": self.client_jobs,
            "client_queue": self.client_queue,
            "client_fast_queue": self.client_fast_queue,
            "queue_wait_seconds": self.queue_wait,
            "games_per_client": self.games_per_client,
            "max_games": self.max_games,
        }
