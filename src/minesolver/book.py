"""Building ``search``'s opening book (``minesolver book build``) on a Dask cluster.

For each target (a level, a first-click rule and its cell) the builder plays ``best``
from the first click on ``games`` seeded layouts until its first guess, and keeps the
positions reached there by at least ``min_share`` of the games (at most
``max_positions``, the most frequent first): after a safe corner, the corner's digit
(1, 2 or 3); after an opening, the commonest openings. Each position's candidate guesses
are the closed cells within ``margin`` of the lowest mine probability, one per class of
cells the board's symmetries map onto each other (``best``'s guess first).

Each candidate is valued by rollouts (:func:`minesolver.strategy.book.rollout_results`):
open it on a layout, then let ``best`` play the game out; every candidate plays the same
layouts with the same generator (common random numbers). Where the position has at most
``exact_limit`` layouts, every candidate plays every layout once: the values are exact
for the rollout player, and the move is the most wins. Elsewhere the layouts are drawn
exactly uniformly and the rollouts raced by sequential halving: half of ``rollouts``
(per position) over rounds that keep the better half of the candidates, each round on
fresh layouts; the other half sets the leader against ``best``'s guess on fresh layouts
again, and the leader becomes the move only where an exact one-sided sign test on the
layouts won by one of the two only is at most ``alpha`` (else ``best``'s guess stays).

The rollouts are cut into tasks of ``chunk`` layouts, run on a ``distributed``
``LocalCluster`` (``workers`` processes) or on the scheduler at ``scheduler``, and each
task's result is appended to a state file as it ends: a rerun with the same settings
reads it and plays only the tasks not done, so a stopped build resumes. Every result
depends on the seed and the layouts' range alone, never on the cut or the machine, so the
book is the same from the same seed, however it was run or resumed.

Cost: ``games`` games of ``best`` to find the positions; per position, one exact
analysis, then ``rollouts`` games of the rollout player (or candidates x layouts where
every layout is played); the Dask overhead is one pickled task per ``chunk`` layouts.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from minesolver.analysis import analyze
from minesolver.errors import MinesolverError
from minesolver.game import FirstClick, Level, check_level, check_rule, parse_level
from minesolver.position import HIDDEN, Cell, Position
from minesolver.registry import install_command
from minesolver.simulate import Setup
from minesolver.simulate.playing import apply_moves, start_game
from minesolver.simulate.seeds import game_layout
from minesolver.strategy import get_player
from minesolver.strategy.book import (
    FORMAT,
    BookCandidate,
    BookEntry,
    OpeningBook,
    every_layout_count,
    rollout_results,
)
from minesolver.strategy.native import COMPENSATED_SUM

__all__ = [
    "BookBuildError",
    "BuildSettings",
    "Target",
    "Task",
    "build_book",
    "find_positions",
    "run_task",
    "sign_test",
    "standard_targets",
]

STARTS: dict[str, Cell] = {"safe": (0, 0), "opening": (3, 3)}
"""The first click of each rule in the standard targets: a safe corner, an opening at
(3, 3) (as the published figures are measured)."""


class BookBuildError(MinesolverError, ValueError):
    """Settings, a state file or a cluster the builder cannot use: says which and why."""


@dataclass(frozen=True, slots=True)
class Target:
    """A level, a first-click rule and the first click's cell."""

    level: Level
    rule: FirstClick
    start: Cell

    def __str__(self) -> str:
        return f"{self.level} {self.rule} at {self.start[0]},{self.start[1]}"


def standard_targets(
    levels: Sequence[str] = ("beginner", "intermediate", "expert"),
    rules: Sequence[str] = ("safe", "opening"),
) -> list[Target]:
    """Each level under each rule, the first click at :data:`STARTS`'s cell; a level
    written ``LEVEL:RULE`` is taken under that rule only.

    >>> [str(t) for t in standard_targets(["5x5x4", "beginner:opening"], ["safe"])]
    ['5x5x4 safe at 0,0', 'beginner opening at 3,3']
    """
    out = []
    for text in levels:
        name, _, only = text.partition(":")
        level = parse_level(name)
        for rule_name in [only] if only else rules:
            rule = check_rule(rule_name)
            if rule not in STARTS:
                raise BookBuildError(f"rule {rule_name!r}: a book is built for safe or opening")
            start = STARTS[rule]
            check_level(level, start, rule)
            out.append(Target(level, rule, start))
    return out


