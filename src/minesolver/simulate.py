"""The simulator: many games, one or several players, in processes or on a Dask cluster.

Game ``i`` of a run with seed ``S`` draws its layout from ``Random(derive_seed(S, i,
"layout"))`` and gives its player ``Random(derive_seed(S, i, "player"))``: every game
depends only on ``(S, i)``, so a run gives the same wins and guesses whatever the number
of workers, batches or machines, and several players (``strategies``) meet exactly the
same layouts (paired comparison, McNemar's test on the games only one of two won).

Games are shipped in :class:`Batch` es (picklable values) to :func:`run_batch`, either in
this process (one worker), in a ``concurrent.futures`` process pool, or on an existing
``dask.distributed`` cluster (``dask=ADDRESS``; its workers must have minesolver
installed). Each player's time is measured inside the games, so games per second per
core are the player's own cost, not the pool's.

The first click, at ``start``, is made by the simulator, not the player; ``guesses``
counts the player's moves that were not certain (``Move.guess``).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from minesolver.game import (
    PRESETS,
    FirstClick,
    Game,
    Layout,
    Level,
    Move,
    check_level,
    check_rule,
    load_layouts,
    parse_level,
    parse_start,
    random_layout,
)
from minesolver.position import Cell
from minesolver.stats import mcnemar_exact, wilson_interval
from minesolver.strategy import Strategy, get_strategy

__all__ = [
    "Batch",
    "BenchResult",
    "GameRecord",
    "PairedResult",
    "Setup",
    "SimulationError",
    "StrategyResult",
    "apply_moves",
    "derive_seed",
    "game_layout",
    "make_setup",
    "play_game",
    "played_layouts",
    "run_batch",
    "simulate",
    "start_game",
    "summarise",
]


class SimulationError(ValueError):
    """A run that cannot be made: bad settings, or a player that stops making progress."""


def derive_seed(seed: int, index: int, purpose: str) -> int:
    """A 64-bit seed for game ``index`` of run ``seed``, one per ``purpose``.

    SHA-256 of the three, so neighbouring games and purposes get unrelated streams and the
    value does not depend on Python's hash randomisation.
    """
    digest = hashlib.sha256(f"{seed}:{index}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class Setup:
    """What every game of a run shares: level, first-click rule and cell, players, seed."""

    level: Level
    rule: FirstClick
    start: Cell
    strategies: tuple[str, ...]
    seed: int = 0
    no_guess: bool = False


@dataclass(frozen=True, slots=True)
class Batch:
    """Games ``first`` .. ``first + count - 1`` of a run (with their layouts if given)."""

    setup: Setup
    first: int
    count: int
    layouts: tuple[Layout, ...] | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game played by every player: wins, guesses and seconds, per player in order.

    ``draws`` is the number of layouts drawn to find this one (no-guess boards), else 1.
    """

    index: int
    wins: tuple[bool, ...]
    guesses: tuple[int, ...]
    seconds: tuple[float, ...]
    draws: int = 1


def play_game(
    strategy: Strategy, layout: Layout, start: Cell, rng: random.Random
) -> tuple[bool, int]:
    """Play one game on ``layout``: the first click at ``start``, then the player's moves.

    Returns ``(won, guesses)``. The player gets only :meth:`Game.view` positions.
    Raises :class:`SimulationError` when a round of the player's moves changes nothing.
    """
    strategy.reset(rng)
    game = Game.from_layout(layout)
    game.push(Move("open", start))
    guesses = 0
    while not game.over:
        moves = strategy.next_moves(game.view())
        guesses += apply_moves(game, moves, strategy.name)
    return game.outcome.won, guesses


def apply_moves(game: Game, moves: Sequence[Move], player: str = "player") -> int:
    """Push ``moves`` in order until the game ends; returns how many were guesses.

    Raises :class:`SimulationError` when none of them changes the board (a player that
    would otherwise loop forever), and :class:`~minesolver.game.GameError` for a move
    the game refuses (:meth:`Game.push <minesolver.game.Game.push>`).
    """
    changed = False
    guesses = 0
    for move in moves:
        if game.over:
            break
        guesses += move.guess
        changed |= game.push(move).changed
    if not changed:
        raise SimulationError(f"player {player!r} made no progress with moves {moves!r}")
    return guesses


