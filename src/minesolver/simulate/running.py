"""Running a run: games in batches, in this process, in local processes or on Dask.

Games are shipped in :class:`Batch` es (picklable values) to :func:`run_batch` (a
module-level function, so processes and Dask workers can call it), either in this
process (one worker), in a ``concurrent.futures`` process pool, or on an existing
``dask.distributed`` cluster (``dask=ADDRESS``; its workers must have minesolver
installed). Each player's time is measured inside the games, so games per second per
core are the player's own cost, not the pool's. Cost: the games', plus one pickled batch
per ``batch_size`` games.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import cast

from minesolver.game import Layout, Level
from minesolver.registry import install_command
from minesolver.simulate.config import Setup, SimulationError
from minesolver.simulate.playing import play_game
from minesolver.simulate.results import BenchResult, GameRecord, summarise
from minesolver.simulate.seeds import derive_seed, game_layout
from minesolver.strategy import get_player

__all__ = ["Batch", "make_batches", "run_batch", "simulate"]


@dataclass(frozen=True, slots=True)
class Batch:
    """Games ``first`` .. ``first + count - 1`` of a run (with their layouts if given)."""

    setup: Setup
    first: int
    count: int
    layouts: tuple[Layout, ...] | None = None


def run_batch(batch: Batch) -> list[GameRecord]:
    """Play a batch of games with every player of its setup (module-level: picklable).

    A player that decides natively, or has a native twin making its moves (``best``),
    plays the whole batch in one native call
    (:func:`~minesolver.simulate.native.play_native`); the others play game by game here.
    Either way game ``i`` gets the same layout and player seed, so the records are the
    same.
    """
    from minesolver.simulate.native import native_twin, play_native  # the native core

    setup = batch.setup
    indices = range(batch.first, batch.first + batch.count)
    players = [get_player(name) for name in setup.players]
    twins = [native_twin(p) for p in players]
    in_python = [t is None for t in twins]
    layouts: list[Layout] | None = None
    draws = [1] * batch.count
    if batch.layouts is not None:
        layouts = list(batch.layouts)
    elif setup.no_guess or any(in_python):
        drawn = [game_layout(setup, index) for index in indices]
        layouts, draws = [d[0] for d in drawn], [d[1] for d in drawn]
    columns: list[list[tuple[bool, int, float]]] = []
    for player, twin in zip(players, twins, strict=True):
        if twin is not None:
            played = play_native(setup, twin, indices, layouts)
            columns.append([(g.won, g.guesses, g.seconds) for g in played])
            continue
        column = []
        for k, index in enumerate(indices):
            layout = cast(list[Layout], layouts)[k]
            began = time.perf_counter()
            rng = random.Random(derive_seed(setup.seed, index, "player"))
            won, guessed = play_game(player, layout, setup.start, rng)
            column.append((won, guessed, time.perf_counter() - began))
        columns.append(column)
    records = []
    for k, index in enumerate(indices):
        games = [column[k] for column in columns]
        records.append(
            GameRecord(
                index,
                tuple(g[0] for g in games),
                tuple(g[1] for g in games),
                tuple(g[2] for g in games),
                draws[k],
            )
        )
    return records


def make_batches(
    setup: Setup,
    games: int,
    batch_size: int,
    layouts: Sequence[Layout] | None = None,
    first_game: int = 0,
) -> list[Batch]:
    """Cut games ``first_game`` .. ``first_game + games - 1`` into batches of at most
    ``batch_size`` (given ``layouts`` are indexed from ``first_game`` too)."""
    batches = []
    for offset in range(0, games, batch_size):
        count = min(batch_size, games - offset)
        first = first_game + offset
        given = None if layouts is None else tuple(layouts[first : first + count])
        batches.append(Batch(setup, first, count, given))
    return batches


def _run_local(batches: list[Batch], workers: int) -> Iterator[list[GameRecord]]:
    if workers <= 1:
        for batch in batches:
            yield run_batch(batch)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_batch, batch) for batch in batches]
        for future in as_completed(futures):
            yield future.result()


def _run_dask(batches: list[Batch], address: str, cores: list[int]) -> Iterator[list[GameRecord]]:
    """The batches on the cluster at ``address``; appends its thread count to ``cores``."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError as exc:  # pragma: no cover - the dask extra is not installed
        raise SimulationError(
            f"--dask needs dask.distributed, the 'dask' extra: {install_command('dask')}"
        ) from exc
    try:
        client = Client(address, timeout=30)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    with client:
        cores.append(sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
        futures = client.map(run_batch, batches, pure=False)
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()


def _check_run(
    setup: Setup, games: int, workers: int, layouts: Sequence[Layout] | None, first_game: int
) -> None:
    """Raise :class:`SimulationError` for settings no run can use (before any game)."""
    if games < 1:
        raise SimulationError(f"games {games} must be at least 1")
    if workers < 1:
        raise SimulationError(f"workers {workers} must be at least 1")
    if not setup.players:
        raise SimulationError("no player given")
    for name in setup.players:
        get_player(name)  # fail now, not in a worker, on an unknown name
    if layouts is not None:
        if len(layouts) < first_game + games:
            raise SimulationError(
                f"{games} games from game {first_game} asked but only {len(layouts)} layouts given"
            )
        for k, layout in enumerate(layouts[first_game : first_game + games], first_game):
            if layout.level != Level(setup.level.width, setup.level.height, setup.level.mines):
                raise SimulationError(
                    f"layout {k + 1} is {layout.level} but the run is {setup.level}"
                )


def simulate(
    setup: Setup,
    games: int,
    *,
    workers: int = 1,
    layouts: Sequence[Layout] | None = None,
    dask: str | None = None,
    batch_size: int | None = None,
    on_progress: Callable[[int], None] | None = None,
    first_game: int = 0,
) -> BenchResult:
    """Play ``games`` games with every player of ``setup`` and summarise them.

    ``layouts`` plays the given layouts (the first ``games`` of them) instead of drawing
    them; ``dask`` ships the batches to the scheduler at that address instead of local
    processes. ``on_progress(n)`` is called as each batch of ``n`` games ends.
    ``first_game`` plays games ``first_game ..`` of the seeded run instead of ``0 ..``, so
    a long run can be made in parts whose records add up to the whole.
    Raises :class:`SimulationError` for bad settings.
    """
    _check_run(setup, games, workers, layouts, first_game)
    if batch_size is None:
        lanes = workers if dask is None else 64
        batch_size = max(1, min(200, math.ceil(games / (4 * lanes))))
    batches = make_batches(setup, games, batch_size, layouts, first_game)
    began = time.perf_counter()
    cores: list[int] = []  # a cluster's threads, as its workers report them
    stream = _run_dask(batches, dask, cores) if dask is not None else _run_local(batches, workers)
    records: list[GameRecord] = []
    for chunk in stream:
        records.extend(chunk)
        if on_progress is not None:
            on_progress(len(chunk))
    wall = time.perf_counter() - began
    lost = 0
    if layouts is not None:  # a given layout may hide a mine under the first click
        lost = sum(lay.is_mine(setup.start) for lay in layouts[first_game : first_game + games])
    return summarise(
        setup,
        str(setup.level),
        records,
        wall,
        cores[0] if cores else workers,
        given_layouts=layouts is not None,
        lost_on_start=lost,
    )