@dataclass(frozen=True, slots=True)
class BuildSettings:
    """What a build computes (all of it recorded in the book and the state file)."""

    seed: int = 1
    rollouts: int = 4096
    """Rollouts per drawn position, all candidates together (half select, half confirm)."""
    games: int = 2000
    """Games of ``best`` played to find the positions."""
    min_share: float = 0.01
    max_positions: int = 4
    candidates: int = 12
    """Most candidates of a position (``best``'s guess among them)."""
    margin: str = "1/20"
    exact_limit: int = 20_000
    chunk: int = 64
    alpha: float = 0.05
    player: str = "best"

    def check(self) -> None:
        """:class:`BookBuildError` naming a setting no build can use."""
        if self.rollouts < 8 or self.games < 1 or self.chunk < 1 or self.candidates < 2:
            raise BookBuildError("rollouts >= 8, games >= 1, chunk >= 1, candidates >= 2")
        if not 0 < self.min_share <= 1 or not 0 <= self.alpha <= 1 or self.max_positions < 1:
            raise BookBuildError("0 < min-share <= 1, 0 <= alpha <= 1, max-positions >= 1")
        if self.player not in ("best", "pseq", "greedy"):
            raise BookBuildError(f"rollout player {self.player!r}: best, pseq or greedy")
        if Fraction(self.margin) < 0:
            raise BookBuildError(f"margin {self.margin} must be at least 0")


@dataclass(frozen=True, slots=True)
class Found:
    """A book position as found: its target, the games' share, ``best``'s guess there."""

    target: Target
    position: Position
    share: float
    best_move: Cell


def find_positions(target: Target, settings: BuildSettings) -> list[Found]:
    """The positions of ``target`` where ``best`` first guesses in at least
    ``min_share`` of ``games`` seeded games (most frequent first, at most
    ``max_positions``), with ``best``'s guess in the first game that reached each."""
    setup = Setup(target.level, target.rule, target.start, ("best",), settings.seed)
    player = get_player("best")
    seen: Counter[Position] = Counter()
    first_move: dict[Position, Cell] = {}
    for index in range(settings.games):
        layout, _ = game_layout(setup, index)
        game = start_game(setup, index, player, layout)
        while not game.over:
            view = game.view()
            moves = player.next_moves(view)
            if moves and moves[-1].guess:
                seen[view] += 1
                first_move.setdefault(view, moves[-1].cell)
                break
            apply_moves(game, moves, player.name)
    ranked = sorted(seen.items(), key=lambda kv: (-kv[1], kv[0].to_text()))
    return [
        Found(target, p, n / settings.games, first_move[p])
        for p, n in ranked[: settings.max_positions]
        if n / settings.games >= settings.min_share
    ]


def _symmetries(width: int, height: int) -> list[Callable[[Cell], Cell]]:
    """The maps of the board onto itself (4, or 8 on a square)."""
    w, h = width - 1, height - 1
    maps: list[Callable[[Cell], Cell]] = [
        lambda c: c,
        lambda c: (w - c[0], c[1]),
        lambda c: (c[0], h - c[1]),
        lambda c: (w - c[0], h - c[1]),
    ]
    if width == height:
        maps += [
            lambda c: (c[1], c[0]),
            lambda c: (w - c[1], c[0]),
            lambda c: (c[1], h - c[0]),
            lambda c: (w - c[1], h - c[0]),
        ]
    return maps