def game_layout(setup: Setup, index: int) -> tuple[Layout, int]:
    """Game ``index``'s layout and how many were drawn to find it (no-guess boards)."""
    rng = random.Random(derive_seed(setup.seed, index, "layout"))
    if setup.no_guess:
        from minesolver.noguess import no_guess_layout

        return no_guess_layout(setup.level, rng, setup.start, setup.rule)
    return random_layout(setup.level, rng, setup.start, setup.rule), 1


def start_game(setup: Setup, index: int, strategy: Strategy, layout: Layout | None = None) -> Game:
    """Game ``index`` of a run with its first click made, and ``strategy`` reset with the
    game's player seed: the game :func:`run_batch` plays, for tools that follow it move
    by move (``benchmarks/bench_losses.py``, ``bench_regret.py``). ``layout`` is the
    game's layout in a run over given layouts (else it is drawn from the seed)."""
    if layout is None:
        layout, _ = game_layout(setup, index)
    strategy.reset(random.Random(derive_seed(setup.seed, index, "player")))
    game = Game.from_layout(layout)
    game.push(Move("open", setup.start))
    return game


def played_layouts(
    setup: Setup, games: int, layouts: Sequence[Layout] | None = None, first_game: int = 0
) -> list[Layout]:
    """The layouts of games ``first_game ..`` of a run: the given ones, else drawn again
    from the seed exactly as the games drew them (so other solvers can play them too)."""
    if layouts is not None:
        return list(layouts[first_game : first_game + games])
    return [game_layout(setup, i)[0] for i in range(first_game, first_game + games)]


def run_batch(batch: Batch) -> list[GameRecord]:
    """Play a batch of games with every player of its setup (module-level: picklable)."""
    setup = batch.setup
    players = [get_strategy(name) for name in setup.strategies]
    records = []
    for k in range(batch.count):
        index = batch.first + k
        if batch.layouts is not None:
            layout, draws = batch.layouts[k], 1
        else:
            layout, draws = game_layout(setup, index)
        player_seed = derive_seed(setup.seed, index, "player")
        wins, guesses, seconds = [], [], []
        for player in players:
            began = time.perf_counter()
            won, guessed = play_game(player, layout, setup.start, random.Random(player_seed))
            seconds.append(time.perf_counter() - began)
            wins.append(won)
            guesses.append(guessed)
        records.append(GameRecord(index, tuple(wins), tuple(guesses), tuple(seconds), draws))
    return records


# -- results -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StrategyResult:
    """One player's totals over a run."""

    name: str
    games: int
    wins: int
    guesses: int
    seconds: float
    games_per_second: float

    @property
    def win_rate(self) -> float:
        """Wins per game (0 for no games)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def guesses_per_game(self) -> float:
        """Mean number of guesses per game."""
        return self.guesses / self.games if self.games else 0.0

    @property
    def games_per_second_per_core(self) -> float:
        """Games per second of the player's own time, i.e. on one core."""
        return self.games / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True, slots=True)
class PairedResult:
    """Two players on the same layouts: games only ``a`` won, only ``b`` won, McNemar p."""

    a: str
    b: str
    a_only: int
    b_only: int
    p_value: float


@dataclass(frozen=True, slots=True)
class BenchResult:
    """A run's results: per player, paired differences, and how it ran."""

    setup: Setup
    level_name: str
    games: int
    results: dict[str, StrategyResult]
    paired: list[PairedResult]
    records: list[GameRecord] = field(repr=False)
    wall_seconds: float
    workers: int
    draws: int

    @property
    def rejection_rate(self) -> float:
        """Share of drawn layouts rejected by the no-guess generator (0 otherwise)."""
        return 1 - self.games / self.draws if self.draws else 0.0

    def strategy_json(self, name: str) -> dict[str, object]:
        """The JSON object of one player (the ``--json`` output of a single-player run)."""
        r = self.results[name]
        lo, hi = r.ci95
        out: dict[str, object] = {
            "level": self.level_name,
            "strategy": name,
            "games": r.games,
            "wins": r.wins,
            "win_rate": r.win_rate,
            "ci95": [lo, hi],
            "guesses_per_game": r.guesses_per_game,
            "games_per_second": r.games_per_second,
            "games_per_second_per_core": r.games_per_second_per_core,
            "first_click": self.setup.rule,
            "start": list(self.setup.start),
            "seed": self.setup.seed,
            "workers": self.workers,
        }
        if self.setup.no_guess:
            out["no_guess_rejection_rate"] = self.rejection_rate
        return out

    def to_json(self) -> dict[str, object]:
        """One player: its object; several: ``{"results": {...}, "paired": [...]}``."""
        names = list(self.results)
        if len(names) == 1:
            return self.strategy_json(names[0])
        return {
            "results": {name: self.strategy_json(name) for name in names},
            "paired": [
                {"a": p.a, "b": p.b, "a_only": p.a_only, "b_only": p.b_only, "p_value": p.p_value}
                for p in self.paired
            ],
        }


def summarise(
    setup: Setup,
    level_name: str,
    records: list[GameRecord],
    wall_seconds: float,
    workers: int,
) -> BenchResult:
    """Totals, intervals and paired tests from the games' records (sorted by index)."""
    records = sorted(records, key=lambda r: r.index)
    games = len(records)
    cpu = [sum(r.seconds[s] for r in records) for s in range(len(setup.strategies))]
    total_cpu = sum(cpu) or 1.0
    results = {}
    for s, name in enumerate(setup.strategies):
        share = wall_seconds * cpu[s] / total_cpu
        results[name] = StrategyResult(
            name=name,
            games=games,
            wins=sum(r.wins[s] for r in records),
            guesses=sum(r.guesses[s] for r in records),
            seconds=cpu[s],
            games_per_second=games / share if share > 0 else 0.0,
        )
    paired = []
    for i, a in enumerate(setup.strategies):
        for j in range(i + 1, len(setup.strategies)):
            a_only = sum(r.wins[i] and not r.wins[j] for r in records)
            b_only = sum(r.wins[j] and not r.wins[i] for r in records)
            paired.append(
                PairedResult(a, setup.strategies[j], a_only, b_only, mcnemar_exact(a_only, b_only))
            )
    return BenchResult(
        setup=setup,
        level_name=level_name,
        games=games,
        results=results,
        paired=paired,
        records=records,
        wall_seconds=wall_seconds,
        workers=workers,
        draws=sum(r.draws for r in records),
    )


# -- running -----------------------------------------------------------------------------


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
            "--dask needs dask.distributed: pip install 'minesolver[dask]'"
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


def _level_name(level: Level) -> str:
    return level.name or f"{level.width}x{level.height}x{level.mines}"


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
    if games < 1:
        raise SimulationError(f"games {games} must be at least 1")
    if workers < 1:
        raise SimulationError(f"workers {workers} must be at least 1")
    if not setup.strategies:
        raise SimulationError("no player given")
    for name in setup.strategies:
        get_strategy(name)  # fail now, not in a worker, on an unknown name
    if layouts is not None:
        if len(layouts) < first_game + games:
            raise SimulationError(
                f"{games} games from game {first_game} asked but only {len(layouts)} layouts given"
            )
        for k, layout in enumerate(layouts[first_game : first_game + games], first_game):
            if layout.level != Level(setup.level.width, setup.level.height, setup.level.mines):
                raise SimulationError(
                    f"layout {k + 1} is {layout.level} but the run is {_level_name(setup.level)}"
                )
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
    return summarise(setup, _level_name(setup.level), records, wall, cores[0] if cores else workers)


def make_setup(
    *,
    level: str | None,
    first_click: str,
    start: str,
    strategies: Sequence[str],
    seed: int,
    no_guess: bool = False,
    layouts_file: str | None = None,
) -> tuple[Setup, list[Layout] | None]:
    """A run's :class:`Setup` from text options (those of ``minesolver bench``), and the
    layouts of ``layouts_file`` if given (their size then sets the level).

    Raises a ``ValueError`` subclass naming the bad option or file.
    """
    rule = check_rule(first_click)
    names = tuple(dict.fromkeys(n.strip().lower() for n in strategies if n.strip()))
    if not names:
        raise SimulationError("no player given")
    for name in names:
        get_strategy(name)  # an unknown name fails now, before any game or search
    given: list[Layout] | None = None
    if layouts_file is not None:
        if no_guess:
            raise SimulationError("give either --layouts or --no-guess, not both")
        given = load_layouts(layouts_file)
        sizes = {layout.level for layout in given}
        if len(sizes) > 1:
            shown = ", ".join(sorted(str(s) for s in sizes)[:4])
            raise SimulationError(f"{layouts_file}: layouts of several sizes ({shown})")
        (size,) = sizes
        presets = {Level(p.width, p.height, p.mines): p for p in PRESETS.values()}
        lvl = presets.get(size) or parse_level(str(size))
    else:
        lvl = parse_level(level or "expert")
    cell = parse_start(start, lvl.width, lvl.height)
    if given is None:
        check_level(lvl, cell, rule)
    return Setup(lvl, rule, cell, names, seed, no_guess), given