def candidates(position: Position, best_move: Cell, margin: Fraction, most: int) -> list[Cell]:
    """``best_move``, then the closed cells within ``margin`` of the lowest mine
    probability, one per class of cells the position's symmetries map onto each other;
    at most ``most``, taken in turn from groups of like cells (by probability, closed
    neighbours, distance to the nearest board corner and to the nearest open cell) so
    that unlike cells are valued first."""
    probs = analyze(position).probabilities
    low = min(p for p in probs.values() if p < 1)
    cells = sorted(
        (c for c, p in probs.items() if p < 1 and p <= low + margin), key=lambda c: (c[1], c[0])
    )
    width, height = position.width, position.height
    every = list(position)
    keep = [
        g for g in _symmetries(width, height) if all(position[g(c)] == position[c] for c in every)
    ]
    opened = [c for c in every if position[c] >= 0]
    corners = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]

    def key(c: Cell) -> tuple[Fraction, int, int, int]:
        x, y = c
        closed = sum(position[n] == HIDDEN for n in position.neighbours(c))
        corner = min(max(abs(x - a), abs(y - b)) for a, b in corners)
        near = min((max(abs(x - a), abs(y - b)) for a, b in opened), default=9)
        return probs[c], closed, min(corner, 2), min(near, 3)

    taken: set[Cell] = {g(best_move) for g in keep}
    groups: dict[tuple[Fraction, int, int, int], list[Cell]] = {}
    for c in cells:
        if c in taken:
            continue
        taken.update(g(c) for g in keep)
        groups.setdefault(key(c), []).append(c)
    out = [best_move]
    order = sorted(groups)
    while len(out) < most and any(groups[k] for k in order):
        for k in order:
            if groups[k] and len(out) < most:
                out.append(groups[k].pop(0))
    return out


def sign_test(ahead: int, behind: int) -> float:
    """The exact one-sided sign test: the chance that a fair coin gives at least
    ``ahead`` heads in ``ahead + behind`` tosses (1 when nothing differed).

    >>> sign_test(5, 0)
    0.03125
    """
    n = ahead + behind
    tail = sum(math.comb(n, k) for k in range(ahead, n + 1))
    return float(Fraction(tail, 2**n))


@dataclass(frozen=True, slots=True)
class Task:
    """Rollouts of ``cells`` of ``position`` (its text) on the layouts ``first ..
    first + count`` (drawn, or of every layout): one unit of work for a worker."""

    key: str
    position: str
    cells: tuple[Cell, ...]
    first: int
    count: int
    every: bool
    seed: int
    player: str
    limit: int

    def record(self) -> dict[str, Any]:
        """What identifies the task in the state file."""
        return {
            "key": self.key,
            "cells": [list(c) for c in self.cells],
            "first": self.first,
            "count": self.count,
        }


def run_task(task: Task) -> tuple[str, list[str], float]:
    """Play ``task`` (module-level: Dask ships it to a worker): its key, each cell's
    results as a string of ``1`` (won) and ``0``, and the CPU seconds it took."""
    began = time.process_time()
    results = rollout_results(
        Position.from_text(task.position),
        list(task.cells),
        player=task.player,
        seed=task.seed,
        first=task.first,
        count=task.count,
        every=task.every,
        limit=task.limit,
        compensated_sum=COMPENSATED_SUM,
    )
    bits = ["".join("1" if won else "0" for won in r) for r in results]
    return task.key, bits, time.process_time() - began


Results = dict[str, list[str]]
Valuation = Generator[list[Task], Results, None]
"""A position's valuation: it yields tasks and is sent their results."""


@dataclass(slots=True)
class _Plan:
    """One position's valuation: its candidates, seed and (if few) layout count."""

    index: int
    found: Found
    cells: list[Cell]
    probabilities: dict[Cell, Fraction]
    seed: int
    layouts: int | None
    settings: BuildSettings
    entry: BookEntry | None = None

    def tasks(self, name: str, cells: Sequence[Cell], first: int, count: int) -> list[Task]:
        chunk, every = self.settings.chunk, self.layouts is not None
        return [
            Task(
                f"{self.index}/{name}/{start}",
                self.found.position.to_text(),
                tuple(cells),
                start,
                min(chunk, first + count - start),
                every,
                self.seed,
                self.settings.player,
                self.settings.exact_limit,
            )
            for start in range(first, first + count, chunk)
        ]

    def rounds(self) -> list[tuple[int, int]]:
        """The drawn race's rounds: (candidates left, layouts each)."""
        k = len(self.cells)
        n_rounds = max(1, math.ceil(math.log2(k)))
        per_round = self.settings.rollouts // 2 // n_rounds
        out = []
        for _ in range(n_rounds):
            out.append((k, max(1, per_round // k)))
            k = max(1, math.ceil(k / 2))
        return out

    def planned(self) -> int:
        """The rollouts this valuation plays at most."""
        if self.layouts is not None:
            return len(self.cells) * self.layouts
        return sum(k * n for k, n in self.rounds()) + 2 * (self.settings.rollouts // 4)

    def candidate(self, cell: Cell, wins: int, rollouts: int) -> BookCandidate:
        return BookCandidate(cell, self.probabilities[cell], wins, rollouts)

    def entry_of(
        self, move: Cell, candidates: list[BookCandidate], confirmation: dict[str, Any] | None
    ) -> BookEntry:
        f = self.found
        return BookEntry(
            level=str(f.target.level),
            rule=f.target.rule,
            start=f.target.start,
            position=f.position,
            share=f.share,
            exact=self.layouts is not None,
            layouts=self.layouts,
            move=move,
            best_move=f.best_move,
            candidates=tuple(candidates),
            confirmation=confirmation,
        )


def _every(plan: _Plan) -> Valuation:
    """Every candidate on every layout: the most wins (``best``'s guess on a tie)."""
    n = plan.layouts or 0
    tasks = plan.tasks("every", plan.cells, 0, n)
    results: Results = yield tasks
    wins = [0] * len(plan.cells)
    for t in tasks:
        for k, bits in enumerate(results[t.key]):
            wins[k] += bits.count("1")
    top = max(range(len(plan.cells)), key=lambda k: (wins[k], -k))
    plan.entry = plan.entry_of(
        plan.cells[top],
        [plan.candidate(c, w, n) for c, w in zip(plan.cells, wins, strict=True)],
        None,
    )


def _race(plan: _Plan) -> Valuation:
    """Sequential halving on drawn layouts, then the leader against ``best``'s guess on
    fresh ones, kept only past the sign test (see the module)."""
    cells = plan.cells
    wins, played = [0] * len(cells), [0] * len(cells)
    alive = list(range(len(cells)))
    first = 0
    for r, (_, n) in enumerate(plan.rounds()):
        tasks = plan.tasks(f"round{r}", [cells[k] for k in alive], first, n)
        results: Results = yield tasks
        for t in tasks:
            for k, bits in zip(alive, results[t.key], strict=True):
                wins[k] += bits.count("1")
                played[k] += len(bits)
        first += n
        alive.sort(key=lambda k: (-wins[k], k))
        alive = alive[: max(1, math.ceil(len(alive) / 2))]
    leader = alive[0]
    values = [plan.candidate(c, w, p) for c, w, p in zip(cells, wins, played, strict=True)]
    if leader == 0:  # best's own guess leads
        plan.entry = plan.entry_of(cells[0], values, None)
        return
    m = plan.settings.rollouts // 4
    tasks = plan.tasks("confirm", [cells[leader], cells[0]], first, m)
    results = yield tasks
    ours = "".join(results[t.key][0] for t in tasks)
    theirs = "".join(results[t.key][1] for t in tasks)
    ahead = sum(a == "1" and b == "0" for a, b in zip(ours, theirs, strict=True))
    behind = sum(a == "0" and b == "1" for a, b in zip(ours, theirs, strict=True))
    p = sign_test(ahead, behind)
    confirmation = {
        "leader": list(cells[leader]),
        "rollouts": m,
        "leader_wins": ours.count("1"),
        "best_wins": theirs.count("1"),
        "ahead": ahead,
        "behind": behind,
        "p": p,
    }
    move = cells[leader] if p <= plan.settings.alpha else cells[0]
    plan.entry = plan.entry_of(move, values, confirmation)


class _State:
    """The state file: a header naming the build, then one line per task done."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.done: dict[str, tuple[dict[str, Any], list[str]]] = {}
        self.cpu = 0.0
        if path.exists() and path.stat().st_size:
            lines = path.read_text(encoding="utf-8").splitlines()
            try:
                first = json.loads(lines[0])
            except ValueError:
                first = None
            if not isinstance(first, dict) or first.get("header") != header:
                raise BookBuildError(
                    f"{path} is the state of another build (other settings or targets): "
                    "remove it or give another --state"
                )
            for line in lines[1:]:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a stop
                self.done[row["key"]] = (
                    {k: row[k] for k in ("key", "cells", "first", "count")},
                    row["results"],
                )
                self.cpu += float(row.get("cpu", 0.0))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"header": header}) + "\n", encoding="utf-8")

    def get(self, task: Task) -> list[str] | None:
        found = self.done.get(task.key)
        if found is None:
            return None
        if found[0] != task.record():
            raise BookBuildError(f"{self.path}: task {task.key} was another task; remove the file")
        return found[1]

    def add(self, task: Task, results: list[str], cpu: float) -> None:
        row = {**task.record(), "results": results, "cpu": round(cpu, 4)}
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        self.done[task.key] = (task.record(), results)
        self.cpu += cpu


class _Cluster:
    """A Dask client, made when first needed: on a new ``LocalCluster`` of ``workers``
    processes, or on the scheduler at ``address``."""

    def __init__(self, address: str | None, workers: int) -> None:
        self.address, self.workers = address, workers
        self.client: Any = None
        self.cluster: Any = None

    def run(self, tasks: list[Task]) -> Iterator[tuple[str, list[str], float]]:
        try:
            from distributed import Client, LocalCluster
            from distributed import as_completed as dask_completed
        except ImportError as exc:  # pragma: no cover - the dask extra is not installed
            raise BookBuildError(
                f"book build needs dask.distributed, the 'dask' extra: {install_command('dask')}"
            ) from exc
        if self.client is None:
            if self.address is None:
                import logging

                self.cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=self.workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
                self.client = Client(self.cluster)  # type: ignore[no-untyped-call]
            else:
                try:
                    self.client = Client(self.address, timeout=30)  # type: ignore[no-untyped-call]
                except (OSError, TimeoutError) as exc:
                    raise BookBuildError(
                        f"cannot reach the Dask scheduler at {self.address}: {exc}"
                    ) from exc
        futures = self.client.map(run_task, tasks, pure=False)
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            yield future.result()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _position_seed(seed: int, position: Position) -> int:
    """A position's rollout seed: from the build's seed and the position alone."""
    import hashlib

    digest = hashlib.sha256(f"{seed}\n{position.to_text()}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def build_book(
    targets: Sequence[Target],
    settings: BuildSettings,
    state: Path,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    command: str = "",
    on_found: Callable[[int, int], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> OpeningBook:
    """The book of ``targets`` (see the module), its tasks' results kept in ``state``.

    ``on_found(positions, planned_rollouts)`` is called once the positions are known,
    ``on_progress(rollouts)`` as each task ends (or is read back from ``state``).
    Raises :class:`BookBuildError` for settings, a state file or a cluster it cannot use.
    """
    settings.check()
    if workers < 1:
        raise BookBuildError(f"workers {workers} must be at least 1")
    margin = Fraction(settings.margin)
    plans: list[_Plan] = []
    for target in targets:
        for found in find_positions(target, settings):
            probs = dict(analyze(found.position).probabilities)
            count = every_layout_count(found.position, settings.exact_limit)
            cells = candidates(found.position, found.best_move, margin, settings.candidates)
            seed = _position_seed(settings.seed, found.position)
            plans.append(_Plan(len(plans), found, cells, probs, seed, count, settings))
    header = {"format": FORMAT, "settings": asdict(settings), "targets": [str(t) for t in targets]}
    store = _State(state, header)
    if on_found is not None:
        on_found(len(plans), sum(p.planned() for p in plans))
    cluster = _Cluster(scheduler, workers)
    running: list[Valuation] = [(_every(p) if p.layouts is not None else _race(p)) for p in plans]
    asked: list[list[Task] | None] = [next(g) for g in running]
    played = 0
    try:
        while any(a is not None for a in asked):
            todo = [t for a in asked if a is not None for t in a]
            got: Results = {}
            missing = []
            for t in todo:
                old = store.get(t)
                if old is None:
                    missing.append(t)
                else:
                    got[t.key] = old
                    if on_progress is not None:
                        on_progress(len(t.cells) * t.count)
            by_key = {t.key: t for t in missing}
            if missing:
                for key, bits, cpu in cluster.run(missing):
                    store.add(by_key[key], bits, cpu)
                    got[key] = bits
                    if on_progress is not None:
                        on_progress(len(bits) * len(bits[0]) if bits else 0)
            played += sum(len(t.cells) * t.count for t in todo)
            for k, g in enumerate(running):
                if asked[k] is None:
                    continue
                try:
                    asked[k] = g.send(got)
                except StopIteration:
                    asked[k] = None
    finally:
        cluster.close()
    entries = tuple(p.entry for p in plans if p.entry is not None)
    meta = {
        "command": command,
        "seed": settings.seed,
        "settings": asdict(settings),
        "targets": [str(t) for t in targets],
        "rollout_player": settings.player,
        "rollouts_played": played,
        "cpu_seconds": round(store.cpu, 1),
    }
    return OpeningBook(FORMAT, meta, entries)
